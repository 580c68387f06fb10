import type { SchemaNode } from '../config/schemaNode';
import { snippetText } from './types';
import type { DataPath } from './yamlContext';

/**
 * Skeletons a key or list item inserts: enough to be valid (every required key, a value of the
 * right type) and no more. Lines after the first carry their absolute indentation, so the adapter
 * inserts them as they are (LSP `insertTextMode: asIs`).
 */

/** Placeholder texts by value format (schema `x-format`) or key, so a skeleton reads like an example. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  namespace: 'namespace',
  ciExpression: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
  expandedNamespace: 'app-$CI_ENVIRONMENT_SLUG',
  cidr: '0.0.0.0/0',
  cron: '0 18 * * *',
  duration: '3600s',
  hostname: 'workspaces.example.dev',
  dns1123Label: 'name',
};

/** Placeholders by the end of the value's path pattern, where the key alone says too little. */
const PATH_PLACEHOLDERS: readonly (readonly [suffix: string, example: string])[] = [
  ['environments[]', 'production'],
  ['objects[].apiVersion', 'v1'],
  // Template values that start with `{{` are quoted: GitLab parses the raw template as YAML (docs/gitlab-behaviour.md#environment-template-file).
  ['objects[].metadata.name', '"{{ .environment.slug }}-{{ .project.id }}"'],
  ['objects[].metadata.namespace', '"{{ .environment.slug }}-{{ .project.id }}"'],
];

/**
 * Keys a new list item starts with beyond the required ones, where the item is almost always written
 * with them: a `ci_access` authorization with its namespace, a rule with its `if` and `namespace`
 * (docs/gitlab-behaviour.md#ci_access-rules-design). Matched on the end of the item's path pattern.
 */
const ITEM_SKELETONS: readonly { readonly suffix: string; readonly keys: readonly string[]; readonly label: string }[] = [
  { suffix: 'ci_access.projects[]', keys: ['id', 'default_namespace', 'access_as'], label: 'project authorization' },
  { suffix: 'ci_access.groups[]', keys: ['id', 'default_namespace', 'access_as'], label: 'group authorization' },
  { suffix: '.rules[]', keys: ['if', 'namespace'], label: 'rule (if, namespace)' },
];

/** `ci_access.projects.3.rules.0` → `ci_access.projects[].rules[]`. */
export function pathPattern(path: DataPath): string {
  return path.map((s) => (typeof s === 'number' ? '[]' : `.${s}`)).join('').replace(/^\./, '');
}

/** The composite skeleton of a new list item at `path`, when one is defined for it. */
export function itemSkeleton(path: DataPath): { readonly keys: readonly string[]; readonly label: string } | null {
  const pattern = pathPattern(path);
  return ITEM_SKELETONS.find((s) => pattern.endsWith(s.suffix)) ?? null;
}

/** Numbers snippet tab stops in insertion order. */
export class TabStops {
  private n = 0;
  next(): number {
    this.n += 1;
    return this.n;
  }
}

const pad = (column: number) => ' '.repeat(column);

/** `name: <value skeleton>` for a key whose line content starts at `column`. */
export function keySnippet(name: string, schema: SchemaNode, column: number, path: DataPath, stops: TabStops): string {
  return `${name}:${valueSkeleton(schema, column, [...path, name], stops)}`;
}

/** The lines of an object's skeleton: `keys` in order, the first without indentation (it follows `- `). */
export function objectBody(schema: SchemaNode, keys: readonly string[], column: number, path: DataPath, stops: TabStops): string {
  const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
  return keys
    .filter((k) => properties[k])
    .map((k, i) => (i === 0 ? '' : pad(column)) + keySnippet(k, properties[k]!, column, path, stops))
    .join('\n');
}

