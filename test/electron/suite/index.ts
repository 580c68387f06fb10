// The in-editor suite: runs inside VS Code's extension host (launched by @vscode/test-electron,
// see ../run.test.ts) with the `vscode` API. VS Code `require`s the CommonJS bundle of this file
// and calls `run()`, which must reject when any case fails. Mocha-free: cases run in order and
// report TAP-like lines on the extension host's output.
import { writeFileSync } from 'node:fs';
import { diagnosticsCases } from './diagnostics';

export interface InEditorCase {
  name: string;
  run(): Promise<void>;
}

/** Runs every case; resolves with the report lines, rejects (with the report) when any failed. */
export async function run(): Promise<string[]> {
  const cases: InEditorCase[] = [...diagnosticsCases];
  const report: string[] = [];
  let failed = 0;
  for (const [index, c] of cases.entries()) {
    try {
      await c.run();
      report.push(`ok ${index + 1} - ${c.name}`);
    } catch (err) {
      failed += 1;
      report.push(`not ok ${index + 1} - ${c.name}\n  ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    console.log(report[report.length - 1]);
  }
  report.push(`${cases.length - failed} passed, ${failed} failed`);
  console.log(report[report.length - 1]);
  // The runner checks this file, so that a binary that exits 0 without running the suite can't pass.
  const resultFile = process.env.AGENTCFG_SUITE_RESULT;
  if (resultFile) writeFileSync(resultFile, JSON.stringify({ ok: failed === 0, report }));
  // The whole report goes into the error: the runner may only see what run() rejects with.
  if (failed) throw new Error(`in-editor suite failed:\n${report.join('\n')}`);
  return report;
}
