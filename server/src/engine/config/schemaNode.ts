/** A node of a JSON schema as the checks and hovers walk it. */
export type SchemaNode = Record<string, unknown>;
