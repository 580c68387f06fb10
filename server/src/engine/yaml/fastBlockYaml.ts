/**
 * A one-pass reader for the block YAML that agent configurations and environment templates are
 * written in, building the very `yaml` Document that the library's lexer, parser and composer
 * build (same node classes, `range` triples, scalar types, sources, values resolved by the
 * document's own YAML 1.1 tags, comments, blank-line marks), at a fraction of the cost: the library
 * spends most of a parse building and walking a token tree, which this reader never builds.
 *
 * It reads block mappings and sequences (a sequence may sit at its key's indentation, and an entry
 * may open a mapping: `- id: x`), keys and values that are plain, single-quoted or double-quoted
 * (without escapes) scalars on one line, one-line flow collections of plain scalars (`[a, b]`,
 * `{ci_job: {}}`, `{a: 1, b: [x]}`), full-line and trailing comments, blank lines
 * and empty values. Anything else — anchors, aliases, tags, merge keys, block or multi-line scalars,
 * other flow collections, documents markers and directives, tabs, carriage returns, a byte
 * order mark, control characters, indentation the library would complain about, a comment more
 * indented than the value before it, nesting near {@link MAX_YAML_DEPTH} — makes it return null, and
 * the caller parses with the library: errors and warnings are always the library's.
 *
 * Where comments and blank lines go follows the library's parser (`yaml/dist/parse/parser.js`:
 * trailing comments of a collection move up to the parent while they are less indented than the
 * collection; `atIndentedComment`; the split of an empty value's separator) and composer
 * (`resolveProps`, `resolveEnd`, `emptyScalarPosition`, the stream prelude). The differential test
 * (test/unit/fastBlockYaml.test.ts) compares both on every fixture and on fuzzed documents.
 */
import { Composer, Document, isScalar, Pair, Scalar, YAMLSeq, type Node, type Schema, type YAMLMap } from 'yaml';
import { duplicateKeysOfMap, type ComposedYaml, type DuplicateKey, type YamlOptions } from './composedYaml';
import { collectionNode, documentNode, pairNode, scalarNode } from './typedNodes';
import { BoundedCache, resetWithEngineCaches } from '../cache';

/** Nesting at which this reader gives up (the library path applies the real bound, MAX_YAML_DEPTH = 64). */
const FAST_MAX_DEPTH = 56;

// Token kinds, as the library's lexer names them.
const SPACE = 0;
const COMMENT = 1;
const NEWLINE = 2;
const SEQ_IND = 3;
const MAP_IND = 4;
/** The indicator `resolveProps` looks for before a block mapping's key, never present here. */
const KEY_IND = 5;

/** A lexer token of the library, reduced to what placing comments needs. */
interface Tok {
  readonly type: number;
  readonly offset: number;
  readonly length: number;
  /** For comments: the indentation of the line. */
  readonly indent: number;
  /** For comments: the text from `#` to the end of the line. */
  readonly source: string;
}

interface Props {
  readonly comment: string;
  readonly spaceBefore: boolean;
  readonly end: number;
}

/** An open block collection. */
interface Frame {
  readonly seq: boolean;
  readonly indent: number;
  readonly node: YAMLMap | YAMLSeq;
  /** The collection as data, filled as its items are read (what `toJS` would make of it). */
  readonly data: Record<string, unknown> | unknown[];
  readonly offset: number;
  /** Where the last item ends (its value's `range[2]`). */
  end: number;
  /**
   * Mapping whose last key has no value on its line yet: the pair, the key's end, and the tokens
   * between the key and the value (the parser's `sep`). Those are made only when something but the
   * key's own line is in them (`sep` null: `:`, spaces, maybe a comment, the line break, at `line`).
   */
  pending: Pair | null;
  /** The pending key as a data key: it joins `data` when its value is read. */
  pendingKey: string;
  sep: Tok[] | null;
  keyEnd: number;
  line: { colon: number; at: number; eol: number; newline: boolean } | null;
}

/** Thrown (and caught) when the text leaves the subset. */
class Decline {}
const DECLINE = new Decline();

const SCALAR_TAG = Symbol.for('yaml.scalar');

type ScalarTag = {
  readonly default?: boolean | 'key';
  readonly test?: RegExp;
  readonly format?: string;
  readonly resolve: (value: string, onError: (message: string) => void, options: unknown) => unknown;
};

// eslint-disable-next-line no-control-regex
const UNSUPPORTED_CHARACTER = /[\x00-\x08\x0B-\x1F\x7F\uFEFF\uFFFE\uFFFF]/;

let enabled = true;

/**
 * Turns the fast reader on or off (on by default) and returns what it was: for benchmarks and tests
 * that measure or compare the library's own reading.
 */
