/**
 * `agentcfg`'s executable (dist/cli.js): loads the command line's bundle (dist/cliMain.js, built
 * from main.ts) with V8's code cache, so that a run after the first one does not parse and compile
 * the 2.4 MB bundle again, which is close to a third of a one-file `agentcfg validate`, process
 * start included.
 *
 * It compiles the bundle as a `vm.Script` with the cached data of the last run, and writes new data
 * when there was none or V8 refused it (another Node, another build). A cache that cannot be read
 * or written only costs the compilation it would have saved.
 *
 * Node 22.1 and later can cache modules themselves (`module.enableCompileCache`), but their cache
 * is made right after a module is compiled, so it holds the top level and not the functions the
 * run then compiles (a fifth of what this loader's cache holds), and a one-file run with it is
 * slower than with this loader, on Node 22 and 24 alike. So this loader is used on every Node version.
 *
 * The cache is the user's: `$XDG_CACHE_HOME/agentcfg` (`~/.cache/agentcfg`; `%LOCALAPPDATA%` on
 * Windows), one file per build of the bundle and version of Node. `NODE_DISABLE_COMPILE_CACHE=1`
 * (Node's own switch) turns it off.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

const bundle = path.join(__dirname, 'cliMain.js');

/** Node's own loading, for when there is no cache of ours to use. */
function requireBundle(): void {
  createRequire(bundle)(bundle);
}

function start(): void {
  const directory = process.env.NODE_DISABLE_COMPILE_CACHE ? null : cacheDirectory();
  if (!directory) return requireBundle();
  runWithCodeCache(bundle, directory);
}

/** Null when there is no absolute place for it (XDG: a relative `XDG_CACHE_HOME` is ignored). */
function cacheDirectory(): string | null {
  const given = process.platform === 'win32' ? process.env.LOCALAPPDATA : process.env.XDG_CACHE_HOME;
  if (given && path.isAbsolute(given)) return path.join(given, 'agentcfg');
  if (process.platform === 'win32') return null;
  try {
    return path.join(os.homedir(), '.cache', 'agentcfg');
  } catch {
    return null; // no home directory for this user
  }
}

/**
 * Runs `file` as Node runs a CommonJS module, compiled with the code cache kept in `directory`.
 * The cache file is named by a hash of the source: V8 itself checks only the source's length, and
 * running the bytecode of another build of the same length would run the wrong code.
 */
function runWithCodeCache(file: string, directory: string): void {
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const key = createHash('sha1').update(process.version).update(process.arch).update(bytes).digest('hex').slice(0, 20);
  const cacheFile = path.join(directory, `cliMain-${key}.v8cache`);
  const cachedData = readOrNull(cacheFile);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData: cachedData ?? undefined,
  });
  // Written when the process ends: the data then holds the functions the run compiled, not only the
  // top level. A run that only prints the usage or the version compiles almost nothing, so it leaves
  // the writing to the first command that does work (a cache written after `--version` saved a
  // large validate less than half of what one written after a validate saved).
  if ((!cachedData || script.cachedDataRejected) && !onlyUsageOrVersion(process.argv.slice(2))) {
    process.once('exit', () => save(cacheFile, directory, () => script.createCachedData()));
  }
  const module = new Module(file, require.main);
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
}

function onlyUsageOrVersion(argv: readonly string[]): boolean {
  return argv.length === 0 || argv[0] === 'help' || argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '-V');
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/**
 * Writes the cache whole or not at all: two runs ending together each rename a complete file of
 * their own. The caches of other builds are removed (the directory holds one, ≈ 1.2 MB).
 */
function save(cacheFile: string, directory: string, data: () => Buffer): void {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(partial, data(), { mode: 0o600 });
    renameSync(partial, cacheFile);
    for (const name of readdirSync(directory)) {
      if (CACHE_FILE.test(name) && name !== path.basename(cacheFile)) rmSync(path.join(directory, name), { force: true });
    }
  } catch {
    // A cache that cannot be written: the next run compiles the bundle again.
  }
}

/** The name of a cache file of this loader, finished (`.tmp`: being written by a running process). */
const CACHE_FILE = /^cliMain-[0-9a-f]{20}\.v8cache$/;

start();