/** What follows `key:` — ` value` on the same line, or a nested block on the next lines. */
export function valueSkeleton(schema: SchemaNode, column: number, path: DataPath, stops: TabStops): string {
  const child = column + 2;
  const properties = schema.properties as Record<string, SchemaNode> | undefined;
  const type = [schema.type].flat();
  if (schema['x-oneof'] && properties) {
    // A protobuf oneof such as access_as: offer the alternatives that need no fields of their own.
    const simple = Object.entries(properties).filter(([, p]) => !(p.required as unknown[] | undefined)?.length).map(([k]) => k);
    return `\n${pad(child)}\${${stops.next()}|${simple.join(',')}|}: {}`;
  }
  if (type.includes('object') && properties && !Object.keys(properties).length) return ' {}';
  if (type.includes('object') && properties) {
    const required = (schema.required as string[] | undefined) ?? [];
    const keys = required.length ? required : Object.keys(properties).length === 1 ? Object.keys(properties) : [];
    if (!keys.length) return `\n${pad(child)}$${stops.next()}`;
    return `\n${pad(child)}${objectBody(schema, keys, child, path, stops)}`;
  }
  if (type.includes('object')) return `\n${pad(child)}\${${stops.next()}:key}: \${${stops.next()}:value}`;
  if (type.includes('array')) {
    const items = (schema.items ?? {}) as SchemaNode;
    const itemPath = [...path, 0];
    if (items.properties) {
      const skeleton = itemSkeleton(itemPath);
      // The required keys make a valid first item (a projects entry: its id); an item without any (a rule)
      // gets its skeleton (if, namespace).
      const keys = (items.required as string[] | undefined) ?? skeleton?.keys ?? [];
      const body = keys.length ? objectBody(items, keys, child + 2, itemPath, stops) : `$${stops.next()}`;
      return `\n${pad(child)}- ${body}`;
    }
    return `\n${pad(child)}- ${scalarSkeleton(items, itemPath, stops)}`;
  }
  return ` ${scalarSkeleton(schema, path, stops)}`;
}

/** A scalar value: a choice for enums and booleans, the default or an example otherwise. */
function scalarSkeleton(schema: SchemaNode, path: DataPath, stops: TabStops): string {
  const type = [schema.type].flat();
  if (Array.isArray(schema.enum)) return choice(enumNames(schema.enum).map(String), stops);
  if (type.includes('boolean')) {
    // Writing a boolean key is almost always done to change it: the non-default value comes first.
    return choice(schema.default === true ? ['false', 'true'] : ['true', 'false'], stops);
  }
  const format = schema['x-format'] as string | undefined;
  const last = path[path.length - 1];
  const hasDefault = schema.default !== undefined && schema.default !== '' && typeof schema.default !== 'object';
  const examples = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [];
  const example = hasDefault ? String(schema.default) : examples.length ? String(examples[0]) : ((format && PLACEHOLDERS[format]) ?? pathPlaceholder(path) ?? (typeof last === 'string' ? last : 'value'));
  const text = `\${${stops.next()}:${snippetText(example)}}`;
  // Durations and cron expressions are quoted: GitLab wants strings, and `*` may not start a plain scalar.
  return format === 'duration' || format === 'cron' ? `"${text}"` : text;
}

function pathPlaceholder(path: DataPath): string | null {
  const pattern = pathPattern(path);
  if (/projects\[\]\.id$/.test(pattern)) return 'group/project';
  if (/groups\[\]\.id$/.test(pattern)) return 'group';
  return PATH_PLACEHOLDERS.find(([suffix]) => pattern.endsWith(suffix))?.[1] ?? null;
}

function choice(values: readonly string[], stops: TabStops): string {
  return `\${${stops.next()}|${values.map((v) => v.replace(/[,|\\$}]/g, '\\$&')).join(',')}|}`;
}

/** Enum members as users write them: protojson also accepts an enum's numbers, which nobody wants offered. */
export function enumNames(members: readonly unknown[]): unknown[] {
  const names = members.filter((m) => typeof m === 'string');
  return names.length ? names : [...members];
}

/** What a snippet inserts with every placeholder at its default (the first choice, the placeholder text). */
export function snippetPreview(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|((?:\\.|[^,|\\])*)[,|][^}]*\}/g, '$1')
    .replace(/\$\{\d+:((?:\\.|[^}\\])*)\}/g, '$1')
    .replace(/\$\d+/g, '')
    .replace(/\\([$}\\,|])/g, '$1');
}

/** Markdown showing the lines a multi-line snippet inserts, after `lead` (e.g. `- `); empty for one-liners. */
export function previewBlock(snippet: string, lead = ''): string {
  if (!snippet.includes('\n')) return '';
  return `\n\n\`\`\`yaml\n${lead}${snippetPreview(snippet)}\n\`\`\``;
}
