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

// `ExpandVariables::VARIABLES_REGEXP` = /\$([a-zA-Z_][a-zA-Z0-9_]*)|\${\g<1>}|%\g<1>%/ (docs/gitlab-behaviour.md#variable-expansion).
const NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
const VARIABLES_REGEXP = new RegExp(`\\$(${NAME})|\\$\\{(${NAME})\\}|%(${NAME})%`, 'g');

/** Whether `text` refers to a variable at all (`findVariableReferences(text).length > 0`, without listing them). */
export function hasVariableReference(text: string): boolean {
  return (text.includes('$') || text.includes('%')) && ANY_VARIABLE.test(text);
}

/** VARIABLES_REGEXP without the global flag: `test` then keeps no position between calls. */
const ANY_VARIABLE = new RegExp(VARIABLES_REGEXP.source);

/** Every `$VAR`, `${VAR}` and `%VAR%` in `text`, left to right, as GitLab's single pass sees them. */
export function findVariableReferences(text: string): VariableReference[] {
  const found: VariableReference[] = [];
  for (const m of text.matchAll(VARIABLES_REGEXP)) {
    const start = m.index;
    const end = start + m[0].length;
    const syntax: ReferenceSyntax = m[1] !== undefined ? 'dollar' : m[2] !== undefined ? 'braces' : 'percent';
    const name = (m[1] ?? m[2] ?? m[3])!;
    const nameStart = syntax === 'braces' ? start + 2 : start + 1;
    found.push({ name, syntax, range: { start, end }, nameRange: { start: nameStart, end: nameStart + name.length } });
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
  // VARIABLES_REGEXP's pass, written out: a replace with a function went through the runtime for
  // every reference, most of the expansion's cost in the namespace checks of a big file.
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 36 /* $ */ && c !== 37 /* % */) continue;
    // Tried in the regexp's order: `$NAME`, `${NAME}`, `%NAME%`; none here, the pass moves on one character.
    const braces = c === 36 && text.charCodeAt(i + 1) === 123; /* { */
    const nameStart = braces ? i + 2 : i + 1;
    if (!isNameStart(text.charCodeAt(nameStart))) continue;
    let nameEnd = nameStart + 1;
    while (isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
    const closer = braces ? 125 /* } */ : c === 37 ? 37 : null;
    if (closer !== null && text.charCodeAt(nameEnd) !== closer) continue;
    out += text.slice(last, i) + (lookup(variables, text.slice(nameStart, nameEnd))?.value ?? '');
    last = closer === null ? nameEnd : nameEnd + 1;
    i = last - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `[a-zA-Z_]`: the first character of a NAME. */
function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/** `[a-zA-Z0-9_]`: the other characters of a NAME. */
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57);
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
