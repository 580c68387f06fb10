import { Document, isMap, isSeq, type Node } from 'yaml';
import { isRecord } from '../../data';
import type { EngineDiagnostic } from '../../diagnostics';
import { sharedEnds, wholeText, type TextSource } from '../../text/splicedText';
import { TextIndex } from '../../text/textIndex';
import { humanPath } from '../schemaDiagnostics';
import { authorizedEntityLimit } from '../../gitlab/gitlabVersions';
import { finalizeDiagnostics, partDiagnostics, wholeFileDiagnostics, type ValidateOptions } from '../validateAgentConfig';
import { collectionNode, pairNode, scalarNode } from '../../yaml/typedNodes';
import { nodeAtPath, parseYaml, type ParsedYaml } from '../../yaml/yamlDocument';
import { rescanLayout, scanLayout, type DocumentLayout, type EntryListPath, type EntrySlice, type LayoutEdit, type ListSlice } from './layout';
import { moveDocument, moveTree, placedLazily, settleParsedTree } from './shiftNodes';

/** `<section>:` and `<list>:` put before a lone entry so it parses at the same depth as in the file. */
const HEADER_LINES = 2;

/** At most this many new entries are parsed together (bounds the parser's working memory). */
const CHUNK_ENTRIES = 100;

/** A diagnostic whose lines count from the first line of its entry. */
type RelativeDiagnostic = EngineDiagnostic;

/** Shared by the many entries without a problem (one empty array each would add up in a big file). */
const NO_DIAGNOSTICS: readonly RelativeDiagnostic[] = Object.freeze([]);

/** One list entry, parsed (with its new neighbours) under its list's header, reused for as long as its text does not change. */
interface EntryPart {
  readonly path: EntryListPath;
  /** The entry's tree, placed lazily (shiftNodes.ts placedLazily): it stands where the entry stands in the current version. */
  readonly item: Node;
  readonly itemValue: unknown;
  /** The entry's `id` lower-cased (GitLab compares ids so), null when it has no string id. */
  readonly lowerId: string | null;
  /** Duplicate keys and parser warnings inside the entry. */
  readonly yamlDiagnostics: readonly RelativeDiagnostic[];
  /** Offset in the document of offset 0 of the parsed text (the header, then the entry), as the nodes currently say. */
  delta: number;
  /** The settings (`owner`) the checks below were made with. */
  checksOwner: unknown;
  /** The checks of the entry among the first 100 or 500 (with the rules checks) and past them; null: not local, undefined: not made. */
  honouredChecks: readonly RelativeDiagnostic[] | null | undefined;
  beyondLimitChecks: readonly RelativeDiagnostic[] | null | undefined;
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
  /** The parts' trees and values, in the same order (copied from the last version's arrays, not gathered from the parts). */
  readonly items: readonly Node[];
  readonly values: readonly unknown[];
}

/** A version built from parts: the file without the entries of each list but the last (the skeleton), and the entries. */
interface ComposedVersion {
  readonly kind: 'composed';
  /** Joined only if a reader asks for the whole text (`parsed.text`): the composition reads around the edit. */
  readonly text: TextSource;
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
  private skeletonChecks: { text: string; owner: unknown; diagnostics: readonly EngineDiagnostic[] } | null = null;
  private current: ComposedVersion | WholeVersion | null = null;
  /** The last version composed from parts: its entries' positions let the next one reuse them. */
  private lastComposed: ComposedVersion | null = null;
  private wholeChecks: { text: string; owner: unknown; diagnostics: EngineDiagnostic[] } | null = null;
  /** Counts compositions; a part whose `usedIn` is the current one is taken. */
  private compositions = 0;
  /** Per list of the last composed version: how many entries have each lower-cased id, and how many ids are given more than once. */
  private readonly ids = new Map<string, { counts: Map<string, number>; repeated: number }>();

