import { execFile } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './lspClient';

/**
 * Runs the built CLI (dist/cli.js) without blocking this process: cluster tests keep playing
 * controllers (watch callbacks) while the CLI waits on the cluster.
 */
export function agentcfgAsync(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), ...args], { cwd: repoRoot, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
