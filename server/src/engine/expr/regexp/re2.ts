import { RE2JS } from 're2js';
import { BoundedCache } from '../../cache';

/**
 * A compiled RE2 regular expression: the counterpart of `Gitlab::UntrustedRegexp` (docs/gitlab-behaviour.md#expression-regular-expressions).
 *
 * Matching runs in time linear in the input (RE2 automata, no backtracking), so a user-written
 * pattern such as `/(a+)+$/` cannot stall the language server.
 */
export class UntrustedRegexp {
  /** Discriminates regexp values from the other expression values. */
  readonly kind = 'regexp' as const;

  private constructor(
    /** The RE2 source, with the `(?flags)` prefix GitLab adds — what Ruby's `#source` returns. */
    readonly source: string,
    /** The pattern between the slashes (after `\/` → `/`). */
    readonly pattern: string,
    /** The flags after the closing slash (any of `i`, `s`, `m`, `U`). */
    readonly flags: string,
    private readonly compiled: RE2JS,
  ) {}

  /**
   * Compiles `pattern` with `flags` the way GitLab's `RubySyntax.create_untrusted_regexp` does: flags are
   * applied by prefixing `(?<flags>)` to the pattern, then RE2 compiles it with default options.
   */
  static compile(pattern: string, flags: string): Re2CompileResult {
    const source = flags ? `(?${flags})${pattern}` : pattern;
    return cache.get(source, (): Re2CompileResult => {
      try {
        return { ok: true, regexp: new UntrustedRegexp(source, pattern, flags, RE2JS.compile(source)) };
      } catch (e) {
        return { ok: false, message: e instanceof Error ? e.message : String(e) };
      }
    });
  }

  /**
   * GitLab's `regexp.scan(text).present?`: true when RE2 finds at least one (unanchored) match, including an
   * empty match (so `/^$/` matches `""`).
   */
  matches(text: string): boolean {
    return this.compiled.test(text);
  }

  /** The value written as a literal again (`/` re-escaped), e.g. `/^review\//i`. */
  toString(): string {
    return `/${this.pattern.replaceAll('/', '\\/')}/${this.flags}`;
  }
}

/** Result of {@link UntrustedRegexp.compile}: the regexp, or RE2's error message. */
export type Re2CompileResult =
  | { readonly ok: true; readonly regexp: UntrustedRegexp }
  | { readonly ok: false; readonly message: string };

// GitLab memoizes compiled patterns per request; a bounded cache keeps simulations over thousands of
// scenarios from recompiling the same handful of patterns.
const cache = new BoundedCache<string, Re2CompileResult>(1000);
