import type { TextSource } from '../../text/splicedText';

/** A list that the incremental validator splits into entries (the lists with the 500-entry limit, docs/gitlab-behaviour.md#top-level-keys-and-list-limits). */
export type EntryListPath = readonly [section: 'ci_access' | 'user_access', list: 'projects' | 'groups'];

/** One list item: from its `- ` line to the next item (or the end of the list), comments included. */
export interface EntrySlice {
  /** Offset of the first character of the item's line. */
  readonly start: number;
  /** Offset just after the item's last line (its line break included). */
  readonly end: number;
  /** Zero-based line of `start`. */
  readonly line: number;
}

/** A block sequence of entries under `<section>:` → `<list>:`. */
export interface ListSlice {
  readonly path: EntryListPath;
  /** Indentation of the `<list>:` key, to rebuild the same nesting around a lone entry. */
  readonly keyIndent: number;
  /** Indentation of the items' `-`. */
  readonly itemIndent: number;
  readonly entries: readonly EntrySlice[];
}

/**
 * Where the entries of a configuration are, found by a line scan (indentation only, no YAML parse).
 * The scan is conservative: any shape it is not sure about (tabs in indentation, several YAML
 * documents, a section or list key given twice, indentation it cannot place) makes it give up, and
 * the caller validates the whole text instead.
 */
export interface DocumentLayout {
  readonly lists: readonly ListSlice[];
}

const SECTION = /^(ci_access|user_access):[ ]*(?:#.*)?$/;
const LIST_KEY = /^(projects|groups):[ ]*(?:#.*)?$/;
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:\s|$)|^%/;

interface Line {
  readonly start: number;
  readonly end: number;
  readonly indent: number;
  /** Blank or comment-only: YAML ignores it whatever its indentation. */
  readonly ignorable: boolean;
  /** [first, lineEnd): the line without its indentation and line break. */
  readonly first: number;
  readonly lineEnd: number;
  /** Starts with a list item's `- ` (or a lone `-`). */
  readonly item: boolean;
}

/** Scans `text` for the entry lists; null when the text has a shape the scan does not vouch for. */
export function scanLayout(text: string): DocumentLayout | null {
  if (text.includes('\r')) return null; // lone CRs are line breaks to YAML; keep the line arithmetic simple
  const lists: ListSlice[] = [];
  const seen = new Set<string>();
  let section: EntryListPath[0] | null = null;
  let childIndent = -1;
  let list: { path: EntryListPath; keyIndent: number; itemIndent: number; entries: EntrySlice[] } | null = null;
  let openEntry: { start: number; line: number } | null = null;
  let sawContent = false;

  const closeEntry = (end: number) => {
    if (list && openEntry) list.entries.push({ start: openEntry.start, end, line: openEntry.line });
    openEntry = null;
  };
  const closeList = (end: number) => {
    closeEntry(end);
    if (list && list.entries.length) lists.push({ path: list.path, keyIndent: list.keyIndent, itemIndent: list.itemIndent, entries: list.entries });
    list = null;
  };

  let lineNumber = 0;
  for (let start = 0; start < text.length; lineNumber++) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    const line = readLine(text, start, end);
    start = end;
    if (line === null) return null;
    if (line.ignorable) continue;
    if (line.indent === 0 && DOCUMENT_MARKER.test(text.slice(line.first, line.lineEnd))) {
      // A leading `---` is common and harmless; any other marker means several documents.
      if (sawContent || !text.slice(line.first, line.lineEnd).startsWith('---')) return null;
      continue;
    }
    sawContent = true;

    if (line.indent === 0) {
      closeList(line.start);
      const match = SECTION.exec(text.slice(line.first, line.lineEnd));
      section = match ? (match[1] as EntryListPath[0]) : null;
      childIndent = -1;
      if (section && seen.has(section)) return null;
      if (section) seen.add(section);
      continue;
    }
    if (!section) continue;

    if (list && line.indent === list.itemIndent && line.item) {
      closeEntry(line.start);
      openEntry = { start: line.start, line: lineNumber };
      continue;
    }
    if (list && list.itemIndent === -1) {
      if (line.indent >= list.keyIndent && line.item) {
        list.itemIndent = line.indent;
        openEntry = { start: line.start, line: lineNumber };
        continue;
      }
      // `<list>:` followed by something other than a block sequence (a flow list, a mapping): not split.
      list = null;
    }
    if (list && line.indent > list.itemIndent) continue; // inside the current entry

    if (!list && childIndent !== -1 && line.indent > childIndent) continue; // inside another key of the section

    // A key of the section (or something the scan cannot place).
    closeList(line.start);
    if (childIndent === -1) childIndent = line.indent;
    if (line.indent !== childIndent) return null;
    const key = LIST_KEY.exec(text.slice(line.first, line.lineEnd));
    if (!key) continue;
    const path: EntryListPath = [section, key[1] as EntryListPath[1]];
    const id = path.join('.');
    if (seen.has(id)) return null;
    seen.add(id);
    list = { path, keyIndent: line.indent, itemIndent: -1, entries: [] };
  }
  closeList(text.length);
  return { lists };
}