export function useFastBlockYaml(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/**
 * True when `composeYaml` may use the fast reader with these options: YAML 1.1 as GitLab reads
 * it, no duplicate-key check by the library, nothing else that changes what the composer builds.
 */
export function fastPathApplies(options: YamlOptions): boolean {
  if (!enabled) return false;
  for (const key of Object.keys(options)) {
    if (key !== 'version' && key !== 'uniqueKeys' && key !== 'prettyErrors' && key !== 'logLevel') return false;
  }
  return options.version === '1.1' && options.uniqueKeys === false;
}

/**
 * The documents `composeYaml(text, options)` would give, or null when the text is outside the
 * subset (the caller then uses the library). Options must pass {@link fastPathApplies}. A fault of
 * this reader (an exception other than declining) also leaves the text to the library.
 */
export function fastComposeYaml(text: string, options: YamlOptions): ComposedYaml | null {
  try {
    return readFastBlockYaml(text, options);
  } catch {
    return null;
  }
}

/** {@link fastComposeYaml}, but a fault of the reader throws (for the differential test). */
export function readFastBlockYaml(text: string, options: YamlOptions): ComposedYaml | null {
  if (UNSUPPORTED_CHARACTER.test(text)) return null;
  try {
    return new FastReader(text, options).read();
  } catch (err) {
    if (err instanceof Decline) return null;
    throw err;
  }
}

class FastReader {
  private readonly frames: Frame[] = [];
  /** Comments and blank lines after the last value, not yet placed (the parser's start-only item). */
  private trailing: Tok[] = [];
  private trailingComment = false;
  private doc: Document.Parsed | null = null;
  private plainTags: PlainTags | null = null;
  private stringTag: ScalarTag | null = null;
  private readonly prelude: string[] = [];
  private docOffset = 0;
  /** The root collection's data. */
  private rootData: unknown = null;
  /** Mappings in which a data key came twice: their duplicate keys are looked up when the document is done. */
  private readonly repeatedKeyMaps = new Set<YAMLMap>();

  constructor(
    private readonly text: string,
    private readonly options: YamlOptions,
  ) {}

  read(): ComposedYaml | null {
    const text = this.text;
    if (text.includes('\t') || text.includes('\r')) return null;
    const length = text.length;
    let pos = 0;
    while (pos < length) {
      let eol = text.indexOf('\n', pos);
      const hasNewline = eol !== -1;
      if (!hasNewline) eol = length;
      let i = pos;
      while (i < eol && text.charCodeAt(i) === 32) i++;
      const indent = i - pos;
      if (i === eol || text.charCodeAt(i) === 35 /* # */) {
        this.trivia(pos, i, eol, indent, hasNewline);
      } else {
        if (!this.doc) this.startDocument(pos, indent);
        this.content(pos, i, eol, indent, hasNewline);
      }
      pos = eol + 1;
    }
    if (!this.doc) return { ok: true, docs: [], aliasFree: true };
    // No alias, nesting below the bound: the data is never too deep (parseComposedYaml skips that walk).
    const doc = this.finish();
    const duplicateKeys: DuplicateKey[] = [];
    for (const map of this.repeatedKeyMaps) duplicateKeysOfMap(map, duplicateKeys);
    return { ok: true, docs: [doc], aliasFree: true, firstDocument: { value: this.rootData, duplicateKeys: duplicateKeys.sort((a, b) => a.start - b.start) } };
  }

  // ---- lines --------------------------------------------------------------------------------------

  /** A blank or comment-only line. */
  private trivia(lineStart: number, i: number, eol: number, indent: number, hasNewline: boolean): void {
    const comment = i < eol;
    if (!this.doc) {
      // The stream's prelude, before the document: what the composer keeps of it.
      if (indent > 0) throw DECLINE;
      if (comment) this.prelude.push(this.text.slice(i, eol));
      if (hasNewline) this.prelude.push('\n');
      return;
    }
    const top = this.frames[this.frames.length - 1];
    let target: Tok[];
    if (top.pending) {
      target = this.sepOf(top);
    } else {
      // A first comment more indented than its collection joins the value before it (parser's atIndentedComment).
      if (comment && !this.trailingComment && indent > top.indent) throw DECLINE;
      target = this.trailing;
      if (comment) this.trailingComment = true;
    }
    if (indent > 0) target.push(tok(SPACE, lineStart, indent));
    if (comment) target.push({ type: COMMENT, offset: i, length: eol - i, indent, source: this.text.slice(i, eol) });
    if (hasNewline) target.push(tok(NEWLINE, eol, 1));
  }

  private startDocument(lineStart: number, indent: number): void {
    if (indent !== 0) throw DECLINE;
    const t = this.text;
    // Document markers and directives: the library's.
    if ((t.startsWith('---', lineStart) || t.startsWith('...', lineStart)) && !isPlainChar(t.charCodeAt(lineStart + 3))) throw DECLINE;
    // As `composeYaml`'s composer makes it, `new Document(undefined, { _directives, ...options })`:
    // its fields in the constructor's order, the options and directives copied for this document.
    const start = documentStartFor(this.options);
    const doc = documentNode();
    const fields = doc as unknown as Record<string, unknown>;
    fields.commentBefore = null;
    fields.comment = null;
    fields.errors = [];
    fields.warnings = [];
    fields.options = { ...start.options };
    fields.directives = start.directives.atDocument(); // the composer's are YAML 1.1 already, as `setSchema` would set
    fields.schema = start.schema;
    fields.contents = null;
    this.doc = doc;
    this.plainTags = start.plainTags;
    this.stringTag = start.stringTag;
    this.docOffset = lineStart;
  }

  /** A line with a key or a `-`, at column `indent`. */
  private content(lineStart: number, i: number, eol: number, indent: number, hasNewline: boolean): void {
    const t = this.text;
    const c = t.charCodeAt(i);
    const dash = c === 45 /* - */ && (i + 1 === eol || t.charCodeAt(i + 1) === 32);
    if (dash && i + 1 === eol) throw DECLINE; // `-` alone: a value on the next lines, or an empty entry
    if (indent === 0 && (t.startsWith('---', i) || t.startsWith('...', i)) && !isPlainChar(t.charCodeAt(i + 3))) throw DECLINE;
    const frames = this.frames;

    if (frames.length === 0) {
      this.open(dash, indent, i, null);
      this.item(this.frames[0], i, eol, hasNewline, dash);
      return;
    }

    let top = frames[frames.length - 1];
    if (top.pending) {
      if (indent > top.indent || (indent === top.indent && dash)) {
        // The pending key's value: a collection opening on this line.
        const props = top.sep ? resolveProps(top.sep, MAP_IND, false, top.keyEnd) : this.keyLineProps(top.line!);
        const pair = top.pending;
        top.pending = null;
        top.sep = null;
        top.line = null;
        const child = this.open(dash, indent, i, props);
        pair.value = child.node;
        this.setData(top, top.pendingKey, child.data);
        this.item(child, i, eol, hasNewline, dash);
        return;
      }
      // An empty value: the separator's tokens from its second line break on go to the next key.
      const sep = this.sepOf(top);
      if (indent > 0) sep.push(tok(SPACE, lineStart, indent));
      if (indent === top.indent && !dash) {
        const nl: number[] = [];
        for (let k = 0; k < sep.length; k++) {
          const st = sep[k];
          if (st.type === NEWLINE) nl.push(k);
          else if (st.type === COMMENT) {
            if (st.indent > top.indent) nl.length = 0;
          } else if (st.type !== SPACE) nl.length = 0;
        }
        if (nl.length >= 2) {
          this.trailing = sep.splice(nl[1]);
          this.trailingComment = this.trailing.some((st) => st.type === COMMENT);
        }
      }
      this.emptyValue(top);
    } else if (this.trailing.length > 0 && indent > 0) {
      this.trailing.push(tok(SPACE, lineStart, indent));
    }

    for (;;) {
      top = frames[frames.length - 1];
      if (indent > top.indent) throw DECLINE;
      if (indent === top.indent) {
        if (top.seq === dash) break;
        if (!top.seq) throw DECLINE; // a `-` at a mapping's indentation after a value
      }
      if (frames.length === 1) throw DECLINE; // dedent past the root (not at column 0 after all)
      this.pop();
    }
    this.item(top, i, eol, hasNewline, dash);
  }

  /** Opens a collection whose first item starts at `at`. */
  private open(seq: boolean, indent: number, at: number, props: Props | null): Frame {
    if (this.frames.length >= FAST_MAX_DEPTH) throw DECLINE;
    const schema = this.doc!.schema;
    const node = collectionNode(seq, schema);
    const data = seq ? [] : {};
    if (this.frames.length === 0) this.rootData = data;
    if (props) {
      if (props.spaceBefore) node.spaceBefore = true;
      if (props.comment) node.commentBefore = props.comment;
    }
    const frame: Frame = { seq, indent, node, data, offset: at, end: at, pending: null, pendingKey: '', sep: null, keyEnd: 0, line: null };
    this.frames.push(frame);
    return frame;
  }

  /** The next item of `frame`, starting at `i` (its key, or its `-`), after the trailing tokens. */
  private item(frame: Frame, i: number, eol: number, hasNewline: boolean, dash: boolean): void {
    const start = this.trailing;
    const props = start.length > 0 ? resolveProps(start, dash ? SEQ_IND : KEY_IND, true, frame.end) : null;
    if (start.length > 0) {
      this.trailing = [];
      this.trailingComment = false;
    }
    if (!dash) {
      this.pair(frame, i, eol, hasNewline, props);
      return;
    }
    const t = this.text;
    let j = i + 1;
    while (j < eol && t.charCodeAt(j) === 32) j++;
    if (j === eol || t.charCodeAt(j) === 35 /* # */) throw DECLINE; // `- # …`: the value is on the next lines
    const seq = frame.node as YAMLSeq;
    const c = t.charCodeAt(j);
    if (c === 45 /* - */ && (j + 1 === eol || t.charCodeAt(j + 1) === 32)) throw DECLINE; // `- - x`
    // A flow collection is the entry's value (`- {a: 1}`); `- {a: 1}: b` then declines in `value`.
    const keyEnd = c === 34 || c === 39 || c === 123 || c === 91 ? -1 : plainKeyEnd(t, j, eol);
    if (keyEnd !== -1 || ((c === 34 || c === 39) && quotedIsKey(t, j, eol))) {
      // `- key: …` opens a mapping at the key's column.
      const map = this.open(false, frame.indent + (j - i), j, props);
      seq.items.push(map.node);
      (frame.data as unknown[]).push(map.data);
      this.pair(map, j, eol, hasNewline, null);
      return;
    }
    const node = this.value(j, eol, hasNewline);
    if (props) {
      if (props.spaceBefore) node.spaceBefore = true;
      if (props.comment) node.commentBefore = props.comment;
    }
    seq.items.push(node);
    (frame.data as unknown[]).push(this.valueData(node));
    frame.end = node.range![2];
  }

  /** `key: value`, `key:` or `key: # comment` at `i`, as the next pair of `frame`. */
  private pair(frame: Frame, i: number, eol: number, hasNewline: boolean, props: Props | null): void {
    const t = this.text;
    const c = t.charCodeAt(i);
    let key: Scalar;
    let colon: number;
    if (c === 34 || c === 39) {
      const close = quotedEnd(t, i, eol);
      let k = close;
      while (k < eol && t.charCodeAt(k) === 32) k++;
      if (t.charCodeAt(k) !== 58 /* : */ || !(k + 1 === eol || t.charCodeAt(k + 1) === 32)) throw DECLINE;
      key = this.scalar(quotedValue(t, i, close), c === 34 ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, true, i, close, close, '');
      colon = k;
    } else {
      checkPlainStart(t, i, eol);
      colon = plainKeyEnd(t, i, eol);
      if (colon === -1) throw DECLINE; // a scalar alone on its line
      let e = colon;
      while (t.charCodeAt(e - 1) === 32) e--;
      key = this.scalar(t.slice(i, e), Scalar.PLAIN, true, i, e, e, '');
    }
    if (props) {
      if (props.spaceBefore) key.spaceBefore = true;
      if (props.comment) key.commentBefore = props.comment;
    }
    const map = frame.node as YAMLMap;
    let j = colon + 1;
    while (j < eol && t.charCodeAt(j) === 32) j++;
    if (j === eol || t.charCodeAt(j) === 35 /* # */) {
      // The value is on the next lines, or empty.
      const pair = pairNode(key, null) as Pair;
      map.items.push(pair);
      frame.pending = pair;
      frame.pendingKey = dataKey(key);
      frame.sep = null;
      frame.line = { colon, at: j, eol, newline: hasNewline };
      frame.keyEnd = key.range![2];
      return;
    }
    const value = this.value(j, eol, hasNewline);
    map.items.push(pairNode(key, value));
    this.setData(frame, dataKey(key), this.valueData(value));
    frame.end = value.range![2];
  }

  /** A value that ends its line: a scalar or a one-line flow collection, maybe a comment after it. */
  private value(j: number, eol: number, hasNewline: boolean): Node {
    const t = this.text;
    const c = t.charCodeAt(j);
    let valueEnd: number;
    let node: Node;
    if (c === 123 /* { */ || c === 91 /* [ */) {
      node = this.flowCollection(j, eol, 1);
      valueEnd = node.range![1];
    } else if (c === 34 || c === 39) {
      valueEnd = quotedEnd(t, j, eol);
      node = this.scalar(quotedValue(t, j, valueEnd), c === 34 ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, false, j, valueEnd, valueEnd, '');
    } else {
      checkPlainStart(t, j, eol);
      let k = j;
      for (; k < eol; k++) {
        const ch = t.charCodeAt(k);
        if (ch === 58 /* : */ && (k + 1 === eol || t.charCodeAt(k + 1) === 32)) throw DECLINE; // `a: b: c`
        if (ch === 35 /* # */ && t.charCodeAt(k - 1) === 32) break;
      }
      valueEnd = k;
      while (t.charCodeAt(valueEnd - 1) === 32) valueEnd--;
      node = this.scalar(t.slice(j, valueEnd), Scalar.PLAIN, false, j, valueEnd, valueEnd, '');
    }
    // What follows on the line: spaces, then a comment or nothing.
    let k = valueEnd;
    while (k < eol && t.charCodeAt(k) === 32) k++;
    let comment = '';
    if (k < eol) {
      if (t.charCodeAt(k) !== 35 /* # */ || k === valueEnd) throw DECLINE;
      comment = t.slice(k + 1, eol) || ' ';
    }
    const end = hasNewline ? eol + 1 : eol;
    node.range = [j, valueEnd, end];
    if (comment) node.comment = comment;
    return node;
  }

  /**
   * The one-line flow collection whose `{` or `[` is at `j`, `depth` levels of flow below the open
   * block collection, with its range up to its closing bracket (`range[2]` is set by the caller).
   */
  private flowCollection(j: number, eol: number, depth: number): YAMLMap | YAMLSeq {
    const t = this.text;
    const map = t.charCodeAt(j) === 123;
    if (this.frames.length + depth >= FAST_MAX_DEPTH) throw DECLINE;
    const coll = collectionNode(!map, this.doc!.schema!);
    coll.flow = true;
    let k = j + 1;
    while (k < eol && t.charCodeAt(k) === 32) k++;
    if (t.charCodeAt(k) !== (map ? 125 : 93)) k = map ? this.flowPairs(coll as YAMLMap, k, eol, depth) : this.flowItems(coll as YAMLSeq, k, eol);
    coll.range = [j, k + 1, k + 1];
    return coll;
  }

  /**
   * The pairs of a one-line flow mapping (`{ci_job: {}}`, `{a: 1, b: [x]}`) from `k`, its first
   * key; returns the offset of its `}`. A key is a plain scalar without spaces, right before `: `; a
   * value is a plain scalar or a one-line flow collection. Anything else inside (quotes, `#`, a key
   * without a value, `a:b`, a trailing comma) declines. As the library ranges them, each value ends
   * (`range[2]`) at the `,` or `}` after it, past the spaces before that.
   */
  private flowPairs(map: YAMLMap, k: number, eol: number, depth: number): number {
    const t = this.text;
    for (;;) {
      checkPlainStart(t, k, eol);
      let colon = k;
      for (; colon < eol; colon++) {
        const ch = t.charCodeAt(colon);
        if (ch === 58 /* : */) break;
        if (ch === 32 || ch === 44 || ch === 93 || FLOW_UNSUPPORTED.includes(ch)) throw DECLINE;
      }
      if (colon === k || t.charCodeAt(colon + 1) !== 32) throw DECLINE;
      const key = this.scalar(t.slice(k, colon), Scalar.PLAIN, true, k, colon, colon, '');
      let v = colon + 1;
      while (v < eol && t.charCodeAt(v) === 32) v++;
      const c = t.charCodeAt(v);
      let value: Node;
      let e: number;
      if (c === 123 || c === 91) {
        value = this.flowCollection(v, eol, depth + 1);
        e = value.range![1];
        while (e < eol && t.charCodeAt(e) === 32) e++;
        value.range![2] = e;
      } else {
        checkPlainStart(t, v, eol);
        e = v;
        for (; e < eol; e++) {
          const ch = t.charCodeAt(e);
          if (ch === 44 || ch === 125) break;
          if (ch === 93 || FLOW_UNSUPPORTED.includes(ch)) throw DECLINE;
        }
        let end = e;
        while (t.charCodeAt(end - 1) === 32) end--;
        value = this.scalar(t.slice(v, end), Scalar.PLAIN, false, v, end, e, '');
      }
      map.items.push(pairNode(key, value));
      const ch = t.charCodeAt(e);
      if (ch === 125) return e;
      if (ch !== 44) throw DECLINE;
      k = e + 1;
      while (k < eol && t.charCodeAt(k) === 32) k++;
      if (k === eol || t.charCodeAt(k) === 125) throw DECLINE; // a trailing comma
    }
  }

  /**
   * The items of a one-line flow sequence of plain scalars (`[a, b]`) from `k`, its first item;
   * returns the offset of its `]`. Anything else inside (quotes, nested collections, `:`, `#`, empty
   * items, a trailing comma) declines.
   */
  private flowItems(seq: YAMLSeq, k: number, eol: number): number {
    const t = this.text;
    for (;;) {
      checkPlainStart(t, k, eol);
      let e = k;
      let ch = 0;
      for (; e < eol; e++) {
        ch = t.charCodeAt(e);
        if (ch === 44 /* , */ || ch === 93 /* ] */) break;
        if (FLOW_UNSUPPORTED.includes(ch)) throw DECLINE;
      }
      if (e === eol) throw DECLINE;
      let end = e;
      while (t.charCodeAt(end - 1) === 32) end--;
      if (end === k) throw DECLINE;
      seq.items.push(this.scalar(t.slice(k, end), Scalar.PLAIN, false, k, end, e, ''));
      if (ch === 93) return e;
      k = e + 1;
      while (k < eol && t.charCodeAt(k) === 32) k++;
      if (k === eol || t.charCodeAt(k) === 93) throw DECLINE; // a trailing comma
    }
  }

  /** A scalar as `composeScalar` makes it. */
  private scalar(value: string, type: Scalar.Type, atKey: boolean, start: number, valueEnd: number, end: number, comment: string): Scalar {
    let tag: ScalarTag;
    if (type !== Scalar.PLAIN) {
      tag = this.stringTag!;
    } else {
      const tags = this.plainTags!;
      const cache = atKey ? tags.atKey : tags.atValue;
      let found = cache.get(value);
      if (!found) {
        found = tags.schemaTags.find((tg) => (tg.default === true || (atKey && tg.default === 'key')) && tg.test?.test(value)) ?? this.stringTag!;
        // A merge key (`<<`) and anything else resolved only at a key: the library's.
        if (found.default === 'key') throw DECLINE;
        if (cache.size >= REMEMBERED_PLAIN_TAGS) cache.clear();
        cache.set(value, found);
      }
      tag = found;
    }
    const res = tag.resolve(value, declineOnError, this.doc!.options);
    const scalar = isScalar(res) ? res : scalarNode(res);
    scalar.range = [start, valueEnd, end];
    scalar.source = value;
    scalar.type = type;
    if (tag.format) scalar.format = tag.format;
    if (comment) scalar.comment = comment;
    return scalar;
  }

  /**
   * A key and its value join a mapping's data as `toJS` adds them (`addPairToJSMap`): a key the
   * object already has (given twice, or `__proto__`) is defined, not assigned, so it stays data.
   */
  private setData(frame: Frame, key: string, value: unknown): void {
    this.addData(frame.data as Record<string, unknown>, frame.node as YAMLMap, key, value);
  }

  private addData(data: Record<string, unknown>, map: YAMLMap, key: string, value: unknown): void {
    if (!(key in data)) {
      data[key] = value;
      return;
    }
    if (Object.hasOwn(data, key)) this.repeatedKeyMaps.add(map);
    Object.defineProperty(data, key, { value, writable: true, enumerable: true, configurable: true });
  }

  /** The data of a value the reader made on one line: a scalar's value, or a flow collection's data. */
  private valueData(node: Node): unknown {
    if (isScalar(node)) return node.value;
    if (node instanceof YAMLSeq) return node.items.map((item) => (item as Scalar).value);
    const map = node as YAMLMap<Scalar, Node>;
    const data: Record<string, unknown> = {};
    for (const pair of map.items) this.addData(data, map, dataKey(pair.key), this.valueData(pair.value!));
    return data;
  }

  /** The separator tokens of `frame`'s pending key, made now if they were not. */
  private sepOf(frame: Frame): Tok[] {
    if (frame.sep) return frame.sep;
    const { colon, at, eol, newline } = frame.line!;
    const sep: Tok[] = [tok(MAP_IND, colon, 1)];
    if (at > colon + 1) sep.push(tok(SPACE, colon + 1, at - colon - 1));
    if (at < eol) sep.push({ type: COMMENT, offset: at, length: eol - at, indent: 0, source: this.text.slice(at, eol) });
    if (newline) sep.push(tok(NEWLINE, eol, 1));
    frame.sep = sep;
    frame.line = null;
    return sep;
  }

  /** `resolveProps` of a separator that is the key's line alone: its comment, if any. */
  private keyLineProps(line: { at: number; eol: number }): Props | null {
    return line.at < line.eol ? { comment: this.text.slice(line.at + 1, line.eol) || ' ', spaceBefore: false, end: 0 } : null;
  }

  /** The pending key of `frame` gets an empty value (`composeEmptyNode`). */
  private emptyValue(frame: Frame): void {
    const sep = this.sepOf(frame);
    const props = resolveProps(sep, MAP_IND, false, frame.keyEnd);
    const at = emptyScalarPosition(props.end, sep);
    const node = this.scalar('', Scalar.PLAIN, false, at, at, at, '');
    if (props.spaceBefore) node.spaceBefore = true;
    if (props.comment) {
      node.comment = props.comment;
      node.range![2] = props.end;
    }
    frame.pending!.value = node;
    this.setData(frame, frame.pendingKey, node.value);
    frame.pending = null;
    frame.sep = null;
    frame.line = null;
    frame.end = node.range![2];
  }

  /** Closes the innermost collection; its trailing comments move up unless indented at least as much as it. */
  private pop(): void {
    const frame = this.frames.pop()!;
    const trailing = this.trailing;
    let commentEnd: number | null = null;
    if (trailing.length > 0 && frame.indent > 0 && trailing.some((st) => st.type === COMMENT && st.indent >= frame.indent)) {
      const props = resolveProps(trailing, frame.seq ? SEQ_IND : KEY_IND, true, frame.end);
      if (props.comment) frame.node.comment = frame.node.comment && !frame.seq ? `${frame.node.comment}\n${props.comment}` : props.comment;
      commentEnd = props.end;
      this.trailing = [];
      this.trailingComment = false;
    }
    frame.node.range = [frame.offset, frame.end, commentEnd ?? frame.end];
    const parent = this.frames[this.frames.length - 1];
    if (parent) parent.end = frame.node.range[2];
  }

  private finish(): Document.Parsed {
    const doc = this.doc!;
    const top = this.frames[this.frames.length - 1];
    if (top.pending) this.emptyValue(top);
    while (this.frames.length > 1) this.pop();
    const root = this.frames[0];
    root.node.range = [root.offset, root.end, root.end];
    this.frames.pop();
    // What is left after the root collection is the document's end (`resolveEnd`).
    const contentEnd = root.end;
    let end = contentEnd;
    let comment = '';
    let sep = '';
    for (const st of this.trailing) {
      if (st.type === COMMENT) {
        const cb = st.source.substring(1) || ' ';
        comment = comment ? comment + sep + cb : cb;
        sep = '';
      } else if (st.type === NEWLINE && comment) {
        sep += '\n';
      }
      end += st.length;
    }
    doc.contents = root.node as unknown as Document.Parsed['contents'];
    if (comment) doc.comment = comment;
    doc.range = [this.docOffset, contentEnd, end];
    this.decorate(doc);
    return doc;
  }

  /** The composer's `decorate`: the comment before the document goes to it or to its first key. */
  private decorate(doc: Document.Parsed): void {
    let comment = '';
    let atComment = false;
    let afterEmptyLine = false;
    for (const source of this.prelude) {
      if (source[0] === '#') {
        comment += (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') + (source.substring(1) || ' ');
        atComment = true;
        afterEmptyLine = false;
      } else {
        if (!atComment) afterEmptyLine = true;
        atComment = false;
      }
    }
    if (!comment) return;
    const dc = doc.contents as unknown as YAMLMap | YAMLSeq;
    if (afterEmptyLine) {
      doc.commentBefore = comment;
    } else {
      let it = dc.items[0] as Node | Pair;
      if (it instanceof Pair) it = it.key as Node;
      const cb = (it as Node).commentBefore;
      (it as Node).commentBefore = cb ? `${comment}\n${cb}` : comment;
    }
  }
}

/**
 * The tag that resolves a plain scalar, by its text, for every document whose schema has these
 * tags. `fastPathApplies` admits only options that make the same YAML 1.1 schema, whose tags are
 * the library's module constants, so one lookup serves every document: the keys (`id`,
 * `default_namespace`, `rules`, `if`…) and many values come back in every file of a batch, and
 * finding a text's tag tries the regular expressions of the schema's tags one by one.
 */
interface PlainTags {
  readonly schemaTags: readonly ScalarTag[];
  readonly atKey: Map<string, ScalarTag>;
  readonly atValue: Map<string, ScalarTag>;
}

/**
 * What every document the reader starts with the same options shares: the composer's directives
 * and the document's options and schema, made once by the library's own constructors (a Composer,
 * a Document and its Schema for each document of a batch of small files showed in its profile); a
 * document is a copy of these. The library reads a schema and never changes it (it builds
 * its tags when it is made), so documents may share one, as `new Document(…, { schema })` does.
 */
interface DocumentStart {
  readonly directives: { atDocument(): unknown };
  readonly options: Readonly<Record<string, unknown>>;
  readonly schema: Schema;
  readonly plainTags: PlainTags;
  readonly stringTag: ScalarTag;
}

/** By the options' keys and values (fastPathApplies admits four keys, so there are few). */
const documentStarts = new BoundedCache<string, DocumentStart>(64);
/** By the options object: callers pass the same constant for document after document. */
const documentStartsByObject = new WeakMap<YamlOptions, DocumentStart>();

function documentStartFor(options: YamlOptions): DocumentStart {
  const known = documentStartsByObject.get(options);
  if (known) return known;
  const key = Object.entries(options)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join('&');
  const start = documentStarts.get(key, () => {
    const composer = new Composer({ ...options, logLevel: 'error' }) as unknown as { directives: DocumentStart['directives']; options: YamlOptions };
    const doc = new Document(undefined, Object.assign({ _directives: composer.directives }, composer.options)) as unknown as Document.Parsed;
    const schema = doc.schema as Schema;
    return {
      directives: composer.directives,
      options: doc.options as unknown as Record<string, unknown>,
      schema,
      plainTags: plainTagsFor(schema.tags as unknown as ScalarTag[]),
      stringTag: (schema as unknown as Record<symbol, ScalarTag>)[SCALAR_TAG],
    };
  });
  documentStartsByObject.set(options, start);
  return start;
}

/**
 * Texts remembered per position (keys, values): the lookup starts again when it holds this many.
 * It runs for every plain scalar, the reader's hottest path, so it is not a BoundedCache: keeping
 * recency there would cost a delete and a set per scalar.
 */
const REMEMBERED_PLAIN_TAGS = 4096;

let lastPlainTags: PlainTags | null = null;
resetWithEngineCaches(() => (lastPlainTags = null));

function plainTagsFor(schemaTags: readonly ScalarTag[]): PlainTags {
  const last = lastPlainTags;
  if (last && last.schemaTags.length === schemaTags.length && last.schemaTags.every((tag, i) => tag === schemaTags[i])) return last;
  return (lastPlainTags = { schemaTags, atKey: new Map(), atValue: new Map() });
}

/** A tag's `onError`: a scalar its tag cannot resolve is the library's (one function for all, not a closure per scalar). */
function declineOnError(): never {
  throw DECLINE;
}

/** A key as `toJS` names it in a data object; a key whose value is no string, number, boolean or null (a timestamp) is the library's. */
function dataKey(key: Scalar): string {
  const value = key.value;
  if (value === null) return '';
  if (typeof value === 'object') throw DECLINE;
  return String(value);
}

/**
 * Characters that end or complicate a plain scalar inside a flow collection (`[{}#:'"`): the items
 * that hold one are the library's. The other indicators (`*&!|>%@\`?`) mean something only where a
 * scalar starts (checkPlainStart); inside one, as in `[production, review/*]`, they are its text.
 */
const FLOW_UNSUPPORTED = [91, 123, 125, 35, 58, 39, 34];

function tok(type: number, offset: number, length: number): Tok {
  return { type, offset, length, indent: 0, source: '' };
}

/** A character that continues a plain scalar after `---` (anything but a space, a line break or the end). */
function isPlainChar(code: number): boolean {
  return !Number.isNaN(code) && code !== 32 && code !== 10;
}

/** Declines a plain scalar the lexer would read as something else (or with an error). */
function checkPlainStart(t: string, i: number, eol: number): void {
  switch (t.charCodeAt(i)) {
    case 35: // #
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 39: // '
    case 34: // "
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 44: // ,
    case 37: // %
    case 64: // @
    case 96: // `
      throw DECLINE;
    case 45: // -
    case 63: // ?
    case 58: // :
      if (i + 1 === eol || t.charCodeAt(i + 1) === 32) throw DECLINE;
  }
}

/** Offset of the `:` ending a plain key at `i` (followed by a space or the end of the line); -1 when none. */
function plainKeyEnd(t: string, i: number, eol: number): number {
  for (let k = i; k < eol; k++) {
    const ch = t.charCodeAt(k);
    if (ch === 58 /* : */ && (k + 1 === eol || t.charCodeAt(k + 1) === 32)) return k;
    if (ch === 35 /* # */ && k > i && t.charCodeAt(k - 1) === 32) return -1;
  }
  return -1;
}

/** True when the quoted scalar at `i` is followed by `:` (then a space or the end of the line). */
function quotedIsKey(t: string, i: number, eol: number): boolean {
  let k = quotedEnd(t, i, eol);
  while (k < eol && t.charCodeAt(k) === 32) k++;
  return t.charCodeAt(k) === 58 && (k + 1 === eol || t.charCodeAt(k + 1) === 32);
}

/** End (after the closing quote) of the quoted scalar at `i`, closed on its line and without escapes. */
function quotedEnd(t: string, i: number, eol: number): number {
  const q = t[i];
  let k = i + 1;
  for (;;) {
    const close = t.indexOf(q, k);
    if (close === -1 || close >= eol) throw DECLINE;
    if (q === '"') {
      // Escapes are the library's (only this scalar is searched: the rest of the text may have none).
      for (let b = i + 1; b < close; b++) if (t.charCodeAt(b) === 92 /* \ */) throw DECLINE;
      return close + 1;
    }
    if (t.charCodeAt(close + 1) === 39) {
      k = close + 2;
      continue;
    }
    return close + 1;
  }
}

function quotedValue(t: string, start: number, end: number): string {
  const inner = t.slice(start + 1, end - 1);
  return t[start] === "'" && inner.includes("''") ? inner.replace(/''/g, "'") : inner;
}

/** The composer's `resolveProps`, for the tokens this reader makes (spaces, comments, line breaks, one indicator). */
function resolveProps(tokens: readonly Tok[], indicator: number, startOnNewline: boolean, offset: number): Props {
  let spaceBefore = false;
  let atNewline = startOnNewline;
  let hasSpace = startOnNewline;
  let comment = '';
  let commentSep = '';
  let found = false;
  for (const token of tokens) {
    switch (token.type) {
      case SPACE:
        hasSpace = true;
        break;
      case COMMENT: {
        if (!hasSpace) throw DECLINE;
        const cb = token.source.substring(1) || ' ';
        if (!comment) comment = cb;
        else comment += commentSep + cb;
        commentSep = '';
        atNewline = false;
        break;
      }
      case NEWLINE:
        if (atNewline) {
          if (comment) comment += '\n';
          else if (!found || indicator !== SEQ_IND) spaceBefore = true;
        } else commentSep += '\n';
        atNewline = true;
        hasSpace = true;
        break;
      default:
        if (token.type !== indicator || found) throw DECLINE;
        found = true;
        atNewline = indicator === SEQ_IND;
        hasSpace = false;
    }
  }
  const last = tokens[tokens.length - 1];
  return { comment, spaceBefore, end: last ? last.offset + last.length : offset };
}

/** The composer's `emptyScalarPosition`: after the indicator and the spaces that follow it. */
function emptyScalarPosition(offset: number, before: readonly Tok[]): number {
  for (let i = before.length - 1; i >= 0; --i) {
    let st = before[i];
    if (st.type === SPACE || st.type === COMMENT || st.type === NEWLINE) {
      offset -= st.length;
      continue;
    }
    st = before[++i];
    while (st?.type === SPACE) {
      offset += st.length;
      st = before[++i];
    }
    break;
  }
  return offset;
}
