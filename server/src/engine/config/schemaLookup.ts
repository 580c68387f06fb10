import { agentConfigSchema } from './agentConfigSchema';
import type { SchemaNode } from './schemaNode';

/** The schema that describes the value at a data path, or null when the path leaves the schema. */
export function schemaAtPath(path: readonly (string | number)[], root: SchemaNode = agentConfigSchema): SchemaNode | null {
  let schema: SchemaNode | null = root;
  for (const segment of path) {
    if (!schema) return null;
    if (typeof segment === 'number') {
      schema = (schema.items as SchemaNode | undefined) ?? null;
    } else {
      const properties = schema.properties as Record<string, SchemaNode> | undefined;
      const additional: unknown = schema.additionalProperties;
      schema = properties?.[segment] ?? (typeof additional === 'object' && additional !== null ? (additional as SchemaNode) : null);
    }
  }
  return schema;
}

/** Markdown documentation of a key: what it does, its type and allowed values, default, version. */
export function describeKey(name: string, schema: SchemaNode): string {
  const parts = [`**${name}**`];
  const text = (schema.markdownDescription ?? schema.description) as string | undefined;
  if (text) parts.push(text);
  const type = schema.type;
  const details: string[] = [];
  if (type) details.push(`Type: \`${[type].flat().join(' | ')}\``);
  if (Array.isArray(schema.enum)) details.push(`Values: ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (details.length) parts.push(details.join(' · '));
  return parts.join('\n\n');
}
