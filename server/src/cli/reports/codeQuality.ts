/**
 * GitLab's Code Quality report (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
 * a JSON array of issues, shown in merge requests when a job declares it as
 * `artifacts:reports:codequality`. GitLab reads only the fields written here.
 */
import type { Severity } from '../../engine/api';
import { portablePath, type FileReport } from './fileReport';
import { fingerprints } from './fingerprint';

export type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

/**
 * GitLab lists five severities in increasing order and gives them no further meaning. An error
 * here is something GitLab rejects or misreads (an unknown key invalidates the whole agent
 * configuration; a bad `if:` denies the job), and it fails the pipeline (exit 1): `critical`, above
 * the `major`/`minor` that linters use for maintainability findings. A warning is a likely mistake
 * GitLab accepts: `minor`. Information and hints: `info`. `blocker` is not used, so it stays
 * distinguishable in a merge request that combines several tools' reports.
 */
const SEVERITY: Record<Severity, CodeQualitySeverity> = { error: 'critical', warning: 'minor', information: 'info', hint: 'info' };

export interface CodeQualityIssue {
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: CodeQualitySeverity;
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
}

export function renderCodeQuality(results: readonly FileReport[]): string {
  const issues: CodeQualityIssue[] = results.flatMap((r) => {
    const prints = fingerprints(r);
    return r.diagnostics.map((d, i) => ({
      description: d.message,
      check_name: d.code,
      fingerprint: prints[i],
      severity: SEVERITY[d.severity],
      // `path` is matched against the repository's files: relative, with `/`. Lines are 1-based.
      location: { path: portablePath(r.file), lines: { begin: d.range.start.line + 1 } },
    }));
  });
  return JSON.stringify(issues, null, 2) + '\n';
}