  /**
   * The model of `text`, composed from cached entries when it can be, else parsed whole. A
   * {@link SplicedText} (the editor's text after an edit) is read around the edit, not joined.
   */
  update(text: TextSource): ParsedYaml {
    if (this.current?.text !== text) this.current = this.compose(text) ?? wholeVersion(wholeText(text));
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
      this.current = wholeVersion(wholeText(version.text));
    }
    const whole = this.current as WholeVersion;
    if (this.wholeChecks?.text !== whole.text || this.wholeChecks.owner !== owner) {
      this.wholeChecks = { text: whole.text, owner, diagnostics: [...partDiagnostics(whole.parsed, options), ...wholeFileDiagnostics(whole.parsed, options)] };
    }
    return [...this.wholeChecks.diagnostics];
  }

  private compose(text: TextSource): ComposedVersion | null {
    // What changed since the last composed version: the layout and the line index are derived from
    // its own in the time of the change when they can be.
    const previous = this.lastComposed;
    const shared = previous ? sharedEnds(previous.text, text) : { prefix: 0, suffix: 0 };
    const rescanned = previous ? rescanLayout(previous, text, shared) : null;
    const layout = rescanned?.layout ?? scanLayout(wholeText(text));
    if (!layout || !layout.lists.length) return null;
    const index = previous ? TextIndex.edited(previous.parsed.index, text, shared) : new TextIndex(wholeText(text));

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
    skeleton += text.slice(copied, text.length);
    const skeletonParsed = parseYaml(skeleton);
    if (skeletonParsed.hasSyntaxErrors || !skeletonParsed.doc) return null;

    const epoch = ++this.compositions;
    const created: EntryPart[] = [];
    const retired: EntryPart[] = [];
    const lists: PlacedList[] = [];
    for (let li = 0; li < layout.lists.length; li++) {
      const slice = layout.lists[li];
      const header = `${slice.path[0]}:\n${' '.repeat(slice.keyIndent)}${slice.path[1]}:\n`;
      const kept = rescanned && previous ? keptAroundEdit(previous.lists[li], li, rescanned.edit) : keptInSharedText(slice, previous, shared, text.length, epoch);
      const { parts, unplaced } = kept;
      // The entries that lost their place are looked up by text among the last version's parts that
      // lost theirs (an entry moved by one edit, a text pasted back), the others parsed.
      let byText: Map<string, EntryPart[]> | null = null;
      const fresh: number[] = [];
      for (let i = kept.from; i < kept.to; i++) {
        if (parts[i]) continue;
        if (unplaced.length && previous) {
          byText ??= partsByText(unplaced, previous.text);
          const found = byText.get(text.slice(slice.entries[i].start, slice.entries[i].end))?.shift();
          if (found) {
            found.usedIn = epoch;
            parts[i] = found;
            continue;
          }
        }
        fresh.push(i);
      }
      // Entries not seen before are parsed in runs of neighbours, one parse per run: far cheaper
      // than one parse per entry when a file is opened, and lighter than one parse of the whole.
      for (let k = 0; k < fresh.length; ) {
        let end = k + 1;
        while (end < fresh.length && fresh[end] === fresh[end - 1] + 1 && end - k < CHUNK_ENTRIES) end++;
        const parsed = parseRun(text, header, slice, fresh[k], fresh[end - 1] + 1, index, epoch);
        if (!parsed) return null;
        parsed.forEach((part, n) => (parts[fresh[k] + n] = part));
        created.push(...parsed);
        k = end;
      }
      if (rescanned) for (const { part } of unplaced) if (part.usedIn !== epoch) retired.push(part);
      // Parts before `movedFrom` stand where they stood; the others move with the text before them.
      for (let i = kept.movedFrom; i < parts.length; i++) place(parts[i]!, slice.entries[i].start - header.length);
      const done = parts as EntryPart[];
      const [items, values] = kept.arrays ? kept.arrays(done.slice(kept.from, kept.to)) : [done.map((p) => p.item), done.map((p) => p.itemValue)];
      lists.push({ slice, parts: done, items, values });
    }
    // Lists of the last version that this one no longer has.
    if (!rescanned) for (const list of previous?.lists ?? []) for (const part of list.parts) if (part.usedIn !== epoch) retired.push(part);

    moveDocument(skeletonParsed.doc, (offset) => cuts.reduce((o, cut) => (offset > cut.at ? o + cut.chars : o), offset));
    const value = skeletonParsed.value;
    const diagnostics = skeletonToDocument(skeletonParsed.diagnostics, cuts);
    for (const { slice, parts, items, values } of lists) {
      const seq = nodeAtPath(skeletonParsed.doc, slice.path)?.node;
      const section = isRecord(value) ? value[slice.path[0]] : undefined;
      const data = isRecord(section) ? section[slice.path[1]] : undefined;
      if (!isSeq(seq) || seq.items.length !== 1 || !isRecord(section) || !Array.isArray(data) || data.length !== 1) return null;
      // Copies: readers of this version must not see the next one's arrays.
      seq.items = items.slice();
      section[slice.path[1]] = values.slice();
      for (let i = 0; i < parts.length; i++) {
        if (parts[i].yamlDiagnostics.length) diagnostics.push(...shiftedLines(parts[i].yamlDiagnostics, slice.entries[i].line));
      }
    }
    for (const part of retired) this.countId(part, -1);
    for (const part of created) this.countId(part, 1);
    const uniqueIdLists = new Set(lists.map((l) => l.slice.path.join('.')).filter((key) => !this.ids.get(key)?.repeated));
    const parsed: ParsedYaml = { get text() { return index.text; }, index, doc: skeletonParsed.doc, value, diagnostics, hasSyntaxErrors: false };
    this.lastComposed = { kind: 'composed', text, parsed, layout, skeleton, cuts, lists, uniqueIdLists };
    return this.lastComposed;
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

  private composedDiagnostics(version: ComposedVersion, options: ValidateOptions, owner: unknown): EngineDiagnostic[] | null {
    if (this.skeletonChecks?.text !== version.skeleton || this.skeletonChecks.owner !== owner) {
      // Parsed again: the version's skeleton tree now carries document offsets.
      this.skeletonChecks = { text: version.skeleton, owner, diagnostics: partDiagnostics(parseYaml(version.skeleton), { ...options, ciAccess: undefined }) };
    }
    const out = skeletonToDocument(this.skeletonChecks.diagnostics, version.cuts);
    // The entries the chosen release reads (100 of each list before 17.0, 500 from it) get the entry checks that read the model.
    const limit = authorizedEntityLimit(options.gitlabVersion);
    for (const { slice, parts } of version.lists) {
      // A plain loop that allocates nothing for an entry without problems: it runs over every entry at each keystroke.
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        const honoured = i < limit;
        const cached = part.checksOwner !== owner ? undefined : honoured ? part.honouredChecks : part.beyondLimitChecks;
        const relative = cached !== undefined ? cached : this.entryChecks(version, part, slice.entries[i], honoured, options, owner);
        if (!relative) return null;
        if (relative.length) out.push(...toDocumentLines(relative, slice.entries[i].line, slice.path, i));
      }
    }
    return out;
  }

  private entryChecks(version: ComposedVersion, part: EntryPart, entry: EntrySlice, honoured: boolean, options: ValidateOptions, owner: unknown): readonly RelativeDiagnostic[] | null {
    if (part.checksOwner !== owner) {
      part.checksOwner = owner;
      part.honouredChecks = part.beyondLimitChecks = undefined;
    }
    const cached = honoured ? part.honouredChecks : part.beyondLimitChecks;
    if (cached !== undefined) return cached;
    const index = version.parsed.index;
    // The entry's tree carries document offsets, so the checks see the document's text and lines.
    const view: ParsedYaml = { get text() { return index.text; }, index, doc: loneEntryDocument(part), value: { [part.path[0]]: { [part.path[1]]: [part.itemValue] } }, diagnostics: [], hasSyntaxErrors: false };
    // GitLab reads only the first 100 or 500 entries of a list (docs/gitlab-behaviour.md#top-level-keys-and-list-limits): the rules, lint and top-level checks stop there too.
    const found = partDiagnostics(view, entryCheckOptions(options, honoured));
    const lastLine = index.positionAt(entry.end).line;
    // Reported outside the entry: this check is not local, validate whole (null).
    const outside = found.some((d) => d.range.start.line < entry.line || d.range.end.line > lastLine);
    const relative = outside ? null : found.length ? [...part.yamlDiagnostics, ...found.map((d) => moveLines(d, (l) => l - entry.line))] : part.yamlDiagnostics;
    if (honoured) part.honouredChecks = relative;
    else part.beyondLimitChecks = relative;
    return relative;
  }
}

