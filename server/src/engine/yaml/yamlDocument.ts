import { isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { EngineDiagnostic } from '../diagnostics';
import { TextIndex } from '../text/textIndex';
import { COLLECTION_KEY_MESSAGE, composeYaml, dataTooDeepAt, inspectMaps, tooDeepDiagnostic } from './boundedYaml';
import type { ComposedYaml, DuplicateKey } from './composedYaml';
import { syntaxMistakes } from './syntaxMistakes';

/** YAML's printable set excludes C0 controls other than tab and line breaks, DEL, and U+FFFE/U+FFFF (go-yaml rejects them). */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/;

/** Aliases beyond this count are refused (a "billion laughs" document must not exhaust memory). */
const MAX_ALIAS_COUNT = 1000;

/** A YAML text parsed once, keeping every node's source offsets. */
export interface ParsedYaml {
  readonly text: string;
  readonly index: TextIndex;
  /** The first document, which is the only one GitLab reads; null for an empty text. */
  readonly doc: Document.Parsed | null;
  /** The first document as plain data (YAML 1.1 scalars, as GitLab's sigs.k8s.io/yaml reads them). */
  readonly value: unknown;
  /** YAML syntax problems, duplicate keys, extra documents. */
  readonly diagnostics: EngineDiagnostic[];
  /** True when the syntax is broken badly enough that schema checks would only add noise. */
  readonly hasSyntaxErrors: boolean;
}

/**
 * How GitLab's agent reads YAML: version 1.1. Duplicate keys are found by inspectMaps, in linear
 * time (the library's own check compares each key with every earlier one).
 */
export const GITLAB_YAML = { version: '1.1', uniqueKeys: false, prettyErrors: false } as const;

/**
 * Parses YAML the way GitLab's agent configuration pipeline does (docs/gitlab-behaviour.md#config-file-location-and-parsing): YAML 1.1 scalars
 * (`yes`/`no`/`on`/`off` are booleans), merge keys, first document only.
 */
export function parseYaml(text: string): ParsedYaml {
  return parseComposedYaml(text, composeYaml(text, GITLAB_YAML));
}

/**
 * {@link parseYaml} of a text already composed with {@link GITLAB_YAML} options (for a caller that
 * looked at the raw tree first): the documents are converted in place, so they are this call's.
 */
export function parseComposedYaml(text: string, composed: ComposedYaml): ParsedYaml {
  const index = new TextIndex(text);
  const diagnostics: EngineDiagnostic[] = [];
  const control = controlCharacterDiagnostic(text, index);
  if (!composed.ok) {
    diagnostics.push(tooDeepDiagnostic(index, composed.tooDeepAt), ...(control ? [control] : []));
    return { text, index, doc: null, value: null, diagnostics, hasSyntaxErrors: true };
  }
  const list = composed.docs;
  const doc = list[0] ?? null;
  let hasSyntaxErrors = list.some((d) => d.errors.length > 0);
  if (hasSyntaxErrors) {
    for (const mistake of syntaxMistakes(text, list, GITLAB_YAML, (patched, error) => errorSpan(patched, index, error.message, error.pos))) {
      diagnostics.push({ range: index.range(mistake.start, mistake.end), severity: 'error', code: 'yaml.syntax', message: mistake.message });
    }
  }
  for (const [i, d] of list.entries()) {
    for (const warning of d.warnings) {
      diagnostics.push({
        range: index.range(warning.pos[0], Math.max(warning.pos[1], warning.pos[0] + 1)),
        severity: 'warning',
        code: 'yaml.warning',
        message: firstLine(warning.message),
      });
    }
    // Only the first document is converted to data (and read by GitLab). The fast reader found its
    // duplicate keys as it read it, and it has no collection key.
    const maps = i === 0 && composed.firstDocument ? { duplicateKeys: composed.firstDocument.duplicateKeys, collectionKeys: [] } : inspectMaps(d, text, { replaceCollectionKeys: i === 0 });
    for (const duplicate of maps.duplicateKeys) {
      const end = keyEnd(text, duplicate.start);
      diagnostics.push({ range: index.range(duplicate.start, end), severity: 'warning', code: 'yaml.duplicateKey', message: duplicateKeyMessage(text.slice(duplicate.start, end), duplicate, index) });
    }
    for (const [start, end] of maps.collectionKeys) {
      hasSyntaxErrors = true;
      diagnostics.push({
        range: index.range(start, Math.max(end, start + 1)),
        severity: 'error',
        code: 'yaml.collectionKey',
        message: COLLECTION_KEY_MESSAGE,
      });
    }
    if (i === 1 && d.contents !== null) {
      const start = d.range[0];
      diagnostics.push({
        range: index.range(start, index.lineEnd(index.positionAt(start).line)),
        severity: 'warning',
        code: 'yaml.extraDocument',
        message: 'GitLab reads only the first YAML document of the agent configuration; this document and the ones after it are ignored.',
      });
    }
  }

  if (control) {
    hasSyntaxErrors = true;
    diagnostics.push(control);
  }

  let value: unknown = null;
  if (doc) {
    // The fast reader's documents hold no alias and nest less than the bound: their data is never too deep.
    const tooDeepAt = composed.aliasFree ? null : dataTooDeepAt(doc);
    if (tooDeepAt !== null) {
      // Aliases make the data deeper than the text: converting it would recurse that deep.
      diagnostics.push(tooDeepDiagnostic(index, tooDeepAt));
      return { text, index, doc, value: null, diagnostics, hasSyntaxErrors: true };
    }
    try {
      value = composed.firstDocument ? composed.firstDocument.value : (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null);
    } catch (err) {
      hasSyntaxErrors = true;
      diagnostics.push({
        range: index.range(0, index.lineEnd(0)),
        severity: 'error',
        code: 'yaml.unreadable',
        message: `The document cannot be read as data: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }
  return { text, index, doc, value, diagnostics, hasSyntaxErrors };
}

/** The first control character YAML forbids, as an error; null when there is none. */
function controlCharacterDiagnostic(text: string, index: TextIndex): EngineDiagnostic | null {
  const control = CONTROL_CHARACTER.exec(text);
  if (!control) return null;
  const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return {
    range: index.range(control.index, control.index + 1),
    severity: 'error',
    code: 'yaml.controlCharacter',
    message: `Control character U+${code}: YAML does not allow control characters, so GitLab cannot read this file (is it binary?).`,
  };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  // The yaml library appends " at line L, column C:" — the diagnostic range already says where.
  return line.replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * Where to show a syntax error. The yaml library reports an unterminated quoted scalar at the end
 * of the input; the opening quote, to the end of its line, is where the user must look.
 */
function errorSpan(text: string, index: TextIndex, message: string, pos: [number, number]): [number, number] {
  const quote = /^Missing closing (["'])quote/.exec(message)?.[1];
  if (quote) {
    const open = text.lastIndexOf(quote, Math.min(pos[0], text.length) - 1);
    if (open !== -1) return [open, index.lineEnd(index.positionAt(open).line)];
  }
  return [pos[0], Math.max(pos[1], pos[0] + 1)];
}

/** The yaml library points at the start of a duplicate key; its end is the `: ` or end of line. */
function keyEnd(text: string, start: number): number {
  const match = /^[^\n]*?(?=:(?:\s|$)|\n|$)/.exec(text.slice(start, start + 1024));
  return start + Math.max(1, match ? match[0].trimEnd().length : 1);
}

/**
 * GitLab's YAML reader (sigs.k8s.io/yaml's non-strict YAMLToJSON) accepts a repeated key and keeps
 * its last value (docs/gitlab-behaviour.md#duplicate-keys): a warning that says which one wins.
 */
function duplicateKeyMessage(key: string, duplicate: DuplicateKey, index: TextIndex): string {
  const name = key.trim().replace(/^["']|["']$/g, '');
  // Distances, not line numbers: the editor re-checks one list entry at a time and moves its lines.
  const lines = (from: number, to: number) => {
    const n = Math.abs(index.positionAt(to).line - index.positionAt(from).line);
    return `${n} line${n === 1 ? '' : 's'}`;
  };
  // The values written on the keys' own lines are named, so the message says which value wins.
  const shown = (keyStart: number) => {
    const value = inlineValue(index.text, keyStart);
    return value === null ? '' : ` (${value})`;
  };
  const what = name ? `Duplicate key "${name}"` : 'Duplicate key';
  if (duplicate.start === duplicate.last) {
    return `${what}: GitLab keeps this last value${shown(duplicate.last)} and ignores the earlier one${shown(duplicate.first)}, ${lines(duplicate.first, duplicate.start)} above.`;
  }
  return `${what}: GitLab ignores this value (and the first one, ${lines(duplicate.first, duplicate.start)} above) and keeps the last one${shown(duplicate.last)}, ${lines(duplicate.start, duplicate.last)} below.`;
}

/** The value written on a key's own line (`level: debug` → `debug`), cut at 40 characters; null for a value on the lines below (a block). */
function inlineValue(text: string, keyStart: number): string | null {
  const afterKey = keyEnd(text, keyStart);
  const lineEnd = text.indexOf('\n', afterKey);
  let value = text.slice(afterKey, lineEnd === -1 ? text.length : lineEnd).replace(/^\s*:/, '').trim();
  // A comment is no part of a plain value; a quoted one may hold " #".
  if (!/^["']/.test(value)) value = value.replace(/(^|\s)#.*$/, '').trim();
  if (!value) return null;
  return value.length > 40 ? `${value.slice(0, 39)}…` : value;
}

/** The key/value located at a data path, with the pair that holds it when it is a map value. */
export interface PathTarget {
  readonly node: Node | null;
  readonly pair: Pair<Node, Node | null> | null;
}

/** Mappings with more keys than this get an index of their keys, built on the first lookup. */
const INDEXED_MAP_SIZE = 16;

/** Per large mapping: its keys' pairs (the first of duplicates), for the items array they were read from. */
const keyIndexes = new WeakMap<object, { items: unknown[]; length: number; pairs: Map<string, Pair<Node, Node | null>> }>();

/**
 * The pair of `map` whose key reads `key` (as {@link keyText} reads it); null when `map` is not a map
 * or has none. Each schema problem of a mapping looks up its key: in a mapping of thousands of keys,
 * a scan per lookup made reporting them quadratic, so large mappings are indexed (the index is
 * rebuilt when the items array is replaced or changes length).
 */
export function pairOfKey(map: unknown, key: string): Pair<Node, Node | null> | null {
  if (!isMap(map)) return null;
  // A repeated key: the last pair is the one GitLab reads (docs/gitlab-behaviour.md#duplicate-keys).
  if (map.items.length <= INDEXED_MAP_SIZE) {
    // A loop rather than findLast: no closure per lookup (the checks look up keys of every entry).
    for (let i = map.items.length - 1; i >= 0; i--) {
      const p = map.items[i];
      if (isPair(p) && keyText(p.key) === key) return p as Pair<Node, Node | null>;
    }
    return null;
  }
  let index = keyIndexes.get(map);
  if (!index || index.items !== map.items || index.length !== map.items.length) {
    const pairs = new Map<string, Pair<Node, Node | null>>();
    for (const p of map.items) if (isPair(p)) pairs.set(keyText(p.key), p as Pair<Node, Node | null>);
    keyIndexes.set(map, (index = { items: map.items, length: map.items.length, pairs }));
  }
  return index.pairs.get(key) ?? null;
}

/** The value node under `key` in `map`; null when there is none. */
export function valueOfKey(map: unknown, key: string): Node | null {
  return pairOfKey(map, key)?.value ?? null;
}

/** Walks the YAML node tree along a data path (map keys and sequence indexes). */
export function nodeAtPath(doc: Document.Parsed, path: readonly (string | number)[]): PathTarget | null {
  let node: unknown = doc.contents;
  let pair: Pair<Node, Node | null> | null = null;
  for (const segment of path) {
    if (isMap(node)) {
      const found = pairOfKey(node, String(segment));
      if (!found) return null;
      pair = found;
      node = found.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)];
      if (item === undefined) return null;
      pair = null;
      node = item;
    } else {
      return null;
    }
  }
  return { node: (node as Node | null) ?? null, pair };
}

/** A map key as the string GitLab's JSON conversion would produce. */
export function keyText(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  return String(key);
}

/** [start, end) offsets of a node's value (without trailing comments), or null when it has none. */
export function nodeSpan(node: Node | null | undefined): [number, number] | null {
  if (!node || !node.range) return null;
  const [start, valueEnd] = node.range;
  return valueEnd > start ? [start, valueEnd] : null;
}
