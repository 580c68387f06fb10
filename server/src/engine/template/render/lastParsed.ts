import { parseTemplate, type ParsedTemplates } from './parser';
import { resetWithEngineCaches } from '../../cache';

/**
 * The last template parsed, kept for the next parse of the same text and name. A template is
 * parsed for its reference check and its hover (every function name accepted, so that all unknown
 * ones are reported) and again for each rendering (as Go parses it: an unknown function fails the parse).
 * In a batch whose templates share one text, serving the reference checks from the renderings' parse
 * too leaves almost no parsing.
 *
 * The set of function names only decides whether the parse fails, at the first unknown name; it
 * never shapes the trees. So a kept parse answers any request whose names include every function
 * the template calls. Only successful parses are kept. Neither rendering nor the checks modify the trees.
 */
let last: { readonly text: string; readonly name: string; readonly parsed: ParsedTemplates; readonly calls: readonly string[] } | null = null;
resetWithEngineCaches(() => (last = null));

/** `parseTemplate(text, name, isFunction)`, or the last parse when it gives the same answer; `isFunction` null accepts every name. */
export function parseTemplateOnce(text: string, name: string, isFunction: ((name: string) => boolean) | null): ParsedTemplates {
  if (last && last.text === text && last.name === name && (!isFunction || last.calls.every(isFunction))) return last.parsed;
  const calls: string[] = [];
  const parsed = parseTemplate(text, name, (f) => {
    calls.push(f);
    return !isFunction || isFunction(f);
  });
  last = { text, name, parsed, calls };
  return parsed;
}
