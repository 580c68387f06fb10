// `npm run package`: builds the bundles, then packs the extension with @vscode/vsce into
// dist/gitlab-agent-config.vsix and prints the file list read back from the archive itself, so it is
// plain to see that the .vsix carries only what runs (see .vscodeignore).
// `--out <file>` writes elsewhere. Also imported by `npm start` and the e2e harness (`ensureVsix`).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { root, mustRun } from './lib/proc.mjs';

export const defaultVsixPath = path.join(root, 'dist', 'gitlab-agent-config.vsix');

/** The extension page's README (for users); the repository's README.md is the developers'. */
export const MARKETPLACE_README = 'docs/marketplace/README.md';

/** Files whose change means the .vsix must be packed again (and anything under media/). */
const inputs = ['package.json', '.vscodeignore', MARKETPLACE_README, 'LICENSE', 'dist/client.js', 'dist/server.js', 'syntaxes/gitlab-agent-yaml.tmLanguage.json', 'syntaxes/gitlab-agent-yaml.language-configuration.json', 'syntaxes/gitlab-agent-yaml.go-template.injection.json'];

function mtime(file) {
  try {
    return statSync(path.join(root, file)).mtimeMs;
  } catch {
    return 0;
  }
}

/** Builds with esbuild (scripts/build.mjs). */
export async function build() {
  await mustRun('node', ['scripts/build.mjs']);
}

/** Newest modification time of the files under the given folders (relative to the repository). */
function newestSource(dirs) {
  let newest = 0;
  for (const dir of dirs) {
    const abs = path.join(root, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** True when a bundle is missing or older than the sources and schemas it is built from. */
export function bundlesStale() {
  const built = Math.min(mtime('dist/client.js'), mtime('dist/server.js'));
  return built === 0 || newestSource(['client/src', 'server/src', 'schemas']) > built || mtime('package-lock.json') > built;
}

/**
 * Packs the extension into `out` with vsce. Non-interactive: no repository prompt, no licence
 * prompt when there is no LICENSE file, no npm dependency walk (esbuild bundled everything).
 */
export async function packageVsix(out = defaultVsixPath) {
  mkdirSync(path.dirname(out), { recursive: true });
  const hasLicense = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((f) => existsSync(path.join(root, f)));
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  await mustRun(
    process.execPath,
    [
      vsce, 'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      '--readme-path', MARKETPLACE_README,
      ...(hasLicense ? [] : ['--skip-license']),
      '--out', out,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return out;
}

/**
 * The .vsix at `out`, built and packed only when it is missing or older than the bundles, the
 * manifest or .vscodeignore: the e2e tests of one run share one package.
 * @param {{ out?: string, build?: boolean | 'ifStale' }} [options] build: run esbuild first: always
 *   (true, the default), never (false) or only when the sources are newer than the bundles.
 */
export async function ensureVsix({ out = defaultVsixPath, build: doBuild = true } = {}) {
  if (doBuild === true || (doBuild === 'ifStale' && bundlesStale())) await build();
  const packed = existsSync(out) ? statSync(out).mtimeMs : 0;
  if (packed && inputs.every((f) => mtime(f) <= packed) && newestSource(['media']) <= packed) return out;
  return packageVsix(out);
}

/** Entry names and sizes of a zip archive, read from its central directory. */
export function listZip(file) {
  const buf = readFileSync(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip archive`);
  const count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i += 1) {
    const method = buf.readUInt16LE(offset + 10);
    const compressed = buf.readUInt32LE(offset + 20);
    const size = buf.readUInt32LE(offset + 24);
    const nameLength = buf.readUInt16LE(offset + 28);
    const extraLength = buf.readUInt16LE(offset + 30);
    const commentLength = buf.readUInt16LE(offset + 32);
    const localHeader = buf.readUInt32LE(offset + 42);
    const name = buf.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.push({ name, size, method, compressed, localHeader });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The text of one entry of a zip archive (stored or deflated). */
export function readZipEntry(file, name) {
  const entry = listZip(file).find((e) => e.name === name);
  if (!entry) return null;
  const buf = readFileSync(file);
  const start = entry.localHeader + 30 + buf.readUInt16LE(entry.localHeader + 26) + buf.readUInt16LE(entry.localHeader + 28);
  const data = buf.subarray(start, start + entry.compressed);
  return (entry.method === 8 ? inflateRawSync(data) : data).toString('utf8');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : defaultVsixPath;
  await build();
  await packageVsix(out);
  const entries = listZip(out).filter((e) => !e.name.endsWith('/'));
  console.log(`\n${path.relative(process.cwd(), out) || out} (${Math.round(statSync(out).size / 1024)} KiB), ${entries.length} files:`);
  for (const e of entries) console.log(`  ${e.name.padEnd(40)} ${String(e.size).padStart(9)} bytes`);
}
