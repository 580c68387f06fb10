import { isMap, isPair, isScalar, isSeq, type Document, type Node, type YAMLMap } from 'yaml';
import type { TextSource } from '../text/splicedText';
import type { TextIndex } from '../text/textIndex';
import { keyText } from '../yaml/yamlDocument';

/** A data path as the schema and the models use it (map keys and sequence indexes). */
export type DataPath = readonly (string | number)[];

/**
 * What the cursor is on, in YAML terms:
 * - `key`: a key can be written here (empty line, partial key, after `- `), in the map at `path`;
 * - `value`: the scalar value of the key (or list item) at `path`.
 * `replace` is the [start, end) of the text a completion replaces; `column` is where the key or
 * value starts on its line (the indentation a multi-line snippet continues at).
 */
export type YamlCompletionContext =
  | {
      readonly kind: 'key';
      readonly path: DataPath;
      /** Keys already in the map, except the one being typed on this line. */
      readonly existingKeys: ReadonlySet<string>;
      readonly replace: readonly [number, number];
      readonly column: number;
      /**
       * The line opens a list item (`- `): the item's first key is being written — or, in a list of
       * scalars, the item's value (the schema decides).
       */
      readonly newItem: boolean;
      readonly prefix: string;
      /** The key already has its `:` (the cursor is in an existing key): only the name is replaced. */
      readonly keyOnly: boolean;
      /** `replace` starts at the line start: the inserted key carries its indentation (`column` spaces). */
      readonly reindent: boolean;
      /**
       * The cursor stands at a block list's dash column with no `- ` typed yet (after Enter on an
       * entry's last line): a new item of that list can start here too, at `path` with its dash at `dashColumn`.
       */
      readonly nextItem?: { readonly path: DataPath; readonly dashColumn: number };
    }
  | {
      readonly kind: 'value';
      readonly path: DataPath;
      /** The value's source text before the cursor (quotes included). */
      readonly prefix: string;
      /** The whole value as written on this line (quotes included). */
      readonly text: string;
      readonly replace: readonly [number, number];
      readonly column: number;
      /** The value's start offset in the document. */
      readonly start: number;
    };