/**
 * What {@link rescanLayout} kept of the previous layout: the same lists in the same order, each
 * entry the same slice (moved by the edit when after it) but in list `list`, where old entries
 * [from, to) were replaced by `added` new ones.
 */
export interface LayoutEdit {
  readonly list: number;
  readonly from: number;
  readonly to: number;
  readonly added: number;
}

/**
 * The layout of `text`, a new version of `before.text` whose layout was `before.layout`, derived in
 * the time of the edit: when the changed characters lie inside one list's entries, only the entries
 * around them are scanned again (under the same list, with its indentation), and the entries after
 * them keep their slices, moved by the change. Null when the change reaches outside one list's
 * entries or the lines around it are not plain entries; the caller then scans the whole text
 * (`scanLayout`), which gives the same layout whenever this one is not null. Also says which
 * entries it kept ({@link LayoutEdit}).
 */
export function rescanLayout(before: { readonly text: TextSource; readonly layout: DocumentLayout }, text: TextSource, change: { readonly prefix: number; readonly suffix: number }): { layout: DocumentLayout; edit: LayoutEdit } | null {
  const { prefix, suffix } = change;
  const oldEnd = before.text.length - suffix;
  const newEnd = text.length - suffix;
  const growth = newEnd - oldEnd;
  const at = before.layout.lists.findIndex((l) => l.entries[0].start <= prefix && oldEnd <= l.entries[l.entries.length - 1].end);
  if (at === -1) return null;
  const list = before.layout.lists[at];
  const entries = list.entries;
  const changed = text.slice(prefix, newEnd);
  if (changed.includes('\r')) return null;
  // From the entry before the one the change starts in (deleting a `- ` joins an entry to the one
  // before) to the entry the change ends in.
  const first = Math.max(0, lastStartingAtOrBefore(entries, prefix) - 1);
  const last = oldEnd === entries[entries.length - 1].end ? entries.length - 1 : lastStartingAtOrBefore(entries, oldEnd);
  const from = entries[first].start;
  const to = entries[last].end + growth;
  if (to !== text.length && text.charCodeAt(to - 1) !== 10) return null;

  // The lines of those entries, read from their text alone (offsets in `window` are from `from`).
  const window = text.slice(from, to);
  const rescanned: EntrySlice[] = [];
  let lineNumber = entries[first].line;
  for (let start = 0; start < window.length; lineNumber++) {
    const newline = window.indexOf('\n', start);
    const end = newline === -1 ? window.length : newline + 1;
    const line = readLine(window, start, end);
    if (line === null) return null;
    if (line.ignorable) {
      if (!rescanned.length) return null;
    } else if (line.item && line.indent === list.itemIndent) {
      if (rescanned.length) rescanned[rescanned.length - 1] = { ...rescanned[rescanned.length - 1], end: from + start };
      rescanned.push({ start: from + start, end: to, line: lineNumber });
    } else if (line.indent <= list.itemIndent || !rescanned.length) {
      return null; // a key of the section, or a shape only the whole scan can place
    }
    start = end;
  }
  if (!rescanned.length) return null;

  const lineGrowth = countNewlines(changed) - countNewlines(before.text.slice(prefix, oldEnd));
  const moved = (e: EntrySlice): EntrySlice => ({ start: e.start + growth, end: e.end + growth, line: e.line + lineGrowth });
  const lists = before.layout.lists.map((l, i): ListSlice => {
    if (i < at) return l;
    if (i > at) return { ...l, entries: l.entries.map(moved) };
    return { ...l, entries: entries.slice(0, first).concat(rescanned, entries.slice(last + 1).map(moved)) };
  });
  return { layout: { lists }, edit: { list: at, from: first, to: last + 1, added: rescanned.length } };
}

/** The last entry starting at or before `offset` (entries are in text order; the first starts at or before it). */
function lastStartingAtOrBefore(entries: readonly EntrySlice[], offset: number): number {
  let low = 0;
  let high = entries.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (entries[mid].start <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function readLine(text: string, start: number, end: number): Line | null {
  let indent = 0;
  while (start + indent < end && text.charCodeAt(start + indent) === 32) indent++;
  const first = start + indent;
  const next = text[first];
  if (next === '\t') return null; // tabs around indentation: let the YAML parser judge the whole text
  const lineEnd = text[end - 1] === '\n' ? end - 1 : end;
  let blank = true;
  for (let i = first; i < lineEnd && blank; i++) blank = text.charCodeAt(i) === 32;
  const item = next === '-' && (first + 1 === lineEnd || text[first + 1] === ' ');
  return { start, end, indent, ignorable: blank || next === '#', item, first, lineEnd };
}
