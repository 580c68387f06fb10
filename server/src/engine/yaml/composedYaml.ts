/**
 * What the YAML layer's two readers — the yaml library within bounds (boundedYaml.ts) and the fast
 * reader of block YAML (fastBlockYaml.ts) — both produce, and the duplicate-key pass both run.
 */
import { isPair, isScalar, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions, type YAMLMap } from 'yaml';

export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/** The documents of a text, or where its nesting first goes past the depth bound (boundedYaml.ts). */
export type ComposedYaml =
  | {
      readonly ok: true;
      readonly docs: Document.Parsed[];
      /** Set by the fast reader: the documents, as composed, hold no alias and nest less than the bound. */
      readonly aliasFree?: true;
      /** Set by the fast reader: the first document's data (its `toJS`) and duplicate keys (its `inspectMaps`), read as it was composed. */
      readonly firstDocument?: { readonly value: unknown; readonly duplicateKeys: DuplicateKey[] };
    }
  | { readonly ok: false; readonly tooDeepAt: number };

/** One repeated key of a mapping, by start offsets. */
export interface DuplicateKey {
  readonly start: number;
  readonly first: number;
  readonly last: number;
}

/** Per key value: its start, or its starts once it is repeated (no array for the common, unique key). */
type KeyStarts = Map<unknown, number | number[]>;

/**
 * Adds the duplicate keys of one mapping to `out`, in the library's notion of a duplicate: scalar
 * keys with the same value (===), NaN aside. `keys` is scratch space, cleared here.
 */
export function duplicateKeysOfMap(map: YAMLMap, out: DuplicateKey[], keys: KeyStarts = new Map()): void {
  keys.clear();
  let repeated = false;
  for (const item of map.items) {
    if (!isPair(item) || !isScalar(item.key) || Number.isNaN(item.key.value)) continue;
    const starts = keys.get(item.key.value);
    const start = item.key.range?.[0] ?? 0;
    if (starts === undefined) keys.set(item.key.value, start);
    else if (typeof starts === 'number') {
      keys.set(item.key.value, [starts, start]);
      repeated = true;
    } else starts.push(start);
  }
  if (!repeated) return;
  for (const starts of keys.values()) {
    if (typeof starts === 'number') continue;
    for (let k = 1; k < starts.length; k++) out.push({ start: starts[k], first: starts[0], last: starts[starts.length - 1] });
  }
}
