/**
 * The rendered text plus a map from output offsets back to the template, so that a problem found in the
 * rendered YAML can be shown where it came from in the template.
 */

/** One piece of output and the template text that produced it. */
export interface OutputSegment {
  readonly outStart: number;
  readonly outEnd: number;
  readonly srcStart: number;
  readonly srcEnd: number;
  /** True for literal template text: each output character is the template character at the same delta. */
  readonly literal: boolean;
}

/** Told each action's printed text, also an empty one (which leaves no segment). */
export type ActionListener = (srcStart: number, srcEnd: number, text: string) => void;

/** Collects output and its segments. */
export class OutputBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  readonly segments: OutputSegment[] = [];

  constructor(private readonly onAction?: ActionListener) {}

  /** Appends literal template text found at `srcStart`. */
  writeLiteral(text: string, srcStart: number): void {
    this.push(text, srcStart, srcStart + text.length, true);
  }

  /** Appends text computed by the action spanning `srcStart..srcEnd`. */
  writeComputed(text: string, srcStart: number, srcEnd: number): void {
    this.onAction?.(srcStart, srcEnd, text);
    this.push(text, srcStart, srcEnd, false);
  }

  private push(text: string, srcStart: number, srcEnd: number, literal: boolean): void {
    if (text.length === 0) return;
    this.parts.push(text);
    this.segments.push({ outStart: this.length, outEnd: this.length + text.length, srcStart, srcEnd, literal });
    this.length += text.length;
  }

  toString(): string {
    return this.parts.join('');
  }
}

/**
 * The template span that produced output offset `offset` (a literal character maps to itself; computed
 * text maps to its whole action). Offsets past the end map to the end of the last segment.
 */
export function sourceSpanAt(segments: readonly OutputSegment[], offset: number): { start: number; end: number } | null {
  if (segments.length === 0) return null;
  let low = 0;
  let high = segments.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (segments[mid].outStart <= offset) low = mid;
    else high = mid - 1;
  }
  const s = segments[low];
  if (offset >= s.outEnd) return { start: s.srcEnd, end: s.srcEnd };
  if (!s.literal) return { start: s.srcStart, end: s.srcEnd };
  const at = s.srcStart + (offset - s.outStart);
  return { start: at, end: at + 1 };
}
