import type { Range } from '../../server/src/engine/diagnostics';

/**
 * The range of the `occurrence`-th (0-based) appearance of `needle` in `text`, as 0-based
 * line/character positions: tests state where a diagnostic must point by quoting the text.
 */
export function rangeOf(text: string, needle: string, occurrence = 0): Range {
  let offset = -1;
  for (let i = 0; i <= occurrence; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset === -1) throw new Error(`"${needle}" occurs fewer than ${occurrence + 1} times`);
  }
  const position = (at: number) => {
    const before = text.slice(0, at);
    const line = before.split('\n').length - 1;
    return { line, character: at - (before.lastIndexOf('\n') + 1) };
  };
  return { start: position(offset), end: position(offset + needle.length) };
}
