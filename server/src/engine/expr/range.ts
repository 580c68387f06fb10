/**
 * A half-open span of UTF-16 code-unit offsets inside one expression or value string:
 * `start` is the first offset covered, `end` the first offset after it (0-based, like `String#slice`).
 * The editor maps these onto document positions by adding the offset of the string in the document.
 */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** Builds a {@link TextRange}. */
export function textRange(start: number, end: number): TextRange {
  return { start, end };
}

/** The smallest range covering every given range (at least one range is required). */
export function coverRanges(first: TextRange, ...rest: readonly TextRange[]): TextRange {
  let start = first.start;
  let end = first.end;
  for (const r of rest) {
    if (r.start < start) start = r.start;
    if (r.end > end) end = r.end;
  }
  return { start, end };
}
