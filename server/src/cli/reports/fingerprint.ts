import { createHash } from 'node:crypto';
import type { EngineDiagnostic } from '../../engine/api';
import { portablePath, type FileReport } from './fileReport';

/**
 * A fingerprint per problem that survives unrelated edits, so GitLab's merge request widget
 * (which compares the fingerprints of the source and target branches' Code Quality reports,
 * https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format) and SARIF consumers
 * (result.partialFingerprints, SARIF 2.1.0 §3.27.17) see the same problem as the same problem.
 *
 * Hashed: the path, the code, the message and the text of the line the problem starts on (trimmed,
 * so re-indenting does not count), plus how many identical problems came before it in the file
 * (two equal lines with the same mistake stay distinct). Not the line number: a line inserted above
 * would change every fingerprint below it and GitLab would report them all as new. Editing the
 * reported line itself, or the path, gives a new fingerprint, as it should. Without the file's text
 * (it could not be read) the line counts as empty and the occurrence index still tells duplicates apart.
 *
 * SHA-256 cut to 32 hex digits: the length of the MD5 digests in GitLab's example, without MD5.
 */
export function fingerprints(report: FileReport): string[] {
  const lines = report.text?.split(/\r\n|\r|\n/) ?? [];
  const seen = new Map<string, number>();
  return report.diagnostics.map((d) => {
    const key = [portablePath(report.file), d.code, d.message, lineText(lines, d)].join('\0');
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return createHash('sha256').update(`${key}\0${occurrence}`).digest('hex').slice(0, 32);
  });
}

function lineText(lines: readonly string[], d: EngineDiagnostic): string {
  return (lines[d.range.start.line] ?? '').trim();
}
