import type { FileReport } from './fileReport';

/** `file:line:col: severity: message [code]`, 1-based as compilers print them, one line each. */
export function renderText(results: readonly FileReport[]): string {
  return results
    .flatMap((r) => r.diagnostics.map((d) => `${r.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message} [${d.code}]\n`))
    .join('');
}