/** The options of the entry checks, made once per set of options (not once per entry checked). */
const entryOptions = new WeakMap<ValidateOptions, { readonly honoured: ValidateOptions; readonly beyondLimit: ValidateOptions }>();

function entryCheckOptions(options: ValidateOptions, honoured: boolean): ValidateOptions {
  let made = entryOptions.get(options);
  if (!made) {
    const common = { ...(options.target ? { target: options.target } : {}), ...(options.gitlabVersion ? { gitlabVersion: options.gitlabVersion } : {}) };
    made = { honoured: { ...common, securityLints: options.securityLints ?? { disabled: [] }, ...(options.rules ? { rules: options.rules } : {}) }, beyondLimit: { ...common, securityLints: false } };
    entryOptions.set(options, made);
  }
  return honoured ? made.honoured : made.beyondLimit;
}

/**
 * Parses entries [from, to) of a list together, under the list's header (so they sit at the same
 * depth as in the file), and makes one part of each item; null when the run does not parse cleanly
 * as exactly those items.
 */
function parseRun(text: TextSource, header: string, slice: ListSlice, from: number, to: number, index: TextIndex, epoch: number): EntryPart[] | null {
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
    settleParsedTree(item, delta); // kept for as long as the entry does not change
    const yamlDiagnostics = parsed.diagnostics
      .map((d) => moveLines(d, (l) => l + lineDelta))
      .filter((d) => d.range.start.line >= entry.line && d.range.start.line < lastLine)
      .map((d) => moveLines(d, (l) => l - entry.line));
    const value: unknown = values[k];
    const lowerId = isRecord(value) && typeof value.id === 'string' ? value.id.toLowerCase() : null;
    return { path: slice.path, item: placedLazily(item as Node), itemValue: value, lowerId, yamlDiagnostics: yamlDiagnostics.length ? yamlDiagnostics : NO_DIAGNOSTICS, delta: entry.start - header.length, checksOwner: undefined, honouredChecks: undefined, beyondLimitChecks: undefined, usedIn: epoch };
  });
}

