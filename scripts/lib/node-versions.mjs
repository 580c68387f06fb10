// Other Node.js releases for test/unit/nodeVersions.test.ts: the project builds and tests on the
// machine's Node (20), but `agentcfg` runs on its users' Node (22, 24 and 26 are the maintained
// lines) and the language server on VS Code's (Electron's Node 22). Each release is the official
// binary that the npm registry carries as the package node-<platform>-<arch> (what the `node`
// package installs), fetched with `npm pack` into ~/.cache/gitlab-agent-config/ once; a marker
// file makes every later call instant. Never throws: when npm, the registry or a binary for this platform is missing, the
// answer says why, so the test can report itself skipped with that reason.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cacheRoot } from './code-server.mjs';
import { lastLines, runQuiet } from './proc.mjs';

/** The releases the tests run on besides the machine's: the newest of each maintained line (22, 24, 26) when pinned. */
export const NODE_VERSIONS = ['22.23.5', '24.22.3', '26.12.1'];

/** @returns {{ ok: true, bin: string } | { ok: false, reason: string }} */
export function ensureNode(version) {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return { ok: false, reason: `no Node binary package is used on ${process.platform}` };
  const installDir = path.join(cacheRoot, `node-${version}-${process.platform}-${process.arch}`);
  const bin = path.join(installDir, 'package', 'bin', 'node');
  const markerFile = path.join(installDir, '.install-complete.json');
  if (existsSync(markerFile) && existsSync(bin)) return { ok: true, bin };

  const name = `node-${process.platform}-${process.arch}@${version}`;
  console.log(`[setup] fetching ${name} from the npm registry into ${installDir}`);
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  const packed = runQuiet('npm', ['pack', name, '--pack-destination', installDir], { cwd: installDir });
  if (packed.status !== 0) return { ok: false, reason: `npm pack ${name} failed: ${lastLines(packed)}` };
  const tarball = readdirSync(installDir).find((file) => file.endsWith('.tgz'));
  if (!tarball) return { ok: false, reason: `npm pack ${name} wrote no tarball` };
  const unpacked = runQuiet('tar', ['xzf', tarball], { cwd: installDir });
  if (unpacked.status !== 0) return { ok: false, reason: `tar xzf ${tarball} failed: ${lastLines(unpacked)}` };
  rmSync(path.join(installDir, tarball));
  const printed = runQuiet(bin, ['--version']);
  if (printed.stdout?.trim() !== `v${version}`) return { ok: false, reason: `${bin} --version printed "${lastLines(printed)}"` };

  writeFileSync(markerFile, JSON.stringify({ version, package: name, installedAt: new Date().toISOString() }, null, 2));
  return { ok: true, bin };
}
