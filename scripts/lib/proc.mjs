// Small process helpers shared by the project scripts (test, start, package, cluster, bench).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs a command with inherited stdio; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs a command and throws when it fails (for set-up steps that must succeed). */
export async function mustRun(command, args, options = {}) {
  const code = await run(command, args, options);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/** Synchronous capture of stdout (trimmed), or null when the command fails. */
export function capture(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: root, ...options });
  return result.status === 0 ? result.stdout.trim() : null;
}

/**
 * Runs a set-up command with its output captured, never shown (ten minutes at most), for an
 * installer that reports why it failed instead of throwing: see {@link lastLines}.
 */
export function runQuiet(command, args, options = {}) {
  return spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000, ...options });
}

/** The last lines a command of {@link runQuiet} printed, as the reason it failed. */
export function lastLines(result) {
  const text = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim();
  return text.split('\n').slice(-3).join(' | ') || (result.error ? String(result.error.message) : `exit ${result.status}`);
}

/**
 * Installs the npm dependencies when node_modules is missing or older than the lock file, so that
 * `npm test` and `npm start` work on a fresh clone without a separate `npm install`.
 */
export async function ensureNodeModules() {
  const lock = path.join(root, 'package-lock.json');
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('[setup] installing npm dependencies (npm ci)');
  await mustRun('npm', ['ci', '--no-audit', '--no-fund']);
}

export function step(title) {
  console.log(`\n=== ${title}`);
}
