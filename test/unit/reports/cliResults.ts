// The input every report renderer gets, taken from `agentcfg validate --format json` (dist/cli.js,
// as a pipeline runs it) so the report tests see the engine's real diagnostics, not invented ones.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';
import type { FileReport } from '../../../server/src/cli/reports';
import { repoRoot } from '../../support/lspClient';

interface JsonProblem extends EngineDiagnostic {
  readonly file: string;
}

/** Runs `agentcfg validate <paths> --format json` in `cwd`; the problems grouped per file, with the file's text. */
export function validateJson(cwd: string, ...paths: string[]): { code: number | null; stdout: string; reports: FileReport[] } {
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'validate', ...paths, '--format', 'json'], { cwd, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) throw new Error(`agentcfg validate exited ${run.status}: ${run.stderr}`);
  const byFile = new Map<string, EngineDiagnostic[]>();
  for (const { file, ...diagnostic } of JSON.parse(run.stdout) as JsonProblem[]) {
    byFile.set(file, [...(byFile.get(file) ?? []), diagnostic]);
  }
  const reports = [...byFile].map(([file, diagnostics]) => ({ file, text: readFileSync(path.resolve(cwd, file), 'utf8'), diagnostics }));
  return { code: run.status, stdout: run.stdout, reports };
}

/** A diagnostic at 0-based `line`, characters `from`–`to`. */
export function diagnostic(line: number, from: number, to: number, severity: EngineDiagnostic['severity'], code: string, message: string): EngineDiagnostic {
  return { range: { start: { line, character: from }, end: { line, character: to } }, severity, code, message };
}
