import type { EngineDiagnostic } from '../../engine/api';
import type { FileReport } from './fileReport';

/** `file:line:col: severity: message [code]`, 1-based as compilers print them, one line each. */
export function renderText(results: readonly FileReport[]): string {
  return results
    .flatMap((r) => r.diagnostics.map((d) => `${r.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message} [${d.code}]\n`))
    .join('');
}

/**
 * "✖ 8 problems (6 errors, 1 warning, 1 note) in 2 files", the line that ends a text report for the
 * person reading it (as ESLint's does); null when there is no problem.
 */
export function textSummary(results: readonly FileReport[]): string | null {
  const all = results.flatMap((r) => r.diagnostics);
  if (all.length === 0) return null;
  const count = (...severities: EngineDiagnostic['severity'][]) => all.filter((d) => severities.includes(d.severity)).length;
  const parts = [plural(count('error'), 'error'), plural(count('warning'), 'warning'), plural(count('information', 'hint'), 'note')].filter((p) => !p.startsWith('0 '));
  return `✖ ${plural(all.length, 'problem')} (${parts.join(', ')}) in ${plural(results.filter((r) => r.diagnostics.length > 0).length, 'file')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
