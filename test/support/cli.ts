import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './lspClient';

/** Runs the built CLI as a user would (dist/cli.js, which `npx agentcfg` runs), from the repository root. */
export function agentcfg(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), ...args], { cwd: repoRoot, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
