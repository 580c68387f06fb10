import type { SchemaNode } from './schemaLookup';

/**
 * The value as protojson sees it (docs/gitlab-behaviour.md#empty-values): a field whose JSON value is
 * null is skipped as if it were absent (`ci_access:` with every entry commented out, `environments:`
 * with nothing under it), while a null list item or map value stays and fails. Only fields the
 * schema knows are dropped: protojson looks the name up first, so an unknown key is an error even
 * when its value is null.
 */
export function withoutNullFields(value: unknown, schema: SchemaNode | undefined): unknown {
  if (Array.isArray(value)) {
    const items = schema?.items as SchemaNode | undefined;
    return value.map((item) => withoutNullFields(item, items));
  }
  if (typeof value !== 'object' || value === null) return value;
  const properties = schema?.properties as Record<string, SchemaNode> | undefined;
  const additional = schema?.additionalProperties;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const fieldSchema = properties?.[key];
    if (field === null && fieldSchema && isField(fieldSchema)) continue;
    out[key] = withoutNullFields(field, fieldSchema ?? (typeof additional === 'object' && additional !== null ? (additional as SchemaNode) : undefined));
  }
  return out;
}

/** A key the version parses (not one it has yet to add or has removed). */
function isField(schema: SchemaNode): boolean {
  return !schema['x-notYet'] && !schema['x-removed'];
}
