/**
 * The output formats of `agentcfg validate --format`: one module each, all fed the same results.
 * `text` and `json` for people and scripts; `sarif` for code scanning dashboards; `codequality`
 * for GitLab merge requests.
 */
import { shownDiagnostics } from '../../engine/api';
import { renderCodeQuality } from './codeQuality';
import type { FileReport, ReportContext } from './fileReport';
import { renderJson } from './json';
import { renderSarif } from './sarif';
import { renderText, textSummary } from './text';

export type { FileReport, ReportContext } from './fileReport';

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'codequality'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * The whole report as one string, ready for stdout (JSON formats end with a newline). Silenced
 * findings appear only in SARIF, as suppressed results; the other formats show what the editor shows.
 */
export function renderReport(format: ReportFormat, results: readonly FileReport[], context: ReportContext): string {
  const shown = () => results.map((r) => ({ ...r, diagnostics: shownDiagnostics(r.diagnostics) }));
  switch (format) {
    case 'text':
      return renderText(shown());
    case 'json':
      return renderJson(shown());
    case 'sarif':
      return renderSarif(results, context);
    case 'codequality':
      return renderCodeQuality(shown());
  }
}

/** The summary a text report ends with, on stderr (stdout keeps one `file:line:col:` line per problem, for scripts and problem matchers); null for other formats and when there is no problem. */
export function reportSummary(format: ReportFormat, results: readonly FileReport[]): string | null {
  return format === 'text' ? textSummary(results.map((r) => ({ ...r, diagnostics: shownDiagnostics(r.diagnostics) }))) : null;
}