// `  - - key: value`: indentation, the list dashes, then the content.
const LINE = /^( *)((?:- +)*-?)(.*)$/;
// A block mapping key followed by `:` and a space or the end of the content (plain keys only).
const KEY_VALUE = /^([^\s#'"{}[\],&*!|>%@`][^:#]*?|"[^"]*"|'[^']*'):(?: +(.*))?$/;

/**
 * Decides what can be completed at `offset` from the current line's text and the YAML tree of the
 * lines around it. Only the nodes on the path to the cursor are visited (a binary search at each
 * level), so the cost grows with the nesting depth, not with the size of the file.
 */
export function completionContextAt(text: TextSource, index: TextIndex, doc: Document.Parsed | null, offset: number): YamlCompletionContext | null {
  const position = index.positionAt(offset);
  const lineStart = offset - position.character;
  const lineEnd = index.lineEnd(position.line);
  const before = text.slice(lineStart, offset);
  if (inComment(before) || before.includes('\t')) return null;
  const line = LINE.exec(before);
  if (!line) return null;
  const [, indent, dashes, content] = line;
  if (dashes.endsWith('-')) return null; // `-|`: a space must follow the dash first.
  if (content.startsWith('#') || /[{}[\]]/.test(content.split(':')[0] ?? '')) return null;
  const dashColumn = dashes ? indent.length + dashes.lastIndexOf('-') : null;
  const column = indent.length + dashes.length;
  const target: Target = { lineStart, column, dashColumn };
  // A document that is still empty, or only the scalar being typed on its first line, is a root mapping to be.
  const place = isMap(doc?.contents) || isSeq(doc?.contents) ? locate(doc!.contents, [], target, index) : { path: [], map: null };
  if (!place) return null;

  const pair = KEY_VALUE.exec(content);
  if (pair && pair[2] !== undefined) {
    // `key: val|` — the value of `key` in the map at place.path (not inside a flow collection).
    if (/^[[{]/.test(pair[2])) return null;
    return valueContext(text, [...place.path, unquote(pair[1]!.trim())], pair[2], offset, lineStart, lineEnd);
  }
  if (pair) return null; // `key:|` — nothing to offer until a space is typed.
  if (!/^[A-Za-z0-9_.-]*$/.test(content)) {
    // `- "val|` in a list of scalars; anything else that is not a bare word has nothing to complete.
    return dashColumn !== null && place.itemIsScalar ? valueContext(text, place.path, content, offset, lineStart, lineEnd) : null;
  }
  return keyContext(text, place, content, { offset, lineStart, lineEnd, column, dashColumn });
}

/** The value being written: `prefix` is its text before the cursor, the rest of it is read from the line. */
function valueContext(text: TextSource, path: DataPath, prefix: string, offset: number, lineStart: number, lineEnd: number): YamlCompletionContext {
  const start = offset - prefix.length;
  const whole = prefix + valueTail(prefix, text.slice(offset, lineEnd));
  return { kind: 'value', path, prefix, text: whole, replace: [start, start + whole.length], column: start - lineStart, start };
}

/** A key (or a list item's first key) being written as `word`, in the map `place` found. */
function keyContext(
  text: TextSource,
  place: Place,
  word: string,
  at: { offset: number; lineStart: number; lineEnd: number; column: number; dashColumn: number | null },
): YamlCompletionContext {
  const { offset, lineStart, lineEnd } = at;
  const wordEnd = offset + (/^[A-Za-z0-9_-]*/.exec(text.slice(offset, lineEnd))?.[0].length ?? 0);
  const existingKeys = new Set<string>();
  for (const item of place.map?.items ?? []) {
    if (!isPair(item)) continue;
    const keyNode = item.key as Node | null;
    if (keyNode?.range && keyNode.range[0] >= lineStart && keyNode.range[0] <= lineEnd) continue;
    existingKeys.add(keyText(item.key));
  }
  const keyOnly = /^\s*:/.test(text.slice(wordEnd, lineEnd));
  const common = { kind: 'key' as const, path: place.path, existingKeys, prefix: word, keyOnly };
  if (place.keyColumn !== undefined && !keyOnly) {
    // Replace the line's indentation too, so the key lands at its map's column.
    return { ...common, replace: [lineStart, wordEnd], column: place.keyColumn, newItem: false, reindent: true, ...(place.nextItem ? { nextItem: place.nextItem } : {}) };
  }
  return { ...common, replace: [offset - word.length, wordEnd], column: at.column, newItem: at.dashColumn !== null, reindent: false };
}

interface Target {
  readonly lineStart: number;
  /** Column where the line's content (key or value) starts. */
  readonly column: number;
  /** Column of the line's last `-`, when the line opens a list item. */
  readonly dashColumn: number | null;
}

interface Place {
  readonly path: DataPath;
  /** The map whose keys sit at the target column, when it exists already. */
  readonly map: YAMLMap | null;
  /** The line is an item of a sequence whose item on this line is a plain scalar (or empty). */
  readonly itemIsScalar?: boolean;
  /**
   * The map's keys stand right of the cursor's column (after `- id: x` and Enter the editor keeps the
   * dash's indentation): a key written here goes to this column instead.
   */
  readonly keyColumn?: number;
  /** The cursor is at the dash column of the list holding that map: a new item could start here. */
  readonly nextItem?: { readonly path: DataPath; readonly dashColumn: number };
}

function locate(node: unknown, path: DataPath, target: Target, index: TextIndex): Place | null {
  if (isMap(node) && !node.flow && node.items.length) {
    const first = node.items[0]!.key as Node | null;
    const keyColumn = first?.range ? columnOf(first.range[0], index) : 0;
    if (target.dashColumn === null && keyColumn === target.column) return { path, map: node };
    if (keyColumn > (target.dashColumn ?? target.column)) return { path, map: node, ...(target.dashColumn === null ? { keyColumn } : {}) };
    const pair = lastBefore(node.items, target.lineStart, (p) => (p.key as Node | null)?.range?.[0]);
    if (!pair) return target.dashColumn === null ? { path, map: node } : null;
    const childPath = [...path, keyText(pair.key)];
    return locate(pair.value, childPath, target, index) ?? { path: childPath, map: null };
  }
  if (isSeq(node) && !node.flow && node.range) {
    const seqColumn = columnOf(node.range[0], index);
    if (target.dashColumn === seqColumn) {
      // This line's item, or the next one when the line has no item yet.
      const items = node.items as (Node | null)[];
      const i = lastIndexBefore(items, target.lineStart, (item) => item?.range?.[0] ?? -1) + 1;
      const item = items[i];
      return { path: [...path, i], map: isMap(item) ? item : null, itemIsScalar: item === undefined || item === null || isScalar(item) };
    }
    if (seqColumn > (target.dashColumn ?? target.column)) return null;
    const items = node.items as Node[];
    const i = lastIndexBefore(items, target.lineStart, (item) => item?.range?.[0]);
    if (i === -1) return null;
    const inside = locate(items[i], [...path, i], target, index) ?? { path: [...path, i], map: null };
    // At the dash column without a dash: the item's keys (reindented), or a new item of this list.
    const atDash = target.dashColumn === null && seqColumn === target.column && inside.keyColumn !== undefined && inside.path.length === path.length + 1;
    return atDash ? { ...inside, nextItem: { path: [...path, i + 1], dashColumn: seqColumn } } : inside;
  }
  return null;
}

/** The last element that starts before `offset` (elements are in source order: binary search). */
function lastBefore<T>(items: readonly T[], offset: number, start: (item: T) => number | undefined): T | null {
  const i = lastIndexBefore(items, offset, start);
  return i === -1 ? null : items[i]!;
}

function lastIndexBefore<T>(items: readonly T[], offset: number, start: (item: T) => number | undefined): number {
  let low = 0;
  let high = items.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = start(items[mid]!);
    if (at !== undefined && at < offset) {
      found = mid;
      low = mid + 1;
    } else if (at === undefined) {
      // A node without a range (rare, in broken input): look at the neighbours linearly.
      return linearLastBefore(items, offset, start);
    } else {
      high = mid - 1;
    }
  }
  return found;
}

function linearLastBefore<T>(items: readonly T[], offset: number, start: (item: T) => number | undefined): number {
  let found = -1;
  for (const [i, item] of items.entries()) {
    const at = start(item);
    if (at !== undefined && at < offset) found = i;
  }
  return found;
}

function columnOf(offset: number, index: TextIndex): number {
  return index.positionAt(offset).character;
}

/** The rest of a value after the cursor, up to a comment or the line end (to replace it whole). */
function valueTail(prefix: string, rest: string): string {
  const quote = prefix.startsWith('"') || prefix.startsWith("'") ? prefix[0] : null;
  if (quote) {
    const close = rest.indexOf(quote);
    return close === -1 ? rest.trimEnd() : rest.slice(0, close + 1);
  }
  const comment = rest.search(/\s#/);
  return (comment === -1 ? rest : rest.slice(0, comment)).trimEnd();
}

/** True when the line text before the cursor ends inside a comment. */
function inComment(before: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < before.length; i++) {
    const c = before[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s:[{,-]/.test(before[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(before[i - 1]!))) {
      return true;
    }
  }
  return false;
}

function unquote(key: string): string {
  return /^(["']).*\1$/.test(key) ? key.slice(1, -1) : key;
}
