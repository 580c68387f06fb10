import type { FileReport } from './fileReport';

/**
 * One object per problem: the file as named, the LSP range (0-based lines, UTF-16 characters),
 * severity, code and message — what the language server publishes, so the two can be compared.
 */
export function renderJson(results: readonly FileReport[]): string {
  const problems = results.flatMap((r) => r.diagnostics.map((d) => ({ file: r.file, range: d.range, severity: d.severity, code: d.code, message: d.message })));
  return JSON.stringify(problems, null, 2) + '\n';
}
