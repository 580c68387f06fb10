// A real VS Code for `npm start` and the e2e tests: code-server 4.100.3 (VS Code 1.100.3) from the npm
// registry plus Debian's Chromium, installed without any download of a prebuilt binary (this machine
// reaches only the npm registry and Debian's packages; see the TESTING guide for the recipe).
// Everything lands in ~/.cache/gitlab-agent-config/ and a marker file makes the second run instant.
/* global AbortSignal */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  lstatSync,
  openSync,
  closeSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const cacheRoot = process.env.AGENTCFG_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'gitlab-agent-config');

const installDir = path.join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
const codeServerBin = path.join(installDir, 'node_modules', '.bin', 'code-server');
const vscodeDir = path.join(installDir, 'node_modules', 'code-server', 'lib', 'vscode');
const markerFile = path.join(installDir, '.install-complete.json');

const DEBIAN_PACKAGES = ['libkrb5-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'libx11-dev', 'pkg-config', 'ripgrep', 'chromium'];

/**
 * A gallery on a closed loopback port: code-server ships with Open VSX as its marketplace, and the
 * tests must never reach a non-loopback address, so any gallery query fails at once, locally.
 */
const OFFLINE_GALLERY = JSON.stringify({
  serviceUrl: 'http://127.0.0.1:9/gallery',
  itemUrl: 'http://127.0.0.1:9/items',
  resourceUrlTemplate: 'http://127.0.0.1:9/{publisher}/{name}/{version}/{path}',
  controlUrl: '',
  recommendationsUrl: '',
});

/** User settings that keep walkthroughs, tips, telemetry and network look-ups out of the way. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'typescript.disableAutomaticTypeAcquisition': true,
  'git.enabled': false,
  'git.autofetch': false,
  'chat.commandCenter.enabled': false,
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
};

function log(message) {
  console.log(`[code-server] ${message}`);
}

/** Runs a command with inherited output; throws with the command line when it fails. */
function exec(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd ?? process.cwd()}) failed: ${signal ?? `exit ${code}`}`));
    });
  });
}

function asRoot(command, args) {
  if (process.getuid?.() === 0) return [command, args];
  return ['sudo', ['-n', command, ...args]];
}

function isInstalled(pkg) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

function hasCandidate(pkg) {
  const result = spawnSync('apt-cache', ['policy', pkg], { encoding: 'utf8' });
  return result.status === 0 && /Candidate: (?!\(none\))/.test(result.stdout);
}

/** Installs the Debian packages code-server needs to build its native modules, plus rg and Chromium. */
export async function ensureDebianPackages(packages = DEBIAN_PACKAGES) {
  const missing = packages.filter((p) => !isInstalled(p));
  if (!missing.length) return;
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Wait for dpkg's lock instead of failing when another script installs at the same time.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
  const update = () => exec(...asRoot('apt-get', [...lockWait, 'update', '-q']), { env });
  const install = () => exec(...asRoot('apt-get', [...lockWait, 'install', '-y', '-q', '--no-install-recommends', ...missing]), { env });
  // apt-get update only when the package lists do not know a package, or when they proved stale.
  let updated = false;
  if (!missing.every(hasCandidate)) {
    await update();
    updated = true;
  }
  try {
    await install();
  } catch (err) {
    if (updated) throw err;
    log('apt-get install failed; refreshing the package lists and retrying');
    await update();
    await install();
  }
}

/** Debian's Chromium, installed when missing; returns its path. */
export async function ensureChromium() {
  await ensureDebianPackages(['chromium']);
  return CHROMIUM_PATH;
}

function readMarker() {
  try {
    return JSON.parse(readFileSync(markerFile, 'utf8'));
  } catch {
    return null;
  }
}

/** The native modules are built for this Node ABI; a different Node needs a rebuild. */
function markerMatches(marker) {
  return marker?.version === CODE_SERVER_VERSION && marker?.nodeModules === process.versions.modules && existsSync(codeServerBin);
}

/** A lock folder so that two scripts (say `npm start` and `npm test`) never install at once. */
async function withInstallLock(fn) {
  mkdirSync(cacheRoot, { recursive: true });
  const lock = path.join(cacheRoot, `code-server-${CODE_SERVER_VERSION}.lock`);
  for (let waited = 0; ; waited += 1) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const pid = Number(readFileSafe(path.join(lock, 'pid')));
      if (!pid || !processAlive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (waited % 30 === 0) log(`waiting for another install (pid ${pid}) to finish`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function readFileSafe(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** `code-server --version`, e.g. "4.100.3 <commit> with Code 1.100.3", or null. */
export function codeServerVersion() {
  // --config: otherwise code-server writes a default config (with a password) to ~/.config.
  const config = path.join(installDir, 'code-server.yaml');
  if (!existsSync(config)) writeFileSync(config, 'auth: none\ncert: false\n');
  const result = spawnSync(codeServerBin, ['--config', config, '--version'], { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) return null;
  return result.stdout.split('\n').find((line) => /^\d+\.\d+\.\d+ /.test(line))?.trim() ?? null;
}

/**
 * Installs code-server 4.100.3 into the cache (once) and returns the path of its binary.
 * Steps as in the TESTING guide: npm install without scripts (its postinstall would download
 * ripgrep), then VS Code's own dependencies with Debian's rg in place of the downloaded one, a
 * native rebuild against this Node, and argon2 for code-server itself.
 */
export async function ensureCodeServer() {
  if (markerMatches(readMarker())) return codeServerBin;
  await ensureDebianPackages();
  return withInstallLock(async () => {
    if (markerMatches(readMarker())) return codeServerBin;
    const started = Date.now();
    log(`installing code-server ${CODE_SERVER_VERSION} into ${installDir} (first run only; several minutes)`);
    mkdirSync(installDir, { recursive: true });
    rmSync(markerFile, { force: true });
    // Our own package.json in the cache folder: approves exactly the install script we run there
    // (argon2's native build); code-server's postinstall would download ripgrep, so it never runs.
    writeFileSync(
      path.join(installDir, 'package.json'),
      JSON.stringify(
        {
          name: 'agentcfg-code-server-cache',
          private: true,
          dependencies: { 'code-server': CODE_SERVER_VERSION },
          allowScripts: { argon2: true, 'code-server': false },
        },
        null,
        2,
      ),
    );
    const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

    log('step 1/5: npm install --ignore-scripts code-server');
    await exec('npm', ['install', '--ignore-scripts'], { cwd: installDir, env: npmEnv });

    log('step 2/5: VS Code dependencies (lib/vscode)');
    await exec('npm', ['install', '--omit=dev', '--ignore-scripts'], { cwd: vscodeDir, env: npmEnv });

    log("step 3/5: Debian's ripgrep in place of the downloaded one, then the native rebuild");
    const rgDir = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(rgDir, { recursive: true });
    copyFileSync('/usr/bin/rg', path.join(rgDir, 'rg'));
    chmodSync(path.join(rgDir, 'rg'), 0o755);
    // npm 11 runs only approved install scripts: @vscode/ripgrep's would download rg, so it is
    // denied; the rest are VS Code's own pinned native modules (node-gyp builds), approved here.
    await exec('npm', ['deny-scripts', '@vscode/ripgrep'], { cwd: vscodeDir, env: npmEnv });
    await exec('npm', ['approve-scripts', '--all', '--no-allow-scripts-pin'], { cwd: vscodeDir, env: npmEnv });
    // npm_config_yes: node-gyp is fetched by npx from the npm registry when a package calls it.
    await exec('npm', ['rebuild'], { cwd: vscodeDir, env: { ...npmEnv, npm_config_yes: 'true' } });
    const asar = path.join(vscodeDir, 'node_modules.asar');
    if (existsSync(asar) || isSymlink(asar)) rmSync(asar, { recursive: true, force: true });
    symlinkSync('node_modules', asar);

    log('step 4/5: npm rebuild argon2 (from source: its prebuilt download is out of reach)');
    await exec('npm', ['rebuild', 'argon2'], {
      cwd: installDir,
      env: { ...npmEnv, npm_config_yes: 'true', npm_config_build_from_source: 'true' },
    });

    log('step 5/5: code-server --version');
    const version = codeServerVersion();
    if (!version?.startsWith(CODE_SERVER_VERSION)) {
      throw new Error(`code-server --version printed ${JSON.stringify(version)}; expected ${CODE_SERVER_VERSION}`);
    }
    log(version);
    const seconds = Math.round((Date.now() - started) / 1000);
    writeFileSync(
      markerFile,
      JSON.stringify({ version: CODE_SERVER_VERSION, nodeModules: process.versions.modules, node: process.version, seconds, at: new Date().toISOString() }, null, 2),
    );
    log(`installed in ${seconds}s`);
    return codeServerBin;
  });
}

function isSymlink(file) {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Environment for every code-server process: no marketplace beyond loopback. */
function codeServerEnv() {
  const env = { ...process.env, EXTENSIONS_GALLERY: OFFLINE_GALLERY };
  // A VS Code terminal that runs these scripts must not make code-server talk to that VS Code.
  for (const key of Object.keys(env)) if (key.startsWith('VSCODE_')) delete env[key];
  return env;
}

/** Installs a .vsix into the given extensions folder (offline; nothing is fetched). */
export async function installVsix(vsixPath, extensionsDir, userDataDir) {
  const bin = await ensureCodeServer();
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(userDataDir, { recursive: true });
  await exec(
    bin,
    ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', path.resolve(vsixPath), '--force'],
    { env: codeServerEnv(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
}

/** A TCP port on 127.0.0.1 that is free right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Writes `<userDataDir>/User/settings.json`: the quiet defaults, then the caller's settings. */
export function seedSettings(userDataDir, settings = {}) {
  const userDir = path.join(userDataDir, 'User');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(path.join(userDir, 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2));
}

/**
 * Starts code-server on 127.0.0.1:<port> with `folder` open and waits until its HTTP endpoint
 * answers. Returns the workbench URL, the child process and `stop()`, which ends the whole process
 * group (code-server forks its extension host and file watchers).
 * @param {{folder: string, port?: number, userDataDir: string, extensionsDir: string,
 *   settings?: Record<string, unknown>, logFile?: string, timeoutMs?: number}} options
 *   logFile: where code-server's output goes (appended); without it, to this process's output.
 */
export async function startCodeServer({ folder, port, userDataDir, extensionsDir, settings = {}, logFile, timeoutMs = 60_000 }) {
  const bin = await ensureCodeServer();
  const actualPort = port ?? (await freePort());
  seedSettings(userDataDir, settings);
  mkdirSync(extensionsDir, { recursive: true });
  // Our own config file, so code-server neither reads nor writes ~/.config/code-server.
  const configFile = path.join(userDataDir, 'code-server.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${actualPort}\nauth: none\ncert: false\n`);
  const args = [
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${actualPort}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    folder,
  ];
  const logFd = logFile ? openLog(logFile) : null;
  const child = spawn(bin, args, {
    detached: true,
    env: codeServerEnv(),
    stdio: ['ignore', logFd ?? 'inherit', logFd ?? 'inherit'],
  });
  if (logFd !== null) closeSync(logFd);
  // Detached, so it would outlive a script or test that ends without stop(): end it on exit too.
  const killOnExit = () => killGroup(child.pid, 'SIGKILL');
  process.once('exit', killOnExit);
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
    child.on('error', (err) => {
      exited = { code: null, signal: String(err) };
      resolve(exited);
    });
  });

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      if (exited) return;
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000);
      await exitPromise;
      clearTimeout(timer);
      // Children that outlive the main process (extension host, watchers) share its group.
      killGroup(child.pid, 'SIGKILL');
      process.off('exit', killOnExit);
    })();
    return stopping;
  };

  const base = `http://127.0.0.1:${actualPort}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`code-server exited before it answered (${exited.signal ?? `exit ${exited.code}`})`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${base} within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const url = `${base}/?folder=${encodeURIComponent(path.resolve(folder))}`;
  return { url, port: actualPort, process: child, stop, exited: exitPromise };
}

function openLog(file) {
  mkdirSync(path.dirname(file), { recursive: true });
  return openSync(file, 'a');
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

// `node scripts/lib/code-server.mjs` installs (or confirms) everything and prints the binary.
if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const bin = await ensureCodeServer();
  await ensureChromium();
  console.log(`${bin}\n${codeServerVersion()}\nready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}
