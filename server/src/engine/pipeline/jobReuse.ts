/**
 * What a job's reading (and its rows in the access map) depends on, so that after an edit a job whose
 * inputs are all unchanged is taken from the previous reading instead of being read and mapped again.
 *
 * A job's value is built from top-level entries of the file: its own, its `extends` ancestors
 * (including names that do not exist: adding one changes the job), the entries its `!reference` tags
 * read (and their ancestors), and the entries whose anchors its aliases reach. Its footprint lists
 * those keys, each with the entry's parse (shared by every text that holds the same entry, so equal
 * parses mean equal texts) and the parses of the entries its aliases reach. Equal footprints, with
 * the pipeline-wide entries (`default:`, `variables:`, `workflow:`, `include:`, …) and included files
 * unchanged too, mean the job reads the same, only perhaps moved: each of its locations moves with
 * the entry it is in.
 */
import type { SourceLocation } from './model';
import type { Loc, TopLevelBlock } from './tree';

/** A job's (or the pipeline-wide keywords') dependencies, compared element by element. */
export type Footprint = readonly unknown[];

/** Stands in a footprint for a key with no entry in the file. */
const ABSENT = Symbol('absent');

/** The main file's top-level entries as one reading found them. */
export class EntryTable {
  private readonly byKey = new Map<string, number>();

  /** `lines[i]`: the 0-based line `blocks[i]` starts on. */
  private constructor(
    readonly blocks: readonly TopLevelBlock[],
    readonly lines: readonly number[],
  ) {
    for (const [i, block] of blocks.entries()) this.byKey.set(block.key, i);
  }

  /** Null when a key is written twice: which entry a location belongs to would be ambiguous. */
  static of(blocks: readonly TopLevelBlock[], lineAt: (offset: number) => number): EntryTable | null {
    const table = new EntryTable(
      blocks,
      blocks.map((b) => lineAt(b.start)),
    );
    return table.byKey.size === blocks.length ? table : null;
  }

  entry(key: string): number | undefined {
    return this.byKey.get(key);
  }

  /**
   * The footprint of `keys` and their `extends` ancestors (`parentsOf` gives an entry's parents as
   * written): each key in the order reached, then its entry's parse (or {@link ABSENT}) and the
   * parses its aliases reach.
   */
  footprint(keys: Iterable<string>, parentsOf: (key: string) => readonly string[]): Footprint {
    const reached = new Set(keys);
    const out: unknown[] = [];
    for (const key of reached) {
      for (const parent of parentsOf(key)) reached.add(parent);
      const index = this.byKey.get(key);
      out.push(key);
      if (index === undefined) {
        out.push(ABSENT);
        continue;
      }
      const block = this.blocks[index];
      out.push(block.parse);
      for (const other of block.aliased) out.push(this.blocks[other].parse);
    }
    return out;
  }
}

export function sameFootprint(a: Footprint, b: Footprint): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/**
 * Moves what an earlier reading located in the main file to where the same entries are now: a
 * location in an entry moves by as many lines (and characters of the text) as the entry moved.
 * Entries start at column 0, so columns never change. Locations in other files stay.
 */
export class Relocation {
  /** Per entry of the earlier reading: how far it moved, or null when it is gone or changed. */
  private readonly moves: ({ lines: number; offset: number } | null)[];

  constructor(
    private readonly file: string,
    private readonly before: EntryTable,
    after: EntryTable,
  ) {
    this.moves = before.blocks.map((block, i) => {
      const now = after.entry(block.key);
      return now !== undefined && after.blocks[now].parse === block.parse ? { lines: after.lines[now] - before.lines[i], offset: after.blocks[now].start - block.start } : null;
    });
  }

  /** Whether every entry of a footprint is on the same lines as before (then line/character locations need no change). */
  unmoved(footprint: Footprint): boolean {
    for (const key of footprint) {
      if (typeof key !== 'string') continue;
      const index = this.before.entry(key);
      if (index === undefined) continue;
      const indexes = [index, ...this.before.blocks[index].aliased];
      if (indexes.some((i) => this.moves[i]?.lines !== 0)) return false;
    }
    return true;
  }

  /** `value` with every {@link SourceLocation} in it moved; null when one is in an entry that changed. */
  locations<T>(value: T): T | null {
    try {
      return this.walk(value) as T;
    } catch (err) {
      if (err === GONE) return null;
      throw err;
    }
  }

  /** A tree location (offsets) moved; null when it is in an entry that changed. */
  loc(loc: Loc): Loc | null {
    if (loc.file !== this.file) return loc;
    const move = this.moves[lastAtOrBefore(this.before.blocks, (b) => b.start, loc.start)];
    if (!move) return null;
    return move.offset === 0 ? loc : { file: loc.file, start: loc.start + move.offset, end: loc.end + move.offset };
  }

  private location(location: SourceLocation): SourceLocation {
    if (location.file !== this.file) return location;
    const move = this.moves[lastAtOrBefore(this.before.lines, (line) => line, location.range.start.line)];
    if (!move) throw GONE;
    if (move.lines === 0) return location;
    const { start, end } = location.range;
    return { file: location.file, range: { start: { line: start.line + move.lines, character: start.character }, end: { line: end.line + move.lines, character: end.character } } };
  }

  /** A copy of `value` with its locations moved, sharing every part that has none to move. */
  private walk(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      for (const [i, item] of value.entries()) {
        const moved = this.walk(item);
        if (moved !== item) (copy ??= value.slice())[i] = moved;
      }
      return copy ?? value;
    }
    if (isSourceLocation(value)) return this.location(value);
    let copy: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const moved = this.walk(item);
      if (moved !== item) (copy ??= { ...value })[key] = moved;
    }
    return copy ?? value;
  }
}

const GONE = Symbol('location in a changed entry');

function isSourceLocation(value: object): value is SourceLocation {
  const v = value as Partial<SourceLocation>;
  return typeof v.file === 'string' && typeof v.range === 'object' && Object.keys(value).length === 2;
}

/** The index of the last item whose position is at or before `at`; -1 when none is. */
function lastAtOrBefore<T>(items: readonly T[], position: (item: T) => number, at: number): number {
  if (items.length === 0 || position(items[0]) > at) return -1;
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (position(items[mid]) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
