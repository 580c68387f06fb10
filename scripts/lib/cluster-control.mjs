// Builds, starts, stops and inspects the real Kubernetes control plane of test/cluster (etcd +
// kube-apiserver + kube-controller-manager from the upstream Go modules, on 127.0.0.1).
// Used by scripts/cluster.mjs (up|down|status|env) and scripts/lib/cluster-suite.mjs (the cluster
// test suite). See test/cluster/README.md.
//
// Layout under the cluster home (AGENTCFG_CLUSTER_HOME, default ~/.cache/gitlab-agent-config/cluster):
//   bin/<build key>/controlplane, kubectl   binaries, keyed by go.mod + go.sum + Go sources + Go version
//   state/state.json                        what is running (see STATE_KEYS in the README)
//   state/kubeconfig                        admin and restricted contexts
//   state/*.log                             supervisor, kube-apiserver, kube-controller-manager logs
//   state/data/                             etcd data and certificates; removed by `down`
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync,
} from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { root } from './proc.mjs';

export const goModuleDir = path.join(root, 'test', 'cluster');
export const clusterHome = process.env.AGENTCFG_CLUSTER_HOME
  ?? path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'gitlab-agent-config', 'cluster');
export const stateDir = path.join(clusterHome, 'state');
export const stateFile = path.join(stateDir, 'state.json');
const dataDir = path.join(stateDir, 'data');
const kubeconfigFile = path.join(stateDir, 'kubeconfig');
const supervisorLog = path.join(stateDir, 'controlplane.log');
const lockFile = path.join(stateDir, 'up.lock');

const READY_TIMEOUT_MS = 5 * 60_000;
const STOP_TIMEOUT_MS = 30_000;
const LOCK_TIMEOUT_MS = 60 * 60_000; // a cold build holds the lock for many minutes
const HEARTBEAT_MS = 15_000;

const log = (msg) => console.log(`[cluster] ${msg}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = (since) => {
  const s = Math.round((Date.now() - since) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
};

/** The Kubernetes release pinned in test/cluster/go.mod (e.g. "v1.34.10"). */
export function kubernetesVersion() {
  const mod = readFileSync(path.join(goModuleDir, 'go.mod'), 'utf8');
  const m = /^\s*(?:require\s+)?k8s\.io\/kubernetes\s+(v\d+\.\d+\.\d+)/m.exec(mod);
  if (!m) throw new Error('test/cluster/go.mod does not require k8s.io/kubernetes');
  return m[1];
}

function goVersion() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error('Go is required to build the test control plane (test/cluster) but `go version` failed: '
      + `${r.error?.message ?? r.stderr}. Install Go >= 1.25 and make sure the Go module proxy is reachable.`);
  }
  return r.stdout.trim();
}

function goSources(dir, rel = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) out.push(...goSources(dir, r));
    } else if (entry.name.endsWith('.go')) out.push(r);
  }
  return out;
}

function ldflags(version) {
  const [major, minor] = version.slice(1).split('.');
  const vars = { gitVersion: version, gitMajor: major, gitMinor: minor, gitTreeState: 'clean' };
  const x = [];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    for (const [k, v] of Object.entries(vars)) x.push(`-X ${pkg}.${k}=${v}`);
  }
  return ['-s', '-w', ...x].join(' ');
}

/** The cache key of the binaries: every input of the Go build. */
export function buildKey() {
  const hash = createHash('sha256');
  hash.update(goVersion());
  hash.update(`${process.platform}/${process.arch}\0${ldflags(kubernetesVersion())}\0`);
  for (const f of ['go.mod', 'go.sum', ...goSources(goModuleDir).sort()]) {
    hash.update(`${f}\0`);
    hash.update(readFileSync(path.join(goModuleDir, f)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Paths of the built binaries for the current sources (they may not exist yet). */
export function binaries(key = buildKey()) {
  const dir = path.join(clusterHome, 'bin', key);
  return { dir, controlplane: path.join(dir, 'controlplane'), kubectl: path.join(dir, 'kubectl') };
}

/**
 * Builds controlplane and kubectl unless the cache already holds them for this build key. The first
 * build downloads the modules and compiles Kubernetes: many minutes on 2 cores, so it reports
 * progress every few seconds.
 */
export async function ensureBuilt() {
  const key = buildKey();
  const bins = binaries(key);
  if (existsSync(bins.controlplane) && existsSync(bins.kubectl)) return bins;
  const version = kubernetesVersion();
  const tmp = `${bins.dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`building the control plane and kubectl from k8s.io/kubernetes ${version} (${goVersion()}); `
    + 'the first build takes about 7 minutes on 2 cores, later builds are cached');
  const started = Date.now();
  const args = ['build', '-v', '-ldflags', ldflags(version), '-o', tmp + path.sep, './controlplane', 'k8s.io/kubernetes/cmd/kubectl'];
  const env = { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-mod=mod'].filter(Boolean).join(' ') };
  const child = spawn('go', args, { cwd: goModuleDir, env, stdio: ['ignore', 'inherit', 'pipe'] });
  let packages = 0;
  let downloads = 0;
  let lastPackage = '';
  const problems = [];
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    if (line.startsWith('go: downloading ')) downloads += 1;
    else if (!line.includes(' ') && line.length > 0) { packages += 1; lastPackage = line; }
    else { problems.push(line); console.log(`[cluster] go: ${line}`); }
  });
  const heartbeat = setInterval(() => {
    log(`… building: ${downloads} modules downloaded, ${packages} packages compiled${lastPackage ? ` (last ${lastPackage})` : ''}, ${elapsed(started)}`);
  }, HEARTBEAT_MS);
  const code = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  }).finally(() => clearInterval(heartbeat));
  if (code !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`go build of test/cluster failed (exit ${code}) after ${elapsed(started)}:\n${problems.slice(-40).join('\n')}`);
  }
  rmSync(bins.dir, { recursive: true, force: true });
  renameSync(tmp, bins.dir);
  log(`built in ${elapsed(started)} (${packages} packages): ${bins.dir}`);
  pruneBuilds(key);
  return bins;
}

