/**
 * A CI file as a tree of located values: what GitLab's YAML loader (Ruby's Psych, YAML 1.1) makes of
 * the text, with each value keeping its file and offsets so that everything resolved later (includes,
 * `extends`, `!reference`) still points at the text the user wrote.
 *
 * - Anchors and aliases: an alias is the very node it names (shared, never copied), so a file of many
 *   aliases stays linear.
 * - `<<` merge keys follow Psych (ruby/psych `lib/psych/visitors/to_ruby.rb`, `revive_hash`): the merged
 *   mapping's keys are written into the mapping at the point of `<<`, so keys before it are
 *   overwritten and keys after it win; in a list of mappings the earlier ones win.
 * - `!reference [job, key, …]` stays a {@link YRef} until references are resolved
 *   (https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags).
 * - Psych, unlike the yaml library's YAML 1.1 schema, reads `y` and `n` as strings (ruby/psych
 *   `lib/psych/scalar_scanner.rb`: only yes/true/on and no/false/off are booleans).
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import { composeYaml, MAX_YAML_DEPTH, TOO_DEEP_MESSAGE } from '../yaml/boundedYaml';
import type { YamlOptions } from '../yaml/composedYaml';
import { BoundedCache } from '../cache';

/** Where a value is: file and [start, end) offsets in it. */
export interface Loc {
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

export interface YEntry {
  readonly key: string;
  readonly keyLoc: Loc;
  readonly value: YNode;
}

export interface YMap {
  readonly kind: 'map';
  /** Keys in order; a key written twice keeps its last value (Ruby hash assignment). */
  readonly entries: ReadonlyMap<string, YEntry>;
  readonly loc: Loc;
}

export interface YSeq {
  readonly kind: 'seq';
  readonly items: readonly YNode[];
  readonly loc: Loc;
}

export interface YScalar {
  readonly kind: 'scalar';
  readonly value: string | number | boolean | null;
  /** The scalar as Ruby's `to_s` prints it (`1.0` stays `1.0`, null is ""). */
  readonly text: string;
  readonly loc: Loc;
}

/** An unresolved `!reference [a, b, …]`; `path` null when the tag's value is not a list of strings. */
export interface YRef {
  readonly kind: 'ref';
  readonly path: readonly string[] | null;
  readonly loc: Loc;
}

export type YNode = YMap | YSeq | YScalar | YRef;

/** A problem found while reading a file's text, at offsets of that file. */
export interface TreeProblem {
  readonly loc: Loc;
  readonly severity: 'error' | 'warning' | 'information';
  readonly code: string;
  readonly message: string;
}

export interface ReadTree {
  /** The first document's root; null when the text is empty or unreadable. */
  readonly root: YNode | null;
  readonly problems: TreeProblem[];
  /** The top-level entries, when the file was read entry by entry (absent for the whole-document path). */
  readonly blocks?: readonly TopLevelBlock[];
  /** The `spec:` header document, when the file has one (https://docs.gitlab.com/ci/yaml/#spec). */
  readonly header?: YNode;
}

/**
 * One top-level entry as read entry by entry. Its parse is shared by every text that holds the same
 * entry, so `parse` identifies the entry's text across versions of a file; `aliased` are the entries
 * whose anchors its aliases reach (through their own aliases too), whose text its value depends on.
 */
export interface TopLevelBlock {
  readonly key: string;
  /** Offset of the entry's first character (column 0 of its first line). */
  readonly start: number;
  readonly parse: object;
  /** Indexes of earlier entries in the file's list of blocks. */
  readonly aliased: readonly number[];
  readonly entry: YEntry;
  /** No anchor and no alias: its tree neither reaches nor is reached by another entry's. */
  readonly selfContained: boolean;
}

export const REFERENCE_TAG = '!reference';

const YAML_OPTIONS: YamlOptions = {
  version: '1.1',
  merge: true,
  uniqueKeys: false,
  prettyErrors: false,
  customTags: [{ tag: REFERENCE_TAG, collection: 'seq', resolve: (seq) => seq }],
};

/** Syntax errors reported per file. */
const MAX_SYNTAX_PROBLEMS = 5;

/**
 * Reads one CI file's text into a located tree; never throws. A file whose top level is a plain
 * block mapping is parsed one top-level entry at a time, and each entry's parse is kept by its text,
 * so after an edit only the edited job is parsed again (the YAML parse is most of the time spent);
 * anything else, and any entry that does not parse cleanly on its own, takes the whole-document path.
 */
export function readTree(text: string, file: string, options: { incremental?: boolean; previous?: readonly TopLevelBlock[] } = {}): ReadTree {
  if (options.incremental !== false) {
    const blocks = topLevelBlocks(text);
    const read = blocks ? readBlocks(text, file, blocks, options.previous ?? []) : null;
    if (read) return read;
  }
  return readWhole(text, file);
}

function readWhole(text: string, file: string): ReadTree {
  const problems: TreeProblem[] = [];
  const composed = composeYaml(text, YAML_OPTIONS);
  if (!composed.ok) {
    problems.push({ loc: { file, start: composed.tooDeepAt, end: composed.tooDeepAt + 1 }, severity: 'error', code: 'pipeline.yamlTooDeep', message: TOO_DEEP_MESSAGE });
    return { root: null, problems };
  }
  // A file with a `spec:` header is two documents: the header, then the configuration
  // (https://docs.gitlab.com/ci/yaml/#spec).
  const first = composed.docs[0];
  const hasHeader = first && composed.docs.length > 1 && isMap(first.contents) && first.contents.items.length > 0 && first.contents.items.every((p) => isScalar(p.key) && p.key.value === 'spec');
  const doc = hasHeader ? composed.docs[1] : first;
  if (!doc) return { root: null, problems };
  const header = hasHeader && first.errors.length === 0 ? new Converter(text, file).convert(first.contents as Node) : null;
  // The first few errors: after one, the parser's later complaints mostly repeat it.
  for (const error of doc.errors.slice(0, MAX_SYNTAX_PROBLEMS)) {
    problems.push({
      loc: { file, start: error.pos[0], end: Math.max(error.pos[1], error.pos[0] + 1) },
      severity: 'error',
      code: 'pipeline.yamlSyntax',
      message: `${firstLine(error.message)}: GitLab cannot read this file, so its jobs are not shown.`,
    });
  }
  if (doc.errors.length > 0) return { root: null, problems };
  const converter = new Converter(text, file);
  const converted = doc.contents ? converter.convert(doc.contents as Node) : null;
  // The top-level mapping runs to the end of the text, as when it is read entry by entry.
  const root = converted?.kind === 'map' ? { ...converted, loc: { ...converted.loc, end: text.length } } : converted;
  problems.push(...converter.problems);
  if (converter.tooDeepAt !== null) {
    problems.push({ loc: { file, start: converter.tooDeepAt, end: converter.tooDeepAt + 1 }, severity: 'error', code: 'pipeline.yamlTooDeep', message: TOO_DEEP_MESSAGE });
    return { root: null, problems };
  }
  return { root, problems, ...(header ? { header } : {}) };
}

/** A top-level entry's text: from its key's line to the next top-level key. */
interface Block {
  readonly start: number;
  readonly text: string;
}

/**
 * The top-level entries of a file whose top level is a plain block mapping: each line that starts
 * in column 0 with anything but a comment starts one. Null when the file has document markers,
 * directives, a top-level list, flow collections, tags, anchors, merge keys or complex keys at
 * column 0 (the whole-document path reads those), or fewer than two entries.
 */
function topLevelBlocks(text: string): Block[] | null {
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    const c = text[at];
    const next = text.indexOf('\n', at);
    if (c !== ' ' && c !== '\t' && c !== '#' && c !== '\n' && c !== '\r') {
      if (/^(?:[-?%[\]{}!&*|>@`,\uFEFF]|<<|\.\.\.)/.test(text.slice(at, at + 3))) return null;
      starts.push(at);
    } else if (starts.length === 0 && !/^\s*(?:#.*)?$/.test(text.slice(at, next === -1 ? text.length : next))) {
      // Content before the first top-level key (an indented first line): only the whole document says what it is.
      return null;
    }
    if (next === -1) break;
    at = next + 1;
  }
  if (starts.length < 2) return null;
  return starts.map((start, i) => ({ start, text: text.slice(start, i + 1 < starts.length ? starts[i + 1] : text.length) }));
}

/**
 * Parsed entries by their text, shared by every file (documents are read, never changed), bounded
 * by the characters of the texts kept (their parsed documents take some tens of times more memory).
 */
const blockCache = new BoundedCache<string, Document.Parsed | null>(2_000_000, (block) => block.length);

/** One entry parsed on its own; null when it does not parse cleanly as a one-key mapping. */
function parseBlock(block: string): Document.Parsed | null {
  return blockCache.get(block, () => {
    const composed = composeYaml(block, YAML_OPTIONS);
    const doc = composed.ok && composed.docs.length === 1 ? composed.docs[0] : null;
    return doc && doc.errors.length === 0 && isMap(doc.contents) && doc.contents.items.length === 1 && isScalar(doc.contents.items[0].key) ? doc : null;
  });
}

/**
 * The file read entry by entry; null to fall back to the whole document. A self-contained entry of
 * `previous` (an earlier reading of the same file) found at the same place with the same parse
 * converts to the same tree, which is immutable: it is taken again, so after an edit only the
 * entries from the edit down are converted.
 */
function readBlocks(text: string, file: string, blocks: readonly Block[], previous: readonly TopLevelBlock[]): ReadTree | null {
  const docs: Document.Parsed[] = [];
  for (const block of blocks) {
    const doc = parseBlock(block.text);
    if (!doc) return null;
    docs.push(doc);
  }
  // An entry written twice word for word is one parse: converting it twice would give the second
  // the first one's nodes, and offsets. Rare enough for the whole document to read.
  if (new Set(docs).size !== docs.length) return null;
  const before = new Map(previous.filter((b) => b.selfContained).map((b) => [b.parse, b]));
  const converter = new Converter(text, file);
  const entries = new Map<string, YEntry>();
  const read: TopLevelBlock[] = [];
  for (const [i, doc] of docs.entries()) {
    const start = blocks[i].start;
    const kept = before.get(doc);
    if (kept?.start === start) {
      entries.set(kept.key, kept.entry);
      read.push(kept);
      continue;
    }
    converter.offset = start;
    converter.block = i;
    const pair = (doc.contents as { items: Pair<Node, Node | null>[] }).items[0];
    for (const [key, entry] of converter.entries([pair])) {
      entries.set(key, entry);
      read.push({ key, start, parse: doc, aliased: converter.aliasedBy(i), entry, selfContained: converter.selfContained(i) });
    }
  }
  if (converter.problems.length > 0 || converter.tooDeepAt !== null) return null;
  return { root: { kind: 'map', entries, loc: { file, start: blocks[0].start, end: text.length } }, problems: [], blocks: read };
}

function firstLine(message: string): string {
  return message.split('\n')[0].trim().replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * Converts nodes in document order, each once. Aliases are looked up in the anchors seen so far (the
 * yaml library's own `Alias.resolve` walks the whole document for each alias, which made a file of a
 * few thousand `<<: *defaults` take minutes); the data's depth, aliases expanded, is measured on the
 * way, so an alias to an enclosing node (a cycle) or a pyramid of aliases is caught before anything
 * recursive walks the data.
 */
class Converter {
  private readonly done = new Map<Node, YNode>();
  private readonly anchors = new Map<string, Node>();
  private readonly inProgress = new Set<Node>();
  private readonly depth = new Map<YNode, number>();
  /** Where the data first nests deeper than {@link MAX_YAML_DEPTH}, aliases expanded. */
  tooDeepAt: number | null = null;
  /** Added to node offsets: where the text being converted starts in the file. */
  offset = 0;
  /** The top-level entry being converted, when the file is read entry by entry. */
  block = 0;
  /** The entry each anchor name was last defined in. */
  private readonly anchorBlocks = new Map<string, number>();
  /** The entries that define an anchor. */
  private readonly anchoring = new Set<number>();
  /** The entries with an alias. */
  private readonly aliasing = new Set<number>();
  /** Per entry, the other entries its aliases reach; absent for an entry without aliases out of it. */
  private readonly aliased = new Map<number, Set<number>>();
  readonly problems: TreeProblem[] = [];

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  private loc(node: Node | null | undefined, fallback = 0): Loc {
    const range = node?.range;
    const o = this.offset;
    return range ? { file: this.file, start: o + range[0], end: o + range[1] } : { file: this.file, start: o + fallback, end: o + fallback };
  }

  private nullAt(node: Node | null | undefined): YScalar {
    return { kind: 'scalar', value: null, text: '', loc: this.loc(node) };
  }

  convert(node: Node): YNode {
    if (isAlias(node)) {
      const target = this.anchors.get(node.source);
      if (!target) {
        // Psych raises "Unknown alias" (an anchor must come before its aliases).
        this.problems.push({ loc: this.loc(node), severity: 'error', code: 'pipeline.yamlAlias', message: `Unknown alias *${node.source}: no anchor &${node.source} before it, so GitLab cannot read this file.` });
        return this.nullAt(node);
      }
      if (this.inProgress.has(target)) {
        // An alias inside the node it names: data infinitely deep.
        this.tooDeepAt ??= this.offset + (node.range?.[0] ?? 0);
        return this.nullAt(node);
      }
      this.noteAlias(this.anchorBlocks.get(node.source)!);
      return this.convert(target);
    }
    const known = this.done.get(node);
    if (known) return known;
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) {
      this.anchors.set(anchor, node);
      this.anchorBlocks.set(anchor, this.block);
      this.anchoring.add(this.block);
    }
    this.inProgress.add(node);
    let out: YNode;
    if (isSeq(node)) {
      const loc = this.loc(node);
      if (node.tag === REFERENCE_TAG) {
        const path = node.items.every((item) => isScalar(item) && typeof item.value === 'string') ? node.items.map((item) => String((item as { value: unknown }).value)) : null;
        out = { kind: 'ref', path: path && path.length > 0 ? path : null, loc };
      } else {
        out = { kind: 'seq', items: node.items.map((item) => this.convert(item as Node)), loc };
      }
    } else if (isMap(node)) {
      out = { kind: 'map', entries: this.entries(node.items as Pair<Node, Node | null>[]), loc: this.loc(node) };
    } else if (isScalar(node)) {
      out = scalarNode(node, this.loc(node));
    } else {
      out = this.nullAt(node);
    }
    this.inProgress.delete(node);
    this.done.set(node, out);
    this.measure(out, node);
    return out;
  }

  /** The entries `block`'s aliases reach, in the order first reached. */
  aliasedBy(block: number): readonly number[] {
    const reached = this.aliased.get(block);
    return reached ? [...reached] : NO_BLOCKS;
  }

  /** Whether `block` defines no anchor and its aliases reach nothing (not even itself). */
  selfContained(block: number): boolean {
    return !this.anchoring.has(block) && !this.aliasing.has(block);
  }

  /** The entry being converted reaches `target`'s value, and with it whatever that value's aliases reach. */
  private noteAlias(target: number): void {
    this.aliasing.add(this.block);
    if (target === this.block) return;
    let reached = this.aliased.get(this.block);
    if (!reached) this.aliased.set(this.block, (reached = new Set()));
    reached.add(target);
    for (const further of this.aliased.get(target) ?? []) reached.add(further);
  }

  /** A collection's depth is one more than its deepest child's (children are measured first). */
  private measure(out: YNode, node: Node): void {
    if (out.kind !== 'map' && out.kind !== 'seq') return;
    let below = 0;
    if (out.kind === 'seq') for (const item of out.items) below = Math.max(below, this.depth.get(item) ?? 0);
    else for (const entry of out.entries.values()) below = Math.max(below, this.depth.get(entry.value) ?? 0);
    const depth = below + 1;
    this.depth.set(out, depth);
    if (depth > MAX_YAML_DEPTH) this.tooDeepAt ??= this.offset + (node.range?.[0] ?? 0);
  }

  entries(pairs: readonly Pair<Node, Node | null>[]): Map<string, YEntry> {
    const entries = new Map<string, YEntry>();
    for (const pair of pairs) {
      const keyNode = pair.key;
      const keyLoc = this.loc(keyNode);
      const value: YNode = pair.value ? this.convert(pair.value) : { kind: 'scalar', value: null, text: '', loc: { file: this.file, start: keyLoc.end, end: keyLoc.end } };
      if (isScalar(keyNode) && typeof keyNode.value === 'symbol') {
        // `<<`: Psych merges a mapping (or, for a list, the mappings with earlier ones winning) into this one here.
        const sources = value.kind === 'map' ? [value] : value.kind === 'seq' && value.items.every((i) => i.kind === 'map') ? [...(value.items as YMap[])].reverse() : null;
        if (sources) {
          for (const source of sources) for (const [k, e] of source.entries) setLast(entries, k, e);
          continue;
        }
        setLast(entries, '<<', { key: '<<', keyLoc, value });
        continue;
      }
      const key = keyNode ? keyText(keyNode, this.text, this.offset) : '';
      setLast(entries, key, { key, keyLoc, value });
    }
    return entries;
  }
}

const NO_BLOCKS: readonly number[] = [];

/** Ruby hash assignment: a key given again keeps its first position in order but takes the new value. */
function setLast(entries: Map<string, YEntry>, key: string, entry: YEntry): void {
  entries.set(key, entry);
}

function keyText(node: Node, text: string, offset: number): string {
  if (isScalar(node)) return scalarNode(node, { file: '', start: 0, end: 0 }).text;
  const range = node.range;
  return range ? text.slice(offset + range[0], offset + Math.min(range[1], range[0] + 64)) : '';
}

function scalarNode(node: Node & { value?: unknown; source?: unknown; minFractionDigits?: number }, loc: Loc): YScalar {
  let value = node.value;
  const source = typeof node.source === 'string' ? node.source : undefined;
  // Psych's YAML 1.1 booleans are yes/no/true/false/on/off; `y` and `n` stay strings.
  if (typeof value === 'boolean' && source !== undefined && /^[yYnN]$/.test(source)) value = source;
  if (value === null || value === undefined) return { kind: 'scalar', value: null, text: '', loc };
  if (typeof value === 'number') return { kind: 'scalar', value, text: rubyNumber(value, source, node.minFractionDigits), loc };
  if (typeof value === 'boolean') return { kind: 'scalar', value, text: String(value), loc };
  if (typeof value === 'string') return { kind: 'scalar', value, text: value, loc };
  // A timestamp (a Date here): Psych's Date prints as written.
  const text = source ?? String(value);
  return { kind: 'scalar', value: text, text, loc };
}

/** Ruby's `Float#to_s` keeps `.0` on a whole float (`1.0`), `Integer#to_s` has none. */
function rubyNumber(value: number, source: string | undefined, minFractionDigits: number | undefined): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  const isFloat = (minFractionDigits ?? 0) > 0 || (source !== undefined && /^[-+]?(\d[\d_]*)?\.|[eE]/.test(source) && !/^[-+]?0x/i.test(source));
  if (isFloat && Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value);
}
