/**
 * Which problems make `agentcfg validate` exit 1: errors (the default), or warnings as well
 * (`--fail-on warning`). A warning is a value GitLab accepts but that is likely wrong, such as a
 * `default_namespace` Kubernetes refuses without `rules`: the job starts and its kubectl commands
 * fail (docs/gitlab-behaviour.md#job-kubeconfig). A pipeline that wants those stopped too says so.
 * Information and hints never fail a run; silenced problems neither, in any format.
 */
import { shownDiagnostics, type EngineDiagnostic, type Severity } from '../engine/api';
import { UsageError } from './args';

export const FAIL_ON_LEVELS = ['error', 'warning'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

export const FAIL_ON_USAGE = `[--fail-on ${FAIL_ON_LEVELS.join('|')}]`;

/** The `--fail-on` value, `error` when it is not given. */
export function failOnFromArg(value: string | undefined): FailOn {
  if (value === undefined) return 'error';
  if ((FAIL_ON_LEVELS as readonly string[]).includes(value)) return value as FailOn;
  throw new UsageError(`--fail-on must be ${FAIL_ON_LEVELS.join(' or ')}, got "${value}"`);
}

const FAILING: Record<FailOn, ReadonlySet<Severity>> = { error: new Set(['error']), warning: new Set(['error', 'warning']) };

/** Whether the problems of a run fail it (exit 1). */
export function failsRun(reports: readonly { readonly diagnostics: readonly EngineDiagnostic[] }[], failOn: FailOn): boolean {
  return reports.some((r) => shownDiagnostics(r.diagnostics).some((d) => FAILING[failOn].has(d.severity)));
}
