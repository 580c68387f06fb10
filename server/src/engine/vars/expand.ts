import { lookupVariable } from '../expr/evaluator';
import type { TextRange } from '../expr/range';

/** How a reference was written: `$VAR`, `${VAR}` or `%VAR%` (docs/gitlab-behaviour.md#variable-expansion). */
export type ReferenceSyntax = 'dollar' | 'braces' | 'percent';

/** One variable reference found in a string. */
export interface VariableReference {
  readonly name: string;
  readonly syntax: ReferenceSyntax;
  /** The whole reference, e.g. the 6 characters of `${VAR}` (0-based offsets in the input string). */
  readonly range: TextRange;
  /** The name alone, inside the reference. */
  readonly nameRange: TextRange;
}

/** A variable as expansion sees it: its value and whether it is a file-type variable. */
export interface ExpansionVariable {
  readonly value: string;
  readonly file?: boolean;
}

/** Variables for expansion: name → value, or name → {value, file}. */
export type ExpansionVariables =
  | ReadonlyMap<string, string | ExpansionVariable>
  | Readonly<Record<string, string | ExpansionVariable>>;

/**
 * `expand`: an unknown variable becomes `""`. `expand_existing`: an unknown variable is left as written.
 */
export type ExpansionMode = 'expand' | 'expand_existing';

/** Options of {@link expandVariables}. */
export interface ExpansionOptions {
  /** Default `expand`. */
  readonly mode?: ExpansionMode;
  /** GitLab's `expand_file_refs` (default true): false leaves file-variable references as written. */
  readonly expandFileRefs?: boolean;
}

/** A reference together with what expansion did with it. */
export interface ExpandedReference extends VariableReference {
  /** `expanded` (value inserted), `blank` (unknown → ""), `kept` (left as written). */
  readonly outcome: 'expanded' | 'blank' | 'kept';
  /** The variable exists (its value may still be empty). */
  readonly defined: boolean;
}

/** Result of {@link expandVariables}. */
export interface ExpansionResult {
  readonly text: string;
  readonly references: readonly ExpandedReference[];
}

/** Where one reference was found by {@link nextReference}. */
interface ScannedReference {
  readonly start: number;
  readonly end: number;
  readonly nameStart: number;
  readonly nameEnd: number;
  readonly syntax: ReferenceSyntax;
}

/**
 * The first reference at or after `from`, as GitLab's `ExpandVariables::VARIABLES_REGEXP`,
 * `/\$([a-zA-Z_][a-zA-Z0-9_]*)|\${\g<1>}|%\g<1>%/` (docs/gitlab-behaviour.md#variable-expansion),
 * finds it: at each `$` or `%` the alternatives are tried in the regexp's order (`$NAME`, `${NAME}`,
 * `%NAME%`); where none matches, the search moves on one character. Written out rather than as a
 * regexp: the expansion of every rule's namespace in every simulated job runs through it, and a
 * replace with a function went through the runtime for every reference. The unit test holds it to
 * the regexp itself.
 */
function nextReference(text: string, from: number): ScannedReference | null {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 36 /* $ */ && c !== 37 /* % */) continue;
    const braces = c === 36 && text.charCodeAt(i + 1) === 123; /* { */
    const nameStart = braces ? i + 2 : i + 1;
    if (!isNameStart(text.charCodeAt(nameStart))) continue;
    let nameEnd = nameStart + 1;
    while (isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
    const closer = braces ? 125 /* } */ : c === 37 ? 37 : null;
    if (closer !== null && text.charCodeAt(nameEnd) !== closer) continue;
    const syntax: ReferenceSyntax = braces ? 'braces' : c === 37 ? 'percent' : 'dollar';
    return { start: i, end: closer === null ? nameEnd : nameEnd + 1, nameStart, nameEnd, syntax };
  }
  return null;
}

/** `[a-zA-Z_]`: the first character of a NAME. */
function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/** `[a-zA-Z0-9_]`: the other characters of a NAME. */
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57);
}

/** Whether `text` refers to a variable at all (`findVariableReferences(text).length > 0`, without listing them). */
export function hasVariableReference(text: string): boolean {
  return nextReference(text, 0) !== null;
}

/** Every `$VAR`, `${VAR}` and `%VAR%` in `text`, left to right, as GitLab's single pass sees them. */
export function findVariableReferences(text: string): VariableReference[] {
  const found: VariableReference[] = [];
  for (let ref = nextReference(text, 0); ref; ref = nextReference(text, ref.end)) {
    found.push({ name: text.slice(ref.nameStart, ref.nameEnd), syntax: ref.syntax, range: { start: ref.start, end: ref.end }, nameRange: { start: ref.nameStart, end: ref.nameEnd } });
  }
  return found;
}

function lookup(variables: ExpansionVariables, name: string): ExpansionVariable | undefined {
  const raw = lookupVariable(variables, name);
  return typeof raw === 'string' ? { value: raw } : raw;
}

/**
 * `expandVariables(text, variables).text` with the default options (`expand`, file references
 * expanded), without the references: the namespace of every rule in every simulated job is
 * expanded, and most callers want only the result.
 */
export function expandedText(text: string, variables: ExpansionVariables): string {
  return replaceReferences(text, (name) => lookup(variables, name)?.value ?? '');
}

/**
 * One pass over `text` as GitLab's expansion makes it: each reference replaced by `replace(name)`,
 * or left as written where that gives undefined. The values put in are not looked at again.
 */
export function replaceReferences(text: string, replace: (name: string) => string | undefined): string {
  let out = '';
  let last = 0;
  for (let ref = nextReference(text, 0); ref; ref = nextReference(text, ref.end)) {
    const value = replace(text.slice(ref.nameStart, ref.nameEnd));
    if (value === undefined) continue;
    out += text.slice(last, ref.start) + value;
    last = ref.end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * `ExpandVariables.expand` / `expand_existing` (docs/gitlab-behaviour.md#variable-expansion): one left-to-right pass over `$VAR`, `${VAR}` and
 * `%VAR%` (the same on every OS); values are inserted as they are (no recursive expansion, no `$$` escape).
 * A name ends at the first character outside `[a-zA-Z0-9_]`, so `$CI_ENVIRONMENT_SLUG-app` is the value
 * followed by `-app`. Also returns every reference with its range, for the editor.
 */
export function expandVariables(text: string, variables: ExpansionVariables, options: ExpansionOptions = {}): ExpansionResult {
  const mode = options.mode ?? 'expand';
  const expandFileRefs = options.expandFileRefs ?? true;
  const references: ExpandedReference[] = [];
  let out = '';
  let last = 0;
  for (const ref of findVariableReferences(text)) {
    out += text.slice(last, ref.range.start);
    last = ref.range.end;
    const variable = lookup(variables, ref.name);
    const original = text.slice(ref.range.start, ref.range.end);
    if (!variable) {
      const outcome = mode === 'expand' ? 'blank' : 'kept';
      if (outcome === 'kept') out += original;
      references.push({ ...ref, outcome, defined: false });
    } else if (variable.file && !expandFileRefs) {
      out += original;
      references.push({ ...ref, outcome: 'kept', defined: true });
    } else {
      out += variable.value;
      references.push({ ...ref, outcome: 'expanded', defined: true });
    }
  }
  out += text.slice(last);
  return { text: out, references };
}
