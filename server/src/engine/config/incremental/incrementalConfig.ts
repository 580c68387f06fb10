import { Document, isMap, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';
import { isRecord } from '../../data';
import type { EngineDiagnostic } from '../../diagnostics';
import { TextIndex } from '../../text/textIndex';
import { humanPath } from '../schemaDiagnostics';
import { authorizedEntityLimit } from '../gitlabVersions';
import { finalizeDiagnostics, partDiagnostics, wholeFileDiagnostics, type ValidateOptions } from '../validateAgentConfig';
import { nodeAtPath, parseYaml, type ParsedYaml } from '../yamlDocument';
import { rescanLayout, scanLayout, type DocumentLayout, type EntryListPath, type EntrySlice, type ListSlice } from './layout';
import { moveDocument, moveNodes, shiftRanges, type NodeRange } from './shiftNodes';

/** `<section>:` and `<list>:` put before a lone entry so it parses at the same depth as in the file. */
const HEADER_LINES = 2;

/** At most this many new entries are parsed together (bounds the parser's working memory). */
const CHUNK_ENTRIES = 100;

/** A diagnostic whose lines count from the first line of its entry. */
type RelativeDiagnostic = EngineDiagnostic;

/** One list entry, parsed (with its new neighbours) under its list's header, reused for as long as its text does not change. */
interface EntryPart {
  /** The text parsed: the header, then the entry's lines. The cache key. */
  readonly source: string;
  readonly path: EntryListPath;
  /** The entry's tree; its nodes are moved to where the entry stands in the current version. */
  readonly item: Node;
  /** The `range` of every node of `item`: moving the entry shifts these, without walking the tree. */
  readonly ranges: readonly NodeRange[];
  readonly itemValue: unknown;
  /** The entry's `id` lower-cased (GitLab compares ids so), null when it has no string id. */
  readonly lowerId: string | null;
  /** Duplicate keys and parser warnings inside the entry. */
  readonly yamlDiagnostics: readonly RelativeDiagnostic[];
  /** Offset in the document of offset 0 of `source`, as the nodes currently say. */
  delta: number;
  /** Checks per settings (`owner`) and per variant (with or without the rules checks); null: not local. */
  checks: { owner: unknown; byVariant: Map<string, readonly RelativeDiagnostic[] | null> };
  /** The last composition that placed this part (a part stands at one place per version). */
  usedIn: number;
}

/** Where the skeleton lost a list's entries but the last. */
interface Cut {
  /** Skeleton offset of the kept entry's `-`. */
  readonly at: number;
  /** Characters and lines removed. */
  readonly chars: number;
  readonly lines: number;
  /** Skeleton line of the kept entry, and [first, end) of its lines (it is checked as a part). */
  readonly atLine: number;
  readonly keptLines: readonly [number, number];
}

interface PlacedList {
  readonly slice: ListSlice;
  readonly parts: readonly EntryPart[];
}

/** A version built from parts: the file without the entries of each list but the last (the skeleton), and the entries. */
interface ComposedVersion {
  readonly kind: 'composed';
  readonly text: string;
  readonly parsed: ParsedYaml;
  readonly layout: DocumentLayout;
  readonly skeleton: string;
  readonly cuts: readonly Cut[];
  readonly lists: readonly PlacedList[];
  /** The lists (`ci_access.projects`...) in which no id is given twice: the whole-file check of duplicate ids skips them. */
  readonly uniqueIdLists: ReadonlySet<string>;
}

interface WholeVersion {
  readonly kind: 'whole';
  readonly text: string;
  readonly parsed: ParsedYaml;
}

/**
 * One open agent configuration, kept incrementally. Each version is split by a line scan into the
 * entries of the `ci_access`/`user_access` lists and the rest (the skeleton); an entry whose text
 * did not change keeps its parse and its diagnostics, so an edit re-parses and re-checks only the
 * entries it touched, the skeleton when it changed, and the whole-file checks (size, limits,
 * duplicate ids) over the composed model. The composed model (one YAML tree with document offsets,
 * and its data) is what hover, completion and the other features read.
 *
 * The result is the same as validating the whole text (a differential test checks it). Whenever
 * the split cannot vouch for that — YAML syntax errors, shapes the scan does not know, a check that
 * reports outside its entry — this version is parsed and validated whole instead.
 */
export class IncrementalAgentConfig {
  /** The parts of the last composed version, by text (a moved or duplicated entry is found here). */
  private readonly pool = new Map<string, EntryPart[]>();
  private skeletonChecks: { text: string; owner: unknown; diagnostics: readonly EngineDiagnostic[] } | null = null;
  private current: ComposedVersion | WholeVersion | null = null;
  /** The last version composed from parts: its entries' positions let the next one reuse them. */
  private lastComposed: ComposedVersion | null = null;
  private wholeChecks: { text: string; owner: unknown; diagnostics: EngineDiagnostic[] } | null = null;
  /** Counts compositions; a part whose `usedIn` is the current one is taken. */
  private compositions = 0;
  /** Per list of the last composed version: how many entries have each lower-cased id, and how many ids are given more than once. */
  private readonly ids = new Map<string, { counts: Map<string, number>; repeated: number }>();

  /** The model of `text`, composed from cached entries when it can be, else parsed whole. */
  update(text: string): ParsedYaml {
    if (this.current?.text !== text) this.current = this.compose(text) ?? { kind: 'whole', text, parsed: parseYaml(text) };
    return this.current.parsed;
  }

  /** True when the last `update` was composed from parts (for tests and logs). */
  get incremental(): boolean {
    return this.current?.kind === 'composed';
  }

  /**
   * The diagnostics of the last `update`'s text, exactly as `validateParsedAgentConfig` gives them.
   * `owner` identifies the options (e.g. the settings object): cached checks made with another
   * owner are redone.
   */
  diagnostics(options: ValidateOptions, owner: unknown): EngineDiagnostic[] {
    return finalizeDiagnostics(this.ownDiagnostics(options, owner));
  }

  /** The same set, not yet sorted or capped: for callers that add problems of their own before finalizing. */
  ownDiagnostics(options: ValidateOptions, owner: unknown): EngineDiagnostic[] {
    const version = this.current;
    if (!version) throw new Error('IncrementalAgentConfig.diagnostics called before update');
    if (version.kind === 'composed') {
      const fromParts = this.composedDiagnostics(version, options, owner);
      if (fromParts) return [...fromParts, ...wholeFileDiagnostics(version.parsed, options, { uniqueIdLists: version.uniqueIdLists })];
      this.current = { kind: 'whole', text: version.text, parsed: parseYaml(version.text) };
    }
    const whole = this.current as WholeVersion;
    if (this.wholeChecks?.text !== whole.text || this.wholeChecks.owner !== owner) {
      this.wholeChecks = { text: whole.text, owner, diagnostics: [...partDiagnostics(whole.parsed, options), ...wholeFileDiagnostics(whole.parsed, options)] };
    }
    return [...this.wholeChecks.diagnostics];
  }

  private compose(text: string): ComposedVersion | null {
    // What changed since the last composed version: the layout and the line index are derived from
    // its own in the time of the change when they can be.
    const previous = this.lastComposed;
    const shared = previous ? sharedEnds(previous.text, text) : { prefix: 0, suffix: 0 };
    const layout = (previous && rescanLayout(previous, text, shared)) || scanLayout(text);
    if (!layout || !layout.lists.length) return null;
    const index = previous ? TextIndex.edited(previous.parsed.index, text, shared) : new TextIndex(text);

    // The skeleton keeps each list's last entry, so it stays a list of the same shape that ends the
    // same way (a collection's end offsets depend on what follows its last item). Cuts run from the
    // first item's `-` to the last item's `-`: the list node starts at the cut, the kept item after it.
    let skeleton = '';
    let copied = 0;
    const cuts: Cut[] = [];
    let removedLines = 0;
    for (const list of layout.lists) {
      const first = list.entries[0];
      const last = list.entries[list.entries.length - 1];
      skeleton += text.slice(copied, first.start + list.itemIndent);
      const lines = last.line - first.line;
      const atLine = first.line - removedLines;
      cuts.push({ at: skeleton.length, chars: last.start - first.start, atLine, keptLines: [atLine, atLine + index.positionAt(last.end).line - last.line], lines });
      removedLines += lines;
      copied = last.start + list.itemIndent;
    }
    skeleton += text.slice(copied);
    const skeletonParsed = parseYaml(skeleton);
    if (skeletonParsed.hasSyntaxErrors || !skeletonParsed.doc) return null;

    // Entries wholly inside the text this version shares with the last composed one (at its start
    // or at its end) keep their part by position; the others are looked up by text, then parsed.
    const growth = text.length - (previous?.text.length ?? 0);
    const epoch = ++this.compositions;
    const created: EntryPart[] = [];
    const lists: PlacedList[] = [];
    for (const slice of layout.lists) {
      const header = `${slice.path[0]}:\n${' '.repeat(slice.keyIndent)}${slice.path[1]}:\n`;
      const sourceOf = (i: number) => header + text.slice(slice.entries[i].start, slice.entries[i].end);
      // The same list (same header) in the last composed version.
      const before = previous?.lists.find((l) => l.slice.path.join() === slice.path.join() && l.slice.keyIndent === slice.keyIndent);
      let j = 0;
      const parts: (EntryPart | null)[] = slice.entries.map((entry, i) => {
        // Both lists are in text order, and so are the offsets looked for: one pass over the old list.
        const at = entry.end <= shared.prefix ? entry.start : entry.start >= text.length - shared.suffix ? entry.start - growth : -1;
        if (before && at !== -1) {
          const old = before.slice.entries;
          while (j < old.length && old[j].start < at) j++;
          const moved = entry.end <= shared.prefix ? 0 : growth;
          if (j < old.length && old[j].start === at && old[j].end + moved === entry.end && before.parts[j].usedIn !== epoch) {
            before.parts[j].usedIn = epoch;
            return before.parts[j];
          }
        }
        return this.reuse(sourceOf(i), epoch);
      });
      // Entries not seen before are parsed in runs of neighbours, one parse per run: far cheaper
      // than one parse per entry when a file is opened, and lighter than one parse of the whole.
      for (let i = 0; i < parts.length; ) {
        if (parts[i]) {
          i++;
          continue;
        }
        let end = i + 1;
        while (end < parts.length && !parts[end] && end - i < CHUNK_ENTRIES) end++;
        const parsed = parseRun(text, header, slice, i, end, sourceOf, index, epoch);
        if (!parsed) return null;
        parsed.forEach((part, k) => (parts[i + k] = part));
        created.push(...parsed);
        i = end;
      }
      parts.forEach((part, i) => place(part!, slice.entries[i].start - header.length));
      lists.push({ slice, parts: parts as EntryPart[] });
    }

    moveDocument(skeletonParsed.doc, (offset) => cuts.reduce((o, cut) => (offset > cut.at ? o + cut.chars : o), offset));
    const value = skeletonParsed.value;
    const diagnostics = skeletonToDocument(skeletonParsed.diagnostics, cuts);
    for (const { slice, parts } of lists) {
      const seq = nodeAtPath(skeletonParsed.doc, slice.path)?.node;
      const section = isRecord(value) ? value[slice.path[0]] : undefined;
      const data = isRecord(section) ? section[slice.path[1]] : undefined;
      if (!isSeq(seq) || seq.items.length !== 1 || !isRecord(section) || !Array.isArray(data) || data.length !== 1) return null;
      seq.items = parts.map((p) => p.item);
      section[slice.path[1]] = parts.map((p) => p.itemValue);
      parts.forEach((part, i) => diagnostics.push(...part.yamlDiagnostics.map((d) => moveLines(d, (l) => l + slice.entries[i].line))));
    }
    this.updatePool(previous, epoch, created);
    const uniqueIdLists = new Set(lists.map((l) => l.slice.path.join('.')).filter((key) => !this.ids.get(key)?.repeated));
    const parsed: ParsedYaml = { text, index, doc: skeletonParsed.doc, value, diagnostics, hasSyntaxErrors: false };
    this.lastComposed = { kind: 'composed', text, parsed, layout, skeleton, cuts, lists, uniqueIdLists };
    return this.lastComposed;
  }

  /** The pool holds exactly the parts of the last composed version, by text; the id counts follow. */
  private updatePool(previous: ComposedVersion | null, epoch: number, created: readonly EntryPart[]): void {
    for (const { parts } of previous?.lists ?? []) {
      for (const part of parts) {
        if (part.usedIn === epoch) continue;
        this.countId(part, -1);
        const same = this.pool.get(part.source)?.filter((p) => p !== part) ?? [];
        if (same.length) this.pool.set(part.source, same);
        else this.pool.delete(part.source);
      }
    }
    for (const part of created) {
      this.pool.set(part.source, [...(this.pool.get(part.source) ?? []), part]);
      this.countId(part, 1);
    }
  }

  /** A part enters (+1) or leaves (-1) its list: the counts of ids, and of ids given more than once. */
  private countId(part: EntryPart, by: 1 | -1): void {
    if (part.lowerId === null) return;
    const key = part.path.join('.');
    let list = this.ids.get(key);
    if (!list) this.ids.set(key, (list = { counts: new Map(), repeated: 0 }));
    const before = list.counts.get(part.lowerId) ?? 0;
    const after = before + by;
    if (after) list.counts.set(part.lowerId, after);
    else list.counts.delete(part.lowerId);
    if (before < 2 && after >= 2) list.repeated++;
    if (before >= 2 && after < 2) list.repeated--;
  }

  /** A part for `source` from the previous versions, not used yet in this one. */
  private reuse(source: string, epoch: number): EntryPart | null {
    const part = this.pool.get(source)?.find((p) => p.usedIn !== epoch) ?? null;
    if (part) part.usedIn = epoch;
    return part;
  }

  private composedDiagnostics(version: ComposedVersion, options: ValidateOptions, owner: unknown): EngineDiagnostic[] | null {
    if (this.skeletonChecks?.text !== version.skeleton || this.skeletonChecks.owner !== owner) {
      // Parsed again: the version's skeleton tree now carries document offsets.
      this.skeletonChecks = { text: version.skeleton, owner, diagnostics: partDiagnostics(parseYaml(version.skeleton), { ...options, ciAccess: undefined }) };
    }
    const out = skeletonToDocument(this.skeletonChecks.diagnostics, version.cuts);
    // The entries the chosen release reads (100 of each list before 17.0, 500 from it) get the entry checks that read the model.
    const limit = authorizedEntityLimit(options.gitlabVersion);
    for (const { slice, parts } of version.lists) {
      for (let i = 0; i < parts.length; i++) {
        const entry = slice.entries[i];
        const relative = this.entryChecks(version, parts[i], entry, i < limit, options, owner);
        if (!relative) return null;
        for (const d of relative) out.push(renumber(moveLines(d, (l) => l + entry.line), slice.path, i));
      }
    }
    return out;
  }

  private entryChecks(version: ComposedVersion, part: EntryPart, entry: EntrySlice, honoured: boolean, options: ValidateOptions, owner: unknown): readonly RelativeDiagnostic[] | null {
    if (part.checks.owner !== owner) part.checks = { owner, byVariant: new Map() };
    const variant = honoured ? 'honoured' : 'beyondLimit';
    const cached = part.checks.byVariant.get(variant);
    if (cached !== undefined) return cached;
    const index = version.parsed.index;
    // The entry's tree carries document offsets, so the checks see the document's text and lines.
    const view: ParsedYaml = { text: version.text, index, doc: loneEntryDocument(part), value: { [part.path[0]]: { [part.path[1]]: [part.itemValue] } }, diagnostics: [], hasSyntaxErrors: false };
    // GitLab reads only the first 100 or 500 entries of a list (docs/gitlab-behaviour.md#top-level-keys-and-list-limits): the rules, lint and top-level checks stop there too.
    const found = partDiagnostics(view, { ...(options.target ? { target: options.target } : {}), ...(options.gitlabVersion ? { gitlabVersion: options.gitlabVersion } : {}), securityLints: honoured ? (options.securityLints ?? { disabled: [] }) : false, ...(honoured && options.rules ? { rules: options.rules } : {}) });
    const lastLine = index.positionAt(entry.end).line;
    let relative: RelativeDiagnostic[] | null = [...part.yamlDiagnostics];
    for (const d of found) {
      if (d.range.start.line < entry.line || d.range.end.line > lastLine) {
        relative = null; // reported outside the entry: this check is not local, validate whole
        break;
      }
      relative.push(moveLines(d, (l) => l - entry.line));
    }
    part.checks.byVariant.set(variant, relative);
    return relative;
  }
}

/**
 * Parses entries [from, to) of a list together, under the list's header (so they sit at the same
 * depth as in the file), and makes one part of each item; null when the run does not parse cleanly
 * as exactly those items.
 */
function parseRun(text: string, header: string, slice: ListSlice, from: number, to: number, sourceOf: (i: number) => string, index: TextIndex, epoch: number): EntryPart[] | null {
  const first = slice.entries[from];
  const parsed = parseYaml(header + text.slice(first.start, slice.entries[to - 1].end));
  if (parsed.hasSyntaxErrors || !parsed.doc) return null;
  const section = parsed.doc.contents;
  const list = isMap(section) && section.items.length === 1 ? section.items[0].value : null;
  const seq = isMap(list) && list.items.length === 1 ? list.items[0].value : null;
  const values = valueAt(parsed.value, slice.path);
  if (!isSeq(seq) || seq.items.length !== to - from || !Array.isArray(values) || values.length !== to - from) return null;
  if (parsed.diagnostics.some((d) => d.range.start.line < HEADER_LINES)) return null;
  // Run offsets → document offsets; run lines → document lines.
  const delta = first.start - header.length;
  const lineDelta = first.line - HEADER_LINES;
  return seq.items.map((item, k) => {
    const entry = slice.entries[from + k];
    const lastLine = index.positionAt(entry.end).line;
    const ranges = moveNodes(item, (offset) => offset + delta);
    const yamlDiagnostics = parsed.diagnostics
      .map((d) => moveLines(d, (l) => l + lineDelta))
      .filter((d) => d.range.start.line >= entry.line && d.range.start.line < lastLine)
      .map((d) => moveLines(d, (l) => l - entry.line));
    const value: unknown = values[k];
    const lowerId = isRecord(value) && typeof value.id === 'string' ? value.id.toLowerCase() : null;
    return { source: sourceOf(from + k), path: slice.path, item: item as Node, ranges, itemValue: value, lowerId, yamlDiagnostics, delta: entry.start - header.length, checks: { owner: undefined, byVariant: new Map() }, usedIn: epoch };
  });
}

/** Shared by every lone-entry document: its schema and options (YAML 1.1, as GitLab reads). */
const LONE_ENTRY_TEMPLATE = new Document(null, { version: '1.1' });

/**
 * The entry under a built `{section: {list: [item]}}` tree, as if it had been parsed alone: what
 * the checks read. Built when the entry is checked (rarely), so no document is kept per entry.
 */
function loneEntryDocument(part: EntryPart): Document.Parsed {
  const seq = new YAMLSeq();
  seq.items.push(part.item);
  const list = new YAMLMap();
  list.items.push(new Pair(new Scalar(part.path[1]), seq));
  const section = new YAMLMap();
  section.items.push(new Pair(new Scalar(part.path[0]), list));
  // A shallow copy shares the template's schema: read-only here, and far cheaper than clone().
  return Object.assign(Object.create(Document.prototype) as Document.Parsed, LONE_ENTRY_TEMPLATE, { contents: section });
}

/** How many characters two texts share at the start and (not overlapping it) at the end. */
function sharedEnds(before: string, after: string): { prefix: number; suffix: number } {
  const limit = Math.min(before.length, after.length);
  // Whole blocks first (string comparison is a memory compare), then character by character.
  const BLOCK = 4096;
  let prefix = 0;
  while (prefix + BLOCK <= limit && before.slice(prefix, prefix + BLOCK) === after.slice(prefix, prefix + BLOCK)) prefix += BLOCK;
  while (prefix < limit && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  const tail = (text: string, from: number) => text.slice(text.length - from - BLOCK, text.length - from);
  while (suffix + BLOCK <= limit - prefix && tail(before, suffix) === tail(after, suffix)) suffix += BLOCK;
  while (suffix < limit - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  return { prefix, suffix };
}

function valueAt(value: unknown, path: EntryListPath): unknown {
  const section = isRecord(value) ? value[path[0]] : undefined;
  return isRecord(section) ? section[path[1]] : undefined;
}

/** Moves a part's nodes so that offset 0 of its source is at `delta` in the document. */
function place(part: EntryPart, delta: number): void {
  if (part.delta === delta) return;
  shiftRanges(part.ranges, delta - part.delta);
  part.delta = delta;
}

/** Skeleton diagnostics at their document lines, without those of the kept entries (checked as parts). */
function skeletonToDocument(diagnostics: readonly EngineDiagnostic[], cuts: readonly Cut[]): EngineDiagnostic[] {
  const kept = diagnostics.filter((d) => !cuts.some((cut) => d.range.start.line >= cut.keptLines[0] && d.range.start.line < cut.keptLines[1]));
  return kept.map((d) => moveLines(d, (line) => cuts.reduce((l, cut) => (line >= cut.atLine ? l + cut.lines : l), line)));
}

function moveLines(d: EngineDiagnostic, map: (line: number) => number): EngineDiagnostic {
  return { ...d, range: { start: { line: map(d.range.start.line), character: d.range.start.character }, end: { line: map(d.range.end.line), character: d.range.end.character } } };
}

/** An entry checked alone is entry 0 of its list; messages that name its path get its real index. */
function renumber(d: EngineDiagnostic, path: EntryListPath, index: number): EngineDiagnostic {
  const from = `${humanPath(path)}[0]`;
  const to = `${humanPath(path)}[${index}]`;
  const data = d.data ? JSON.stringify(d.data) : '';
  if (!d.message.includes(from) && !data.includes(from)) return d;
  return { ...d, message: d.message.split(from).join(to), ...(d.data ? { data: JSON.parse(data.split(from).join(to)) as Record<string, unknown> } : {}) };
}
