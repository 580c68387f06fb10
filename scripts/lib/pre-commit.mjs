// The real `pre-commit` (https://pre-commit.com, from PyPI) for test/unit/precommit.test.ts, which
// runs this repository's .pre-commit-hooks.yaml through it. Installed once into a virtual
// environment under ~/.cache/gitlab-agent-config/ (python3 -m venv, then pip install of a pinned
// version); a marker file makes every later call instant. Never throws: when Python, venv or PyPI
// is missing the answer says why, so the test can report itself skipped with that reason.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cacheRoot } from './code-server.mjs';
import { lastLines, runQuiet } from './proc.mjs';

export const PRE_COMMIT_VERSION = '4.7.0';

const installDir = path.join(cacheRoot, `pre-commit-${PRE_COMMIT_VERSION}`);
const venv = path.join(installDir, 'venv');
const preCommitBin = path.join(venv, 'bin', 'pre-commit');
const markerFile = path.join(installDir, '.install-complete.json');

/** @returns {{ ok: true, bin: string } | { ok: false, reason: string }} */
export function ensurePreCommit() {
  if (existsSync(markerFile) && existsSync(preCommitBin)) return { ok: true, bin: preCommitBin };
  const python = runQuiet('python3', ['--version']);
  if (python.status !== 0) return { ok: false, reason: `python3 is not available (${lastLines(python)})` };

  console.log(`[setup] installing pre-commit ${PRE_COMMIT_VERSION} into ${venv}`);
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  const created = runQuiet('python3', ['-m', 'venv', venv]);
  if (created.status !== 0) return { ok: false, reason: `python3 -m venv failed: ${lastLines(created)}` };
  const pip = path.join(venv, 'bin', 'python');
  const installed = runQuiet(pip, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', `pre-commit==${PRE_COMMIT_VERSION}`]);
  if (installed.status !== 0) return { ok: false, reason: `pip install pre-commit==${PRE_COMMIT_VERSION} failed: ${lastLines(installed)}` };
  const version = runQuiet(preCommitBin, ['--version']);
  if (version.stdout?.trim() !== `pre-commit ${PRE_COMMIT_VERSION}`) return { ok: false, reason: `pre-commit --version printed "${lastLines(version)}"` };

  writeFileSync(markerFile, JSON.stringify({ version: PRE_COMMIT_VERSION, python: python.stdout.trim() || python.stderr.trim(), installedAt: new Date().toISOString() }, null, 2));
  return { ok: true, bin: preCommitBin };
}
