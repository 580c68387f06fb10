/**
 * Bounds on parsing and rendering a template, lower than Go's where Go's would exhaust JavaScript's
 * stack or keep the editor busy: the parser, the evaluator and the reference checks recurse once per
 * level of nesting, and a template can loop (`{{range 100000}}`) or grow a string
 * (`{{ .x | replace "" "…" | replace "" "…" }}`) far beyond anything GitLab would apply. Going past
 * a bound stops this tool with a `limit` error; it does not claim that GitLab fails.
 */

/**
 * Blocks (`if`, `with`, `range`, `define`, each `else if`) and parentheses nested in one template.
 * Real templates nest a handful of levels; Go allows 10,000 parentheses and any number of blocks.
 */
export const MAX_TEMPLATE_NESTING = 100;

/**
 * Template calls and blocks entered while rendering, nested (a recursive `{{template}}` multiplies
 * the static nesting). Go allows 100,000 template calls; 200 levels of our evaluator's recursion
 * stay far from the end of the stack.
 */
export const MAX_RENDER_DEPTH = 200;

/**
 * Actions evaluated and loop iterations in one check of a template (all its renderings together):
 * a rendering of a real template takes a few hundred; this stops a runaway loop within about a second.
 */
export const MAX_RENDER_STEPS = 1_000_000;

/**
 * Characters of output and of computed strings in one check (all renderings together): real
 * environment templates render a few kilobytes, and GitLab refuses agent files over 128 KiB.
 */
export const MAX_RENDER_CHARS = 1_000_000;

/** Thrown by a template function whose result would be longer than {@link MAX_RENDER_CHARS} (checked before building it). */
export class RenderLimitExceeded extends Error {}

/**
 * What rendering may still spend. One budget can be shared by the renderings of one check, so that
 * rendering a template for 60 scenarios is bounded as a whole.
 */
export class RenderBudget {
  constructor(
    private steps = MAX_RENDER_STEPS,
    private chars = MAX_RENDER_CHARS,
  ) {}

  /** Spends one step; false when none is left. */
  step(): boolean {
    return --this.steps >= 0;
  }

  /** Spends `count` characters; false when they are more than what is left. */
  produce(count: number): boolean {
    this.chars -= count;
    return this.chars >= 0;
  }
}

/**
 * `1000000` as `1,000,000`, without `toLocaleString`: these messages are built when the module
 * loads, and the first locale-aware call makes Node load ICU's locale data, about 7 MiB of resident
 * memory in every language server and CLI process that never renders a template.
 */
function withThousandsSeparators(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Why rendering stopped at a bound, in the user's words. */
export const LIMIT_MESSAGES = {
  nesting: `blocks and parentheses nested more than ${MAX_TEMPLATE_NESTING} levels deep: this tool stops checking the template here`,
  depth: `templates and blocks entered more than ${MAX_RENDER_DEPTH} levels deep while rendering (a recursive {{template}}?): this tool stops rendering here`,
  steps: `rendering takes more than ${withThousandsSeparators(MAX_RENDER_STEPS)} steps (a loop that runs too long?): this tool stops rendering here`,
  chars: `rendering produces more than ${withThousandsSeparators(MAX_RENDER_CHARS)} characters: this tool stops rendering here`,
} as const;
