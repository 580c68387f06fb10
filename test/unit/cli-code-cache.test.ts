// `agentcfg` (dist/cli.js) loads the command line's bundle (dist/cliMain.js) with V8's code cache
// (server/src/cli/entry.ts), so that a run after the first does not compile it again. The cache must
// never change an answer: the same output and exit status with it, without it, with a cache V8
// refuses and with a cache directory that cannot be written; it is written by the first run that
// does work, kept while it is accepted, and replaces the caches of other builds only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const cli = path.join(root, 'dist', 'cli.js');
const config = path.join(root, 'examples', '.gitlab', 'agents', 'production-agent', 'config.yaml');
const work = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-code-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs dist/cli.js with the cache under `cacheHome` (null: the cache turned off). */
function run(cacheHome: string | null, ...args: string[]) {
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome ?? '', NODE_DISABLE_COMPILE_CACHE: cacheHome === null ? '1' : '' };
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const cacheFiles = (home: string): string[] => {
  try {
    return readdirSync(path.join(home, 'agentcfg')).sort();
  } catch {
    return [];
  }
};

describe('agentcfg with the code cache', () => {
  const uncached = run(null, 'validate', config, '--format', 'json');

  test('the first run that does work writes the cache; --version and --help do not', () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    assert.equal(run(home, '--version').status, 0);
    assert.equal(run(home, 'validate', '--help').status, 0);
    assert.deepEqual(cacheFiles(home), []);
    assert.deepEqual(run(home, 'validate', config, '--format', 'json'), uncached);
    assert.match(cacheFiles(home).join(' '), /^cliMain-[0-9a-f]{20}\.v8cache$/);
  });

  test('a cache V8 accepts is kept and gives the same answers; one it refuses is replaced, the answers the same', () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    run(home, 'validate', config);
    const [name] = cacheFiles(home);
    assert.ok(name);
    const file = path.join(home, 'agentcfg', name);
    const written = readFileSync(file);
    const before = statSync(file).mtimeMs;
    assert.deepEqual(run(home, 'validate', config, '--format', 'json'), uncached);
    assert.equal(statSync(file).mtimeMs, before, 'an accepted cache is not written again');
    writeFileSync(file, Buffer.from('not a V8 code cache'));
    assert.deepEqual(run(home, 'validate', config, '--format', 'json'), uncached);
    const rewritten = readFileSync(file);
    assert.ok(rewritten.length > written.length / 2, `rewritten: ${rewritten.length} bytes, first written ${written.length}`);
    const again = statSync(file).mtimeMs;
    assert.deepEqual(run(home, 'validate', config, '--format', 'json'), uncached);
    assert.equal(statSync(file).mtimeMs, again, 'the rewritten cache is accepted');
  });

  test('the caches of other builds are removed when the cache is written; other files are left', () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    const directory = path.join(home, 'agentcfg');
    run(home, '--version');
    spawnSync('mkdir', ['-p', directory]);
    writeFileSync(path.join(directory, 'cliMain-0123456789abcdef0123.v8cache'), 'an older build');
    writeFileSync(path.join(directory, 'notes.txt'), 'not ours');
    run(home, 'validate', config);
    const files = cacheFiles(home);
    assert.equal(files.length, 2, files.join(' '));
    assert.ok(files.includes('notes.txt'));
    assert.ok(!files.includes('cliMain-0123456789abcdef0123.v8cache'));
  });

  test('a cache directory that cannot be made changes nothing', () => {
    const blocked = path.join(work, 'a-file');
    writeFileSync(blocked, '');
    assert.deepEqual(run(blocked, 'validate', config, '--format', 'json'), uncached);
    assert.equal(statSync(blocked).isFile(), true);
  });

  test('a cluster command, in a bundle of its own, loads through the cached bundle', () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    run(home, 'validate', config);
    const help = run(home, 'can-i', '--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: agentcfg can-i /);
    assert.equal(help.stderr, '');
  });

  test('a relative XDG_CACHE_HOME is ignored, as the XDG spec says: the cache goes to ~/.cache, nothing into the working directory', () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    const cwd = mkdtempSync(path.join(work, 'cwd-'));
    const env = { ...process.env, HOME: home, XDG_CACHE_HOME: 'relative-cache', NODE_DISABLE_COMPILE_CACHE: '' };
    const result = spawnSync(process.execPath, [cli, 'validate', config, '--format', 'json'], { cwd, env, encoding: 'utf8' });
    assert.equal(result.status, uncached.status, result.stderr);
    assert.deepEqual(readdirSync(cwd), []);
    assert.match(cacheFiles(path.join(home, '.cache')).join(' '), /^cliMain-[0-9a-f]{20}\.v8cache$/);
  });

  test('NODE_DISABLE_COMPILE_CACHE turns it off', () => {
    const home = mkdtempSync(path.join(work, 'home-'));
    const env = { ...process.env, XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' };
    const result = spawnSync(process.execPath, [cli, 'validate', config, '--format', 'json'], { cwd: root, env, encoding: 'utf8' });
    assert.equal(result.stdout, uncached.stdout);
    assert.deepEqual(cacheFiles(home), []);
  });
});
