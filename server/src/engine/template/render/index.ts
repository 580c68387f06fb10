/**
 * Go `text/template` for GitLab environment templates: parse, execute over `map[string]any`-like data,
 * Go's builtins plus GitLab's functions (docs/gitlab-behaviour.md#template-variables-and-functions), and errors with Go's wording and the template range.
 * Pure: no editor or Kubernetes types.
 */
import type { Range } from '../../diagnostics';
import { TextIndex } from '../../text/textIndex';
import type { TemplateFunction } from './callable';
import { TemplateFailure } from './errors';
import { execute } from './evaluator';
import type { RenderBudget } from './limits';
import { TEMPLATE_FUNCTIONS } from './functions';
import { OutputBuilder, type ActionListener, type OutputSegment } from './output';
import { parseTemplateOnce } from './lastParsed';
import { toGoValue } from './values';

export { FunctionError, type ParamType, type TemplateFunction } from './callable';
export { formatV, goQuote, printActionValue, sprint, sprintf, sprintln } from './format';
export {
  GITLAB_FUNCTION_DOCS,
  GITLAB_FUNCTION_NAMES,
  GITLAB_FUNCTIONS,
  GO_BUILTIN_NAMES,
  SLUGIFY_DEFAULT_LENGTH,
  slugifyLabel,
  substr,
  TEMPLATE_FUNCTIONS,
  type GitLabFunctionDoc,
} from './functions';
export { MAX_RENDER_CHARS, MAX_RENDER_DEPTH, MAX_RENDER_STEPS, MAX_TEMPLATE_NESTING, RenderBudget } from './limits';
export { sourceSpanAt, type ActionListener, type OutputSegment } from './output';
export { GoFloat, toGoValue, type GoMap, type GoValue } from './values';

/** The template name KAS uses in messages: Rails always asks for the template `default` (docs/gitlab-behaviour.md#environment-template-file). */
export const DEFAULT_TEMPLATE_NAME = 'default';

interface TemplateErrorBase {
  /** Go's full message, e.g. `template: default:3: function "x" not defined`. */
  readonly message: string;
  /** The cause alone, e.g. `function "x" not defined`. */
  readonly cause: string;
  /** Where in the template text (0-based lines, UTF-16 characters). */
  readonly range: Range;
  /** The same place as UTF-16 offsets. */
  readonly start: number;
  readonly end: number;
}

/** The template does not parse; Go reports these before executing anything. */
export interface TemplateSyntaxError extends TemplateErrorBase {
  readonly kind: 'syntax';
}

/** Execution stopped; `context` is Go's text of the node (the `<...>` of the message). */
export interface TemplateExecutionError extends TemplateErrorBase {
  readonly kind: 'execution';
  readonly context: string;
}

/** This tool stopped at one of its bounds (limits.ts); GitLab may well render the template. */
export interface TemplateLimitError extends TemplateErrorBase {
  readonly kind: 'limit';
}

/** Why a template could not be rendered. */
export type TemplateError = TemplateSyntaxError | TemplateExecutionError | TemplateLimitError;

/** Outcome of {@link renderGoTemplate}. */
export type GoTemplateResult =
  | { readonly ok: true; readonly text: string; readonly segments: readonly OutputSegment[] }
  | { readonly ok: false; readonly error: TemplateError };

/** Options of {@link renderGoTemplate}. */
export interface GoTemplateOptions {
  /** Template name in messages; default `default`. */
  readonly name?: string;
  /** Functions available to the template; default Go's builtins plus GitLab's. */
  readonly functions?: ReadonlyMap<string, TemplateFunction>;
  /** What rendering may spend; pass one budget to several renderings to bound them together. */
  readonly budget?: RenderBudget;
  /** Told what each printing action produced, in execution order (the template hover shows it per scenario). */
  readonly onAction?: ActionListener;
}

function toTemplateError(text: string, failure: TemplateFailure): TemplateError {
  const index = new TextIndex(text);
  const base = { message: failure.message, cause: failure.cause, range: index.range(failure.start, failure.end), start: failure.start, end: failure.end };
  if (failure.kind === 'execution') return { kind: 'execution', ...base, context: failure.context ?? '' };
  return { kind: failure.kind, ...base };
}

/**
 * The bounds of limits.ts keep the parser and evaluator far from the end of the stack; should a
 * RangeError (stack, string length) still escape, it is this tool's limit, not a Go failure.
 */
function rangeFailure(text: string, name: string, error: RangeError): TemplateFailure {
  const cause = `this tool cannot check this template (${error.message})`;
  return new TemplateFailure('limit', `template: ${name}: ${cause}`, cause, 0, Math.min(text.length, 2));
}

/**
 * Renders `text` as one Go template over `data` (plain objects/arrays/strings/numbers/booleans; integral
 * numbers are Go ints). Mirrors Go: parse errors first, then execution; partial output is discarded.
 */
export function renderGoTemplate(text: string, data: unknown, options: GoTemplateOptions = {}): GoTemplateResult {
  const name = options.name ?? DEFAULT_TEMPLATE_NAME;
  const functions = options.functions ?? TEMPLATE_FUNCTIONS;
  try {
    const parsed = parseTemplateOnce(text, name, (f) => functions.has(f));
    const out = new OutputBuilder(options.onAction);
    execute({ text, name, trees: parsed.trees, functions, ...(options.budget ? { budget: options.budget } : {}) }, toGoValue(data), out);
    return { ok: true, text: out.toString(), segments: out.segments };
  } catch (e) {
    const failure = e instanceof RangeError ? rangeFailure(text, name, e) : e;
    if (failure instanceof TemplateFailure) return { ok: false, error: toTemplateError(text, failure) };
    throw e;
  }
}