// Keeps the cache to the current build (and the one a running control plane uses): each is ~250 MB.
function pruneBuilds(keep) {
  const binRoot = path.join(clusterHome, 'bin');
  const inUse = readState()?.buildKey;
  for (const entry of readdirSync(binRoot)) {
    if (entry === keep || entry === inUse) continue;
    rmSync(path.join(binRoot, entry), { recursive: true, force: true });
  }
}

/** The state file's content, or null when there is none. */
export function readState() {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch {
    return null;
  }
}

function writeState(state) {
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(`${stateFile}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${stateFile}.tmp`, stateFile);
}

// Linux: our processes (command line names a controlplane binary) that match a predicate on
// (pid, process group, command line), found through /proc.
function ourProcesses(match) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid pgrp …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('controlplane') && match(Number(entry), Number(fields[2]), cmdline)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

// The live processes of the control plane's process group. Elsewhere than Linux, asks the kernel
// whether the group still exists.
function groupMembers(pgid) {
  if (!pgid) return [];
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  return ourProcesses((_pid, pgrp) => pgrp === pgid);
}

// Processes of ours that use this state directory's data but escaped the process group (e.g. a
// component left from a run whose state file was removed by hand).
function strays() {
  if (process.platform !== 'linux') return [];
  return ourProcesses((_pid, _pgrp, cmdline) => cmdline.includes(dataDir));
}

/** True when the supervisor process recorded in the state is alive. */
function supervisorAlive(state) {
  return Boolean(state?.pid) && groupMembers(state.pid).includes(state.pid);
}

