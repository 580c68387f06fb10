import type { Position, Range } from '../diagnostics';
import { wholeText, type TextSource } from './splicedText';

/** Where two versions of a text differ: they share `prefix` characters at the start and `suffix` at the end. */
export interface TextChange {
  readonly prefix: number;
  readonly suffix: number;
}

/**
 * Converts between string offsets and line/character positions for one text. Built once per
 * document version (or derived from the previous version's index in the time of the edit);
 * lookups are a binary search over line starts. It also keeps the text as it was given
 * (`source`): readers that take only pieces around a position (completion, the entry checks)
 * read it there, so a derived index's spliced text is joined only for a reader of `text`.
 */
export class TextIndex {
  /**
   * Offsets of the line starts (before the shift below), scanned at the first lookup: most parses
   * of a run of entries are never asked a position.
   */
  private starts: Int32Array | undefined;
  /**
   * The starts from index `shiftFrom` on are `shift` further than `starts` says: typing within a
   * line moves every later start, and an index derived for such an edit shares its predecessor's
   * array (600,000 starts at 50,000 entries) instead of copying it at each keystroke.
   */
  private shiftFrom = Infinity;
  private shift = 0;
  /** The text holds a `\r` (a line break alone or in `\r\n`): such an index is not derived, only built. */
  private readonly hasCarriageReturn: boolean;
  private bytes: number | undefined;

  /** `source`: the text, or a spliced text (positions need only its length and line starts). */
  constructor(
    readonly source: TextSource,
    lineStarts?: Int32Array,
    bytes?: number,
  ) {
    this.starts = lineStarts;
    this.hasCarriageReturn = lineStarts ? false : wholeText(source).includes('\r');
    this.bytes = bytes;
  }

  /** The whole text (a spliced source is joined once, at the first call). */
  get text(): string {
    return wholeText(this.source);
  }

  private get lineStarts(): Int32Array {
    return (this.starts ??= this.hasCarriageReturn ? lineStartsWithCarriageReturns(this.text) : newlineStarts(this.text, 0, this.text.length, [0]));
  }

  /**
   * The index of `text`, a new version of `previous.text` that differs from it only between the
   * shared start and end `change` describes: the line starts before the change are kept, those
   * after it shifted, and only the changed characters are scanned (an edit costs its own size,
   * not the file's). Built from scratch when either text has a `\r`.
   */
  static edited(previous: TextIndex, text: TextSource, change: TextChange): TextIndex {
    const { prefix, suffix } = change;
    const oldEnd = previous.source.length - suffix;
    const newEnd = text.length - suffix;
    const changed = text.slice(prefix, newEnd);
    if (previous.hasCarriageReturn || changed.includes('\r')) return new TextIndex(wholeText(text));
    const bytes = previous.bytes === undefined ? undefined : previous.bytes + utf8Growth(previous.source, text, prefix, suffix);
    // Starts at or before the change keep their place; starts whose line break is inside the
    // old changed span are dropped; the rest move by the change in length.
    const keep = previous.startsUpTo(prefix);
    const after = previous.startsUpTo(oldEnd);
    const middle = newlineStarts(changed, 0, changed.length, []).map((start) => start + prefix);
    const growth = newEnd - oldEnd;
    if (keep === after && !middle.length && (previous.shiftFrom === Infinity || previous.shiftFrom === after || growth === 0)) {
      // No line break added or removed, and any pending shift starts at the same line (or this edit
      // moves nothing): the array is shared, the shift grows.
      const derived = new TextIndex(text, previous.lineStarts, bytes);
      derived.shiftFrom = growth === 0 ? previous.shiftFrom : after;
      derived.shift = previous.shift + growth;
      return derived;
    }
    const old = previous.shiftedStarts();
    const starts = new Int32Array(keep + middle.length + (old.length - after));
    starts.set(old.subarray(0, keep));
    starts.set(middle, keep);
    for (let i = after, j = keep + middle.length; i < old.length; i++, j++) starts[j] = old[i] + growth;
    return new TextIndex(text, starts, bytes);
  }

  /** The start of line `line`. */
  private start(line: number): number {
    const start = this.lineStarts[line];
    return line >= this.shiftFrom ? start + this.shift : start;
  }

  /** The starts with the pending shift applied (the array itself when there is none). */
  private shiftedStarts(): Int32Array {
    const starts = this.lineStarts;
    if (this.shiftFrom >= starts.length || this.shift === 0) return starts;
    const shifted = starts.slice();
    for (let i = this.shiftFrom; i < shifted.length; i++) shifted[i] += this.shift;
    return shifted;
  }

  /** How many line starts are at most `limit`. */
  private startsUpTo(limit: number): number {
    let low = 0;
    let high = this.lineStarts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.start(mid) <= limit) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The text's length in UTF-8 bytes (computed once; derived from the previous version's for an edit). */
  get utf8Length(): number {
    this.bytes ??= Buffer.byteLength(this.text, 'utf8');
    return this.bytes;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.source.length));
    const line = this.startsUpTo(clamped) - 1;
    return { line, character: clamped - this.start(line) };
  }

  offsetAt(position: Position): number {
    if (position.line >= this.lineStarts.length) return this.source.length;
    const start = this.start(Math.max(0, position.line));
    return Math.min(start + position.character, this.lineEnd(position.line));
  }

  range(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(Math.max(start, end)) };
  }

  /** Offset of the end of a line, before its line break. */
  lineEnd(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.start(line + 1) : this.source.length;
    const start = this.start(line);
    let end = next;
    while (end > start && isLineBreak(this.source.charCodeAt(end - 1))) end--;
    return end;
  }
}

/** Line starts where a line ends at `\n`, `\r\n` or a lone `\r`. */
function lineStartsWithCarriageReturns(text: string): Int32Array {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) starts.push(i + 1);
    else if (c === 13 /* \r */ && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return Int32Array.from(starts);
}

function isLineBreak(code: number): boolean {
  return code === 10 /* \n */ || code === 13 /* \r */;
}

/** `starts` followed by the offset after each `\n` in [from, to). */
function newlineStarts(text: string, from: number, to: number, starts: number[]): Int32Array {
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return Int32Array.from(starts);
}

/** UTF-8 bytes gained by the change; the changed spans are widened so no surrogate pair is cut. */
function utf8Growth(before: TextSource, after: TextSource, prefix: number, suffix: number): number {
  const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
  const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
  let start = prefix;
  if (start > 0 && isHigh(after.charCodeAt(start - 1))) start--;
  let shared = suffix;
  if (shared > 0 && isLow(after.charCodeAt(after.length - shared))) shared--;
  return Buffer.byteLength(after.slice(start, after.length - shared), 'utf8') - Buffer.byteLength(before.slice(start, before.length - shared), 'utf8');
}
