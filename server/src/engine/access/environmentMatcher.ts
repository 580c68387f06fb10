import { UntrustedRegexp } from '../expr/regexp/re2';
import { BoundedCache } from '../cache';

export type EnvironmentMatch = { readonly matches: boolean; readonly problem?: string };

/**
 * GitLab's `Gitlab::Ci::EnvironmentMatcher` (docs/gitlab-behaviour.md#environment-filter): a blank pattern never matches; an
 * exact match wins; a pattern with `*` becomes a regular expression with every `*` replaced by `.*`,
 * matched unanchored and with no other character escaped — so `review/*` also matches
 * `x-review/y` and a `.` is a wildcard. GitLab compiles it with Ruby's engine; we use RE2 so a
 * hostile pattern cannot hang the editor (the two agree on the patterns users write).
 */
export function matchEnvironment(pattern: string, environment: string): EnvironmentMatch {
  if (pattern.trim() === '') return NO_MATCH;
  if (pattern === environment) return MATCH;
  if (!pattern.includes('*')) return NO_MATCH;
  // NUL separates the two in the key: an environment name cannot hold one, and a pattern that does is not kept.
  if (pattern.includes('\0')) return matchWildcard(pattern, environment);
  return wildcardMatches.get(`${pattern}\0${environment}`, () => matchWildcard(pattern, environment));
}

const MATCH: EnvironmentMatch = { matches: true };
const NO_MATCH: EnvironmentMatch = { matches: false };

/**
 * Wildcard results met lately: pattern → environment name → result. The checks match the same few
 * scenario environments against every entry's patterns, which are mostly the same few (`review/*`);
 * compiling and running RE2 each time was about a tenth of a cold rule check.
 */
const wildcardMatches = new BoundedCache<string, EnvironmentMatch>(16_384);

function matchWildcard(pattern: string, environment: string): EnvironmentMatch {
  const plain = plainWildcardMatch(pattern, environment);
  if (plain !== null) return plain ? MATCH : NO_MATCH;
  const compiled = UntrustedRegexp.compile(pattern.replaceAll('*', '.*'), '');
  if (!compiled.ok) return { matches: false, problem: `environment pattern "${pattern}" is not a valid regular expression once * becomes .* (${compiled.message})` };
  return compiled.regexp.matches(environment) ? MATCH : NO_MATCH;
}

/**
 * The answer RE2 would give, found without compiling it, for the patterns people write
 * (`review/*`): when every other character of the pattern is literal in a regular expression and
 * the name has no newline (the one character `.` does not match), `a.*b` matched unanchored is `a`
 * somewhere in the name and `b` somewhere after it. Null when the pattern or name is not that simple.
 * The first compilation of RE2 in a process is a good part of a cold check.
 */
function plainWildcardMatch(pattern: string, environment: string): boolean | null {
  if (!PLAIN_WILDCARD_PATTERN.test(pattern) || environment.includes('\n')) return null;
  let from = 0;
  for (const literal of pattern.split('*')) {
    const at = environment.indexOf(literal, from);
    if (at < 0) return false;
    from = at + literal.length;
  }
  return true;
}

/** Letters, digits, `_`, `/`, `-` and spaces, none of them special in RE2 outside a class, and the `*`s. */
const PLAIN_WILDCARD_PATTERN = /^[A-Za-z0-9_/ *-]*$/;