/** GET /readyz with the cluster CA; resolves true on 200. */
export function readyz(server, caFile, timeoutMs = 5000) {
  return new Promise((resolve) => {
    let ca;
    try {
      ca = readFileSync(caFile);
    } catch {
      resolve(false);
      return;
    }
    const req = https.get(`${server}/readyz`, { ca, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** Running and answering /readyz? */
export async function status() {
  const state = readState();
  const alive = supervisorAlive(state);
  const ready = alive && state.status === 'ready' && (await readyz(state.server, state.caFile));
  return { state, alive, ready };
}

/**
 * Kills every process of the control plane's process group (or the single process `single`):
 * SIGTERM, then SIGKILL after a grace period; resolves once none is left.
 */
async function killGroup(pgid, single = 0) {
  const members = single ? () => ourProcesses((pid) => pid === single) : () => groupMembers(pgid);
  if (!members().length) return;
  const signalGroup = (sig) => {
    try {
      process.kill(single || -pgid, sig);
    } catch {
      // Already gone.
    }
  };
  signalGroup('SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (members().length && Date.now() < deadline) await sleep(100);
  if (members().length) {
    log(`process group ${pgid} did not stop within ${STOP_TIMEOUT_MS / 1000}s; killing it`);
    signalGroup('SIGKILL');
    const killDeadline = Date.now() + 10_000;
    while (members().length && Date.now() < killDeadline) await sleep(100);
  }
  const left = members();
  if (left.length) throw new Error(`processes ${left.join(', ')} of the control plane are still running`);
}

async function withLock(fn) {
  mkdirSync(stateDir, { recursive: true });
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(lockFile, 'utf8') || 0);
      let holderAlive = false;
      try {
        if (holder) process.kill(holder, 0);
        holderAlive = holder > 0;
      } catch {
        holderAlive = false;
      }
      if (!holderAlive) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() - started > LOCK_TIMEOUT_MS) throw new Error(`${lockFile} is held by pid ${holder}`);
      if (!announced) log(`waiting for another cluster command (pid ${holder}) to finish`);
      announced = true;
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Builds (cached) and starts the control plane unless it is already running and ready.
 * Resolves with { started, state }: started is false when it was already running.
 */
export async function up() {
  return withLock(async () => {
    const current = await status();
    if (current.ready) return { started: false, state: current.state };
    // A previous run crashed, was killed, never became ready or lost its state file: clear every trace of it.
    if (current.state) await killGroup(current.state.pid);
    for (const pid of strays()) await killGroup(pid, pid);
    removeRunData();
    const bins = await ensureBuilt();
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    const out = openSync(supervisorLog, 'w');
    const child = spawn(bins.controlplane, ['run', '--dir', dataDir, '--kubeconfig', kubeconfigFile, '--log-dir', stateDir], {
      detached: true, // own session and process group: `down` signals the whole group
      stdio: ['ignore', out, out],
      cwd: stateDir,
    });
    closeSync(out);
    let exited = null;
    child.on('exit', (code, signal) => { exited = signal ?? `exit ${code}`; });
    child.unref();
    const state = {
      version: 1,
      status: 'starting',
      pid: child.pid,
      pgid: child.pid,
      startedAt: new Date().toISOString(),
      buildKey: path.basename(bins.dir),
      controlplane: bins.controlplane,
      kubectl: bins.kubectl,
      kubeconfig: kubeconfigFile,
      stateDir,
      dataDir,
      caFile: path.join(dataDir, 'pki', 'ca.crt'),
      logs: {
        controlplane: supervisorLog,
        apiserver: path.join(stateDir, 'kube-apiserver.log'),
        controllerManager: path.join(stateDir, 'kube-controller-manager.log'),
      },
    };
    writeState(state);
    log(`starting the control plane (pid ${child.pid}, logs in ${stateDir})`);

    const started = Date.now();
    const readyFile = path.join(dataDir, 'controlplane.json');
    let nextBeat = Date.now() + HEARTBEAT_MS;
    let ready = null;
    while (!ready) {
      if (exited) break;
      if (existsSync(readyFile)) ready = JSON.parse(readFileSync(readyFile, 'utf8'));
      else if (Date.now() - started > READY_TIMEOUT_MS) break;
      else {
        if (Date.now() > nextBeat) {
          log(`… waiting for the control plane to become ready (${elapsed(started)})`);
          nextBeat = Date.now() + HEARTBEAT_MS;
        }
        await sleep(200);
      }
    }
    if (!ready || !(await readyz(ready.server, state.caFile))) {
      await killGroup(child.pid);
      removeRunData();
      throw new Error(`the control plane did not become ready (${exited ?? `timeout after ${elapsed(started)}`}).\n`
        + `--- ${supervisorLog}\n${tail(supervisorLog)}\n--- kube-apiserver.log\n${tail(state.logs.apiserver, 20)}`);
    }
    const full = {
      ...state,
      status: 'ready',
      readyAt: ready.readyAt,
      server: ready.server,
      port: ready.port,
      etcdUrl: ready.etcdUrl,
      apiserverPid: ready.apiserverPid,
      controllerManagerPid: ready.controllerManagerPid,
      kubernetesVersion: ready.kubernetesVersion,
      adminContext: ready.adminContext,
      restrictedContext: ready.restrictedContext,
      restrictedNamespace: ready.restrictedNamespace,
      restrictedUser: ready.restrictedUser,
      controllers: ready.controllers,
    };
    writeState(full);
    log(`ready in ${elapsed(started)}: ${full.server} (Kubernetes ${full.kubernetesVersion})`);
    return { started: true, state: full };
  });
}

function removeRunData() {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(kubeconfigFile, { force: true });
  rmSync(stateFile, { force: true });
}

/** Stops the control plane (its whole process group) and removes its data. Safe to repeat. */
export async function down() {
  return withLock(async () => {
    const state = readState();
    if (state?.pid) await killGroup(state.pid);
    for (const pid of strays()) {
      log(`killing stray control-plane process ${pid}`);
      await killGroup(pid, pid);
    }
    removeRunData();
    return { stopped: Boolean(state?.pid) };
  });
}

/** Environment variables that point the cluster tests (and benchmarks) at a running control plane. */
export function testEnv(state) {
  return {
    AGENTCFG_TEST_KUBECONFIG: state.kubeconfig,
    AGENTCFG_TEST_ADMIN_CONTEXT: state.adminContext,
    AGENTCFG_TEST_RESTRICTED_CONTEXT: state.restrictedContext,
    AGENTCFG_TEST_RESTRICTED_NAMESPACE: state.restrictedNamespace,
    AGENTCFG_TEST_CLUSTER_STATE: stateFile,
    AGENTCFG_KUBECTL: state.kubectl,
  };
}
