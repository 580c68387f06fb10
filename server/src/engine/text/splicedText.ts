/**
 * What the incremental readers of a text need of it: its length and its pieces. A string is one;
 * so is a {@link SplicedText}, which answers without joining its parts.
 */
export interface TextSource {
  readonly length: number;
  slice(start: number, end: number): string;
  charCodeAt(index: number): number;
}

/**
 * A version of a text given as an earlier version (`base`) with one span replaced: the base's
 * first `prefix` characters, then `middle`, then the base's last `suffix` characters.
 *
 * Why: a new version of a big file as one string is a full copy (17 MB at 50,000 entries) that
 * outlives the young generation and waits for a full garbage collection, so every keystroke
 * grew the heap by the size of the file. Slices of a spliced text are slices of its base (which
 * V8 shares, not copies) or of the small middle, so the readers that look only around the edit
 * cost the edit's size. `toString()` joins the text once, for the readers that need all of it.
 */
export class SplicedText implements TextSource {
  readonly length: number;
  private joined: string | undefined;

  constructor(
    readonly base: string,
    readonly prefix: number,
    readonly middle: string,
    readonly suffix: number,
  ) {
    if (prefix < 0 || suffix < 0 || prefix + suffix > base.length) throw new RangeError(`SplicedText: prefix ${prefix} and suffix ${suffix} overlap in a base of ${base.length}`);
    this.length = prefix + middle.length + suffix;
  }

  /** Offset in this text where the base's last `suffix` characters start. */
  private get tailStart(): number {
    return this.prefix + this.middle.length;
  }

  slice(start: number, end: number): string {
    if (this.joined !== undefined) return this.joined.slice(start, end);
    const from = clamp(start, this.length);
    const to = clamp(end, this.length);
    if (from >= to) return '';
    const tail = this.tailStart;
    const shift = this.base.length - this.length; // base offset = text offset + shift, in the tail
    if (to <= this.prefix) return this.base.slice(from, to);
    if (from >= tail) return this.base.slice(from + shift, to + shift);
    let out = from < this.prefix ? this.base.slice(from, this.prefix) : '';
    out += this.middle.slice(Math.max(from, this.prefix) - this.prefix, Math.min(to, tail) - this.prefix);
    if (to > tail) out += this.base.slice(tail + shift, to + shift);
    return out;
  }

  charCodeAt(index: number): number {
    if (this.joined !== undefined) return this.joined.charCodeAt(index);
    if (index < 0 || index >= this.length) return NaN;
    if (index < this.prefix) return this.base.charCodeAt(index);
    const tail = this.tailStart;
    if (index < tail) return this.middle.charCodeAt(index - this.prefix);
    return this.base.charCodeAt(index + this.base.length - this.length);
  }

  /** The whole text, joined at the first call (one copy) and kept. */
  toString(): string {
    if (this.joined === undefined) {
      this.joined = this.base.slice(0, this.prefix) + this.middle + this.base.slice(this.base.length - this.suffix);
      // Reading a character makes V8 copy the pieces into one flat string now, once, rather than at each reader's slice.
      this.joined.charCodeAt(0);
    }
    return this.joined;
  }
}

/** The whole text of a source (a string is returned as it is). */
export function wholeText(source: TextSource): string {
  return typeof source === 'string' ? source : source.toString();
}

/**
 * How many characters two versions of a text share at the start and (not overlapping it) at the
 * end. Two spliced texts of the same base share at least the base's characters outside both
 * replaced spans: only what lies between is compared.
 */
export function sharedEnds(before: TextSource, after: TextSource): { prefix: number; suffix: number } {
  const limit = Math.min(before.length, after.length);
  const known = before instanceof SplicedText && after instanceof SplicedText && before.base === after.base ? { prefix: Math.min(before.prefix, after.prefix), suffix: Math.min(before.suffix, after.suffix) } : { prefix: 0, suffix: 0 };
  const prefix = sharedLength(Math.min(known.prefix, limit), limit, (at, length) => before.slice(at, at + length) === after.slice(at, at + length));
  const tail = (text: TextSource, from: number, length: number) => text.slice(text.length - from - length, text.length - from);
  const suffix = sharedLength(Math.min(known.suffix, limit - prefix), limit - prefix, (from, length) => tail(before, from, length) === tail(after, from, length));
  return { prefix, suffix };
}

/**
 * The length (at least `known`, at most `limit`) of a common run that `same(at, length)` checks
 * piece by piece: blocks that double while they match and halve when they do not, so a text that
 * differs in one place costs a few string comparisons (each a memory compare), not one per
 * character or per small block.
 */
function sharedLength(known: number, limit: number, same: (at: number, length: number) => boolean): number {
  let shared = known;
  let block = 4096;
  while (block >= 1) {
    const length = Math.min(block, limit - shared);
    if (length > 0 && same(shared, length)) {
      shared += length;
      if (length === block) block *= 2;
    } else {
      if (length <= 0) break;
      block = Math.min(block, length) >> 1;
    }
  }
  return shared;
}

/** An offset as `String.prototype.slice` reads it: from the end when negative, within [0, length]. */
function clamp(offset: number, length: number): number {
  const from = offset < 0 ? length + offset : offset;
  return from < 0 ? 0 : from > length ? length : from;
}