function wholeVersion(text: string): WholeVersion {
  return { kind: 'whole', text, parsed: parseYaml(text) };
}

/** Shared by every lone-entry document: its schema and options (YAML 1.1, as GitLab reads). */
const LONE_ENTRY_TEMPLATE = new Document(null, { version: '1.1' });

/**
 * The entry under a built `{section: {list: [item]}}` tree, as if it had been parsed alone: what
 * the checks read. Built when the entry is checked (rarely), so no document is kept per entry.
 */
function loneEntryDocument(part: EntryPart): Document.Parsed {
  const seq = collectionNode(true);
  seq.items.push(part.item);
  const list = collectionNode(false);
  list.items.push(pairNode(scalarNode(part.path[1]), seq));
  const section = collectionNode(false);
  section.items.push(pairNode(scalarNode(part.path[0]), list));
  // A shallow copy shares the template's schema: read-only here, and far cheaper than clone().
  return Object.assign(Object.create(Document.prototype) as Document.Parsed, LONE_ENTRY_TEMPLATE, { contents: section });
}

function valueAt(value: unknown, path: EntryListPath): unknown {
  const section = isRecord(value) ? value[path[0]] : undefined;
  return isRecord(section) ? section[path[1]] : undefined;
}

/** Moves a part's nodes so that offset 0 of its parsed text is at `delta` in the document. */
function place(part: EntryPart, delta: number): void {
  if (part.delta === delta) return;
  moveTree(part.item, delta - part.delta);
  part.delta = delta;
}

/** The parts an edit kept by position in one list, and what it left to find or parse. */
interface KeptParts {
  /** One slot per entry of the new list: the part kept, or null in [from, to). */
  readonly parts: (EntryPart | null)[];
  readonly from: number;
  readonly to: number;
  /** Parts of the last version that lost their place, with their slices there: found again by text, or retired. */
  readonly unplaced: readonly { readonly part: EntryPart; readonly slice: EntrySlice }[];
  /** Parts from this index on may stand elsewhere than in the last version. */
  readonly movedFrom: number;
  /** The list's trees and values, given the parts of [from, to); null: gathered from every part. */
  readonly arrays: ((middle: readonly EntryPart[]) => [readonly Node[], readonly unknown[]]) | null;
}

