import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import { describeKey } from '../config/schemaLookup';
import type { SchemaNode } from '../config/schemaNode';
import { enumNames, itemSkeleton, keySnippet, objectBody, previewBlock, TabStops } from './snippets';
import { sortKey, type CompletionCandidate } from './types';
import type { DataPath } from './yamlContext';

/** The part of a key context that key completion needs. */
export interface KeyPlace {
  readonly path: DataPath;
  readonly existingKeys: ReadonlySet<string>;
  readonly replace: readonly [number, number];
  readonly column: number;
  readonly newItem: boolean;
  /** Only the key's name is replaced (its `:` and value are already there). */
  readonly keyOnly?: boolean;
  /** The edit starts at the line start: the key is inserted with `column` spaces before it. */
  readonly reindent?: boolean;
  /** A new item of the enclosing list can start here (the cursor is at its dash column). */
  readonly nextItem?: { readonly path: DataPath; readonly dashColumn: number };
}

/** A skeleton that ends with the cursor alone on a nested line (`gitlab_workspaces_proxy:⏎  |`). */
const ENDS_ON_EMPTY_BLOCK_LINE = /\n *(?:- )?\$\d+$/;

/** Ranks inside a key list: the item skeleton, required keys, other keys, deprecated keys. */
const RANK = { skeleton: 0, required: 1, key: 2, deprecated: 3 } as const;

/**
 * Keys the schema allows in the map at `place.path` that it does not have yet, each inserting a
 * valid skeleton of its value. Removed keys are not offered (GitLab rejects them), keys of the
 * `rules` proposal only under the `proposal` target; deprecated keys are offered, tagged.
 */
export function keyCandidates(schema: SchemaNode, place: KeyPlace, target: CompatibilityTarget): CompletionCandidate[] {
  const properties = schema.properties as Record<string, SchemaNode> | undefined;
  if (!properties) return [];
  // A protobuf oneof (access_as) holds exactly one key.
  if (schema['x-oneof'] && place.existingKeys.size > 0) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: CompletionCandidate[] = [];

  // Previews show the inserted lines where they will stand (after `- ` for a new list item).
  const lead = place.newItem ? `${' '.repeat(Math.max(0, place.column - 2))}- ` : ' '.repeat(place.column);
  const skeleton = place.newItem && place.existingKeys.size === 0 && !place.keyOnly ? itemSkeleton(place.path) : null;
  if (skeleton) {
    const insertText = objectBody(schema, skeleton.keys, place.column, place.path, new TabStops());
    out.push({
      label: skeleton.label,
      kind: 'skeleton',
      insertText,
      snippet: true,
      replace: place.replace,
      sortText: sortKey(RANK.skeleton, 0),
      filterText: skeleton.keys[0],
      detail: skeleton.keys.join(', '),
      documentation: `${(schema.markdownDescription ?? schema.description ?? '') as string}${previewBlock(insertText, lead)}`,
      preselect: true,
    });
  }

  // At the list's indentation after an entry (Enter keeps the dash's column): a whole new entry, dash included.
  const nextSkeleton = place.nextItem && place.reindent ? itemSkeleton(place.nextItem.path) : null;
  if (place.nextItem && nextSkeleton) {
    const column = place.nextItem.dashColumn + 2;
    const insertText = `${' '.repeat(place.nextItem.dashColumn)}- ${objectBody(schema, nextSkeleton.keys, column, place.nextItem.path, new TabStops())}`;
    out.push({
      label: nextSkeleton.label,
      kind: 'skeleton',
      insertText,
      snippet: true,
      replace: place.replace,
      sortText: sortKey(RANK.skeleton, 0),
      filterText: nextSkeleton.keys[0],
      detail: `new entry: ${nextSkeleton.keys.join(', ')}`,
      documentation: `${(schema.markdownDescription ?? schema.description ?? '') as string}${previewBlock(insertText, '')}`,
    });
  }

  for (const [i, [name, property]] of Object.entries(properties).entries()) {
    if (place.existingKeys.has(name) || property['x-removed'] || property['x-notYet']) continue;
    const proposal = property['x-proposal'] === true;
    if (proposal && target === 'gitlab') continue;
    const deprecated = typeof property.deprecationMessage === 'string';
    const rank = deprecated ? RANK.deprecated : required.has(name) ? RANK.required : RANK.key;
    const insertText = place.keyOnly ? name : keySnippet(name, property, place.column, place.path, new TabStops());
    out.push({
      label: name,
      kind: 'key',
      insertText: place.reindent ? ' '.repeat(place.column) + insertText : insertText,
      // The editor filters on the text from the edit's start, leading spaces skipped.
      ...(place.reindent ? { filterText: name } : {}),
      snippet: !place.keyOnly,
      replace: place.replace,
      sortText: sortKey(rank, i),
      detail: keyDetail(property, required.has(name), proposal),
      documentation: describeKey(name, property) + previewBlock(insertText, lead),
      ...(deprecated ? { deprecated: true } : {}),
      ...(ENDS_ON_EMPTY_BLOCK_LINE.test(insertText) ? { suggestAgain: true } : {}),
    });
  }
  return out;
}

function keyDetail(property: SchemaNode, required: boolean, proposal: boolean): string {
  const parts: string[] = [];
  const type = property.type;
  if (type) parts.push([type].flat().join(' | '));
  if (required) parts.push('required');
  if (typeof property['x-since'] === 'string') parts.push(`GitLab ${property['x-since']}+`);
  if (proposal) parts.push('proposed rules design (gitlab-agent MR !714), not shipped by GitLab');
  return parts.join(' · ');
}

/** The part of a value context that value completion needs. */
export interface ValuePlace {
  readonly replace: readonly [number, number];
}

/**
 * Values the schema names for a scalar: enum members and booleans, the default first (marked
 * preselected), then the others in the schema's order; for free values, the default alone.
 */
export function valueCandidates(schema: SchemaNode, place: ValuePlace): CompletionCandidate[] {
  const type = [schema.type].flat();
  const values: unknown[] = Array.isArray(schema.enum) ? enumNames(schema.enum) : type.includes('boolean') ? [true, false] : schema.default !== undefined && typeof schema.default !== 'object' && schema.default !== '' ? [schema.default] : [];
  const fallback = type.includes('boolean') && schema.default === undefined ? undefined : schema.default;
  const descriptions = (schema.markdownEnumDescriptions ?? schema.enumDescriptions) as string[] | undefined;
  return values.map((value, i) => {
    const isDefault = fallback !== undefined && value === fallback;
    const text = String(value);
    const own = Array.isArray(schema.enum) ? descriptions?.[schema.enum.indexOf(value)] : undefined;
    const documentation = own ?? (typeof schema.markdownDescription === 'string' ? schema.markdownDescription : undefined);
    return {
      label: text,
      kind: 'value' as const,
      insertText: text,
      snippet: false,
      replace: place.replace,
      sortText: sortKey(isDefault ? 0 : 1, i),
      ...(isDefault ? { detail: 'default', preselect: true } : {}),
      ...(documentation ? { documentation } : {}),
    };
  });
}

