/** Plain-data helpers for values that came from YAML or JSON (user input: anything may be there). */

/** A mapping (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a mapping, or null when it is anything else. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return isRecord(value) ? value : null;
}
