/**
 * Bundles the Red Hat YAML stand-in (extension.ts) with esbuild and packs it with vsce into a .vsix the
 * e2e harness installs beside ours. Its server is the repository's yaml-language-server (devDependency).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../harness';

export async function packRedHatStandin(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-redhat-standin-'));
  await build({
    entryPoints: [path.join(repoRoot, 'test', 'e2e', 'redHatStandin', 'extension.ts')],
    outfile: path.join(dir, 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    define: { YAML_LANGUAGE_SERVER: JSON.stringify(path.join(repoRoot, 'node_modules', 'yaml-language-server', 'out', 'server', 'src', 'server.js')) },
    logLevel: 'error',
  });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'vscode-yaml-standin',
      displayName: 'Red Hat YAML stand-in (tests)',
      description: 'yaml-language-server behind the Red Hat YAML client setup, for coexistence tests.',
      publisher: 'agentcfg-tests',
      version: '0.0.1',
      license: 'MIT',
      engines: { vscode: '^1.91.0' },
      main: './extension.js',
      activationEvents: ['onLanguage:yaml'],
    }),
  );
  writeFileSync(path.join(dir, 'README.md'), 'Test stand-in for Red Hat YAML.\n');
  writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  const vsix = path.join(dir, 'redhat-yaml-standin.vsix');
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix], { cwd: dir, stdio: 'pipe' });
  return vsix;
}
