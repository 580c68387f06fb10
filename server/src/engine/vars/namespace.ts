import { sha256Base36Suffix } from './hash-suffix';

/** Kubernetes' limit for a DNS-1123 label, e.g. a namespace name (docs/gitlab-behaviour.md#names). */
export const DNS1123_LABEL_MAX_LENGTH = 63;

/** Why a name is not a DNS-1123 label. */
export type LabelProblemCode = 'empty' | 'tooLong' | 'invalidCharacters' | 'invalidStart' | 'invalidEnd';

/** One reason a name is not a valid DNS-1123 label, in words a user can act on. */
export interface LabelProblem {
  readonly code: LabelProblemCode;
  readonly message: string;
}

const LABEL_CHARS = /^[a-z0-9-]*$/;

/**
 * Every reason `name` is not a DNS-1123 label (`[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63 characters, the
 * rule Kubernetes applies to namespace names); empty when it is one.
 */
export function dns1123LabelProblems(name: string): LabelProblem[] {
  if (name.length === 0) return [{ code: 'empty', message: 'must not be empty' }];
  const problems: LabelProblem[] = [];
  if (name.length > DNS1123_LABEL_MAX_LENGTH) {
    problems.push({
      code: 'tooLong',
      message: `must be no more than ${DNS1123_LABEL_MAX_LENGTH} characters (is ${name.length})`,
    });
  }
  if (!LABEL_CHARS.test(name)) {
    problems.push({ code: 'invalidCharacters', message: "must consist of lower case alphanumeric characters or '-'" });
  }
  // A leading/trailing character outside the label alphabet is already an invalid character; only a dash
  // needs its own message.
  if (name.startsWith('-')) problems.push({ code: 'invalidStart', message: 'must start with an alphanumeric character' });
  if (name.endsWith('-')) problems.push({ code: 'invalidEnd', message: 'must end with an alphanumeric character' });
  return problems;
}

/** True when `name` is a valid DNS-1123 label. */
export function isDns1123Label(name: string): boolean {
  return dns1123LabelProblems(name).length === 0;
}

/**
 * What to do with a resolved namespace longer than 63 characters: `error` (GitLab would abort the job) or
 * `truncate` (see {@link truncateLabel}).
 */
export type OverlongNamespacePolicy = 'error' | 'truncate';

/** Outcome of {@link checkNamespace}. */
export type NamespaceCheck =
  | { readonly kind: 'valid'; readonly namespace: string }
  | { readonly kind: 'truncated'; readonly namespace: string; readonly original: string }
  | { readonly kind: 'invalid'; readonly namespace: string; readonly problems: readonly LabelProblem[] };

/** Length of the hash suffix {@link truncateLabel} appends. */
export const TRUNCATION_SUFFIX_LENGTH = 6;

/**
 * Shortens an over-long label predictably: the first 56 characters, trailing dashes removed, then `-` and
 * the 6-character base-36 SHA-256 suffix of the whole original name (the same suffix scheme as
 * `CI_ENVIRONMENT_SLUG`). Distinct long names keep distinct results; the result never ends with a dash and is
 * at most `max` characters. Names within `max` are returned unchanged.
 */
export function truncateLabel(name: string, max = DNS1123_LABEL_MAX_LENGTH): string {
  if (name.length <= max) return name;
  const suffix = sha256Base36Suffix(name, TRUNCATION_SUFFIX_LENGTH);
  const prefix = name.slice(0, max - 1 - suffix.length).replace(/-+$/, '');
  return prefix ? `${prefix}-${suffix}` : suffix;
}

/**
 * Checks a resolved namespace name. Only length is ever repaired, and only under the `truncate` policy;
 * other problems (uppercase, `_`, leading dash…) are always reported.
 */
export function checkNamespace(name: string, policy: OverlongNamespacePolicy = 'error'): NamespaceCheck {
  const problems = dns1123LabelProblems(name);
  if (problems.length === 0) return { kind: 'valid', namespace: name };
  const onlyTooLong = problems.every((p) => p.code === 'tooLong');
  if (policy === 'truncate' && onlyTooLong) {
    const truncated = truncateLabel(name);
    if (isDns1123Label(truncated)) return { kind: 'truncated', namespace: truncated, original: name };
  }
  return { kind: 'invalid', namespace: name, problems };
}
