import { UntrustedRegexp } from '../expr/regexp/re2';

export type EnvironmentMatch = { readonly matches: boolean; readonly problem?: string };

/**
 * GitLab's `Gitlab::Ci::EnvironmentMatcher` (docs/gitlab-behaviour.md#environment-filter): a blank pattern never matches; an
 * exact match wins; a pattern with `*` becomes a regular expression with every `*` replaced by `.*`,
 * matched unanchored and with no other character escaped — so `review/*` also matches
 * `x-review/y` and a `.` is a wildcard. GitLab compiles it with Ruby's engine; we use RE2 so a
 * hostile pattern cannot hang the editor (the two agree on the patterns users write).
 */
export function matchEnvironment(pattern: string, environment: string): EnvironmentMatch {
  if (pattern.trim() === '') return { matches: false };
  if (pattern === environment) return { matches: true };
  if (!pattern.includes('*')) return { matches: false };
  const compiled = UntrustedRegexp.compile(pattern.replaceAll('*', '.*'), '');
  if (!compiled.ok) return { matches: false, problem: `environment pattern "${pattern}" is not a valid regular expression once * becomes .* (${compiled.message})` };
  return { matches: compiled.regexp.matches(environment) };
}
