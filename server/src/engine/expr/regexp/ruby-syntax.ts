import { UntrustedRegexp } from './re2';

/**
 * Result of reading a string as a Ruby-style regexp literal `/pattern/flags`:
 * - `regexp` — it has the shape and RE2 accepts it;
 * - `notRegexp` — it does not have the shape (`RegexpError 'Invalid regular expression!'` in GitLab);
 * - `invalid` — it has the shape but RE2 rejects the pattern (`detail` is RE2's message).
 */
export type RubySyntaxResult =
  | { readonly kind: 'regexp'; readonly regexp: UntrustedRegexp }
  | { readonly kind: 'notRegexp' }
  | { readonly kind: 'invalid'; readonly pattern: string; readonly flags: string; readonly detail: string };

// `Gitlab::UntrustedRegexp::RubySyntax::PATTERN` = %r{^/(?<regexp>.*)/(?<flags>[ismU]*)$}. In Ruby `^`/`$` are
// line anchors and `.` excludes only `\n`, and `String#match` searches, so the literal may sit on any line
// of the value. Spelled out for JavaScript, whose `m` flag would also treat `\r`, U+2028 and U+2029 as breaks.
const RUBY_SYNTAX = /(?:^|(?<=\n))\/([^\n]*)\/([ismU]*)(?=\n|$)/;

/**
 * Reads `value` the way `Lexeme::Pattern.new(value)` does (docs/gitlab-behaviour.md#expression-evaluation, docs/gitlab-behaviour.md#expression-regular-expressions): first every `\/` becomes `/`,
 * then `RubySyntax.fabricate!` takes the `/…/flags` shape (one character between the slashes is enough
 * here, unlike the lexer's Pattern lexeme) and RE2 compiles `(?flags)pattern`.
 */
export function fabricateRubyRegexp(value: string): RubySyntaxResult {
  const unescaped = value.replaceAll('\\/', '/');
  const m = RUBY_SYNTAX.exec(unescaped);
  if (!m) return { kind: 'notRegexp' };
  const pattern = m[1]!;
  const flags = m[2]!;
  const compiled = UntrustedRegexp.compile(pattern, flags);
  return compiled.ok ? { kind: 'regexp', regexp: compiled.regexp } : { kind: 'invalid', pattern, flags, detail: compiled.message };
}
