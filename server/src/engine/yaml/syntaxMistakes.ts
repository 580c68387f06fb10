import type { Document, YAMLError } from 'yaml';
import { composeYaml } from './boundedYaml';
import type { YamlOptions } from './composedYaml';

/** One syntax mistake: where it is, and what is wrong there in plain words. */
export interface SyntaxMistake {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** At most this many mistakes are reported: past them the user fixes the first ones first. */
const MAX_MISTAKES = 20;
/**
 * Characters re-read in all, at most, to tell mistakes from their consequences: every mistake of a
 * small file, a few of a big one, so that a keystroke in a broken file (or a file of garbage, where
 * every read meets thousands of errors) stays within a few reads of the text.
 */
const REREAD_BUDGET = 256 * 1024;

/**
 * One diagnostic per mistake. After a mistake the library often reports every token it can no
 * longer place (an unclosed `{` makes each line below "Unexpected map-value-ind token in YAML
 * stream"), so a typo turns the rest of the file red. The first error is a mistake; to see what
 * else is, its line and the lines nested under it are blanked (spaces: every offset stays) and the
 * text is read again. An error that remains is another mistake; one that went was a consequence.
 */
export function syntaxMistakes(text: string, docs: readonly Document.Parsed[], options: YamlOptions, spanOf: (text: string, error: YAMLError) => [number, number]): SyntaxMistake[] {
  let errors = errorsOf(text, docs, spanOf);
  if (errors.length === 1) {
    const only = causeOf(errors[0]!, text);
    return [{ start: only.start, end: only.end, message: only.message ?? plainMessage(only.error, text, only.start) }];
  }
  if (errors.length === 0) return [];
  const mistakes: SyntaxMistake[] = [];
  let patched = text;
  let budget = REREAD_BUDGET;
  for (;;) {
    const first = causeOf(errors[0]!, patched);
    mistakes.push({ start: first.start, end: first.end, message: first.message ?? plainMessage(first.error, text, first.start) });
    // One re-read is always allowed: a big file's second mistake is found too.
    if (errors.length === 1 || mistakes.length === MAX_MISTAKES || (mistakes.length > 1 && budget < patched.length)) return mistakes;
    budget -= patched.length;
    patched = blankedFrom(patched, first.start);
    const composed = composeYaml(patched, options);
    if (!composed.ok) return mistakes;
    errors = errorsOf(patched, composed.docs, spanOf).filter((e) => e.start > first.start);
    if (errors.length === 0) return mistakes;
  }
}

interface LocatedError {
  readonly error: YAMLError;
  readonly start: number;
  readonly end: number;
}

/**
 * The errors in order of position. The library reports one unclosed collection up to three times at
 * the same place (`Flow map must end with a }`, `... must be sufficiently indented and end with a }`):
 * the first says it.
 */
function errorsOf(text: string, docs: readonly Document.Parsed[], spanOf: (text: string, error: YAMLError) => [number, number]): LocatedError[] {
  const seen = new Set<number>();
  const errors: LocatedError[] = [];
  for (const doc of docs) {
    for (const error of doc.errors) {
      const [start, end] = spanOf(text, error);
      if (seen.has(start)) continue;
      seen.add(start);
      errors.push({ error, start, end });
    }
  }
  return errors.sort((a, b) => a.start - b.start);
}

/**
 * Where an error about a flow collection comes from: the library reports a `[` or `{` left open where
 * it meets the first line it cannot fit in (a block list further down), so the mistake is the
 * bracket that was never closed, on an earlier line.
 */
function causeOf(error: LocatedError, text: string): LocatedError & { readonly message?: string } {
  if (!/flow collection|^Flow (map|sequence)/.test(error.error.message)) return error;
  const opener = unclosedBracketBefore(text, error.start);
  if (opener === null) return error;
  const bracket = text[opener]!;
  const close = bracket === '[' ? ']' : '}';
  return { ...error, start: opener, end: opener + 1, message: `This "${bracket}" is never closed: add the "${close}" where it ends, or quote the value if the "${bracket}" belongs to it.` };
}

/** Lines searched upwards for the bracket left open. */
const OPENER_SEARCH_LINES = 200;

/** The last `[` or `{` outside quotes and comments, on the lines up to `offset`, that no bracket after it closes. */
function unclosedBracketBefore(text: string, offset: number): number | null {
  let lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = offset;
  let closers = 0;
  for (let n = 0; n < OPENER_SEARCH_LINES; n++) {
    const brackets = bracketsOf(text.slice(lineStart, lineEnd));
    for (let i = brackets.length - 1; i >= 0; i--) {
      const { at, open } = brackets[i]!;
      if (!open) closers++;
      else if (closers > 0) closers--;
      else return lineStart + at;
    }
    if (lineStart === 0) return null;
    lineEnd = lineStart - 1;
    lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  }
  return null;
}

/** The brackets of one line, outside quoted strings and its comment. */
function bracketsOf(line: string): { at: number; open: boolean }[] {
  const found: { at: number; open: boolean }[] = [];
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      // A quote opens a string only where a value starts (after a space, a bracket or a comma).
      if (i === 0 || /[\s[{,:]/.test(line[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      break;
    } else if (c === '[' || c === '{') {
      found.push({ at: i, open: true });
    } else if (c === ']' || c === '}') {
      found.push({ at: i, open: false });
    }
  }
  return found;
}

/** The text with the line at `offset`, and the lines nested under it (indented more, or blank), turned into spaces. */
function blankedFrom(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = indentation(text, lineStart);
  let end = lineEndAt(text, lineStart);
  while (end < text.length) {
    const next = end + 1;
    const nextEnd = lineEndAt(text, next);
    const line = text.slice(next, nextEnd);
    if (line.trim() !== '' && indentation(text, next) <= indent) break;
    end = nextEnd;
  }
  return text.slice(0, lineStart) + text.slice(lineStart, end).replace(/[^\n\r]/g, ' ') + text.slice(end);
}

function lineEndAt(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

function indentation(text: string, lineStart: number): number {
  let i = lineStart;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i - lineStart;
}

/** The library's message, said as a user reads it: what is wrong here, and what would fix it. */
function plainMessage(error: YAMLError, text: string, start: number): string {
  const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const found = text[start] ?? '';
  if (message === 'Nested mappings are not allowed in compact mappings') {
    return 'This value holds ": ", which starts a mapping where a plain value is expected. Quote the value, or put the mapping on lines of its own.';
  }
  if (/^Unexpected (flow-map-start|flow-seq-start) at node end$/.test(message)) {
    return `Unexpected "${found}" after the value. Quote the whole value if the "${found}" belongs to it.`;
  }
  const stray = /^Unexpected [\w-]+ token in YAML stream: "(.*)"$/.exec(message);
  if (stray) return `Unexpected "${stray[1]}" here: YAML cannot place it in the document.`;
  if (/^Flow (map|sequence) (in block collection )?must (be sufficiently indented and )?end with an? [}\]]$/.test(message)) {
    const close = message.endsWith('}') ? '}' : ']';
    return `A "${close === '}' ? '{' : '['}" is never closed: add the "${close}", or quote the value if the bracket belongs to it.`;
  }
  if (message === 'Implicit keys need to be on a single line') return 'A key must fit on one line: a ":" or a quote is probably missing on this line or the one above.';
  if (message === 'Implicit map keys need to be followed by map values') return 'This line has no ":", where "key: value" is expected.';
  if (message === 'All mapping items must start at the same column' || message === 'All sequence items must start at the same column') {
    return 'This line is not lined up with the ones above it at the same level: indent it like them.';
  }
  if (message === 'Tabs are not allowed as indentation') return 'YAML indents with spaces, never tabs: replace the tab with spaces.';
  return message.endsWith('.') ? message : `${message}.`;
}
