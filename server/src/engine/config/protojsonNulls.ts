import type { SchemaNode } from './schemaNode';

/**
 * The value as protojson sees it (docs/gitlab-behaviour.md#empty-values): a field whose JSON value is
 * null is skipped as if it were absent (`ci_access:` with every entry commented out, `environments:`
 * with nothing under it), while a null list item or map value stays and fails. Only fields the
 * schema knows are dropped: protojson looks the name up first, so an unknown key is an error even
 * when its value is null.
 */
export function withoutNullFields(value: unknown, schema: SchemaNode | undefined): unknown {
  // Copy on write: the value itself where nothing is dropped below it (most entries of most files),
  // so checking a big file does not copy every entry. Nothing writes to what this returns.
  if (Array.isArray(value)) {
    const items = schema?.items as SchemaNode | undefined;
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = withoutNullFields(value[i], items);
      if (item !== value[i]) out ??= value.slice(0, i);
      out?.push(item);
    }
    return out ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const properties = schema?.properties as Record<string, SchemaNode> | undefined;
  const additional = schema?.additionalProperties;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let out: Record<string, unknown> | null = null;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    const field = record[key];
    const fieldSchema = properties?.[key];
    const dropped = field === null && fieldSchema !== undefined && isField(fieldSchema);
    const kept = dropped ? undefined : withoutNullFields(field, fieldSchema ?? (typeof additional === 'object' && additional !== null ? (additional as SchemaNode) : undefined));
    // A `__proto__` key is copied as before (by assignment, which sets the copy's prototype).
    if (!out && (dropped || kept !== field || key === '__proto__')) {
      out = {};
      for (let j = 0; j < k; j++) out[keys[j]] = record[keys[j]];
    }
    if (out && !dropped) out[key] = kept;
  }
  return out ?? value;
}

/** A key the version parses (not one it has yet to add or has removed). */
function isField(schema: SchemaNode): boolean {
  return !schema['x-notYet'] && !schema['x-removed'];
}