/**
 * After an edit inside one list's entries (rescanLayout): every other list keeps all its parts,
 * moved when after the edit, and the edited list all but those of the entries it rescanned.
 */
function keptAroundEdit(before: PlacedList, list: number, edit: LayoutEdit): KeptParts {
  const whole = () => [before.items, before.values] as [readonly Node[], readonly unknown[]];
  if (list !== edit.list) return { parts: before.parts.slice(), from: 0, to: 0, unplaced: [], movedFrom: list < edit.list ? before.parts.length : 0, arrays: whole };
  const { from, to, added } = edit;
  const parts = (before.parts.slice(0, from) as (EntryPart | null)[]).concat(new Array<null>(added).fill(null), before.parts.slice(to));
  const unplaced = before.parts.slice(from, to).map((part, k) => ({ part, slice: before.slice.entries[from + k] }));
  return {
    parts,
    from,
    to: from + added,
    unplaced,
    movedFrom: from,
    arrays: (middle) => [before.items.slice(0, from).concat(middle.map((p) => p.item), before.items.slice(to)), before.values.slice(0, from).concat(middle.map((p) => p.itemValue), before.values.slice(to))],
  };
}

/**
 * After any other change: the parts of the entries wholly inside the text this version shares
 * with the last composed one (at its start or at its end), matched in one ordered pass.
 */
function keptInSharedText(slice: ListSlice, previous: ComposedVersion | null, shared: { prefix: number; suffix: number }, textLength: number, epoch: number): KeptParts {
  const before = previous?.lists.find((l) => l.slice.path.join() === slice.path.join() && l.slice.keyIndent === slice.keyIndent);
  const growth = textLength - (previous?.text.length ?? 0);
  let j = 0;
  const parts = slice.entries.map((entry): EntryPart | null => {
    // Both lists are in text order, and so are the offsets looked for: one pass over the old list.
    const at = entry.end <= shared.prefix ? entry.start : entry.start >= textLength - shared.suffix ? entry.start - growth : -1;
    if (!before || at === -1) return null;
    const old = before.slice.entries;
    while (j < old.length && old[j].start < at) j++;
    const moved = entry.end <= shared.prefix ? 0 : growth;
    if (j < old.length && old[j].start === at && old[j].end + moved === entry.end && before.parts[j].usedIn !== epoch) {
      before.parts[j].usedIn = epoch;
      return before.parts[j];
    }
    return null;
  });
  const unplaced = before ? before.parts.flatMap((part, k) => (part.usedIn === epoch ? [] : [{ part, slice: before.slice.entries[k] }])) : [];
  return { parts, from: 0, to: parts.length, unplaced, movedFrom: 0, arrays: null };
}

/** Parts by the text of their entry in `text` (the version they were placed in). */
function partsByText(parts: readonly { readonly part: EntryPart; readonly slice: EntrySlice }[], text: TextSource): Map<string, EntryPart[]> {
  const map = new Map<string, EntryPart[]>();
  for (const { part, slice } of parts) {
    const key = text.slice(slice.start, slice.end);
    const same = map.get(key);
    if (same) same.push(part);
    else map.set(key, [part]);
  }
  return map;
}


/** Skeleton diagnostics at their document lines, without those of the kept entries (checked as parts). */
function skeletonToDocument(diagnostics: readonly EngineDiagnostic[], cuts: readonly Cut[]): EngineDiagnostic[] {
  const kept = diagnostics.filter((d) => !cuts.some((cut) => d.range.start.line >= cut.keptLines[0] && d.range.start.line < cut.keptLines[1]));
  return kept.map((d) => moveLines(d, (line) => cuts.reduce((l, cut) => (line >= cut.atLine ? l + cut.lines : l), line)));
}

/** Diagnostics of an entry (lines counted from its first) at the entry's `line` in the document. */
function shiftedLines(relative: readonly RelativeDiagnostic[], line: number): EngineDiagnostic[] {
  return relative.map((d) => moveLines(d, (l) => l + line));
}

/** The same, with the entry's index in its list in the messages that name its path. */
function toDocumentLines(relative: readonly RelativeDiagnostic[], line: number, path: EntryListPath, index: number): EngineDiagnostic[] {
  return shiftedLines(relative, line).map((d) => renumber(d, path, index));
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
