import type { ErrorObject, ValidateFunction } from 'ajv';
import { isMap, isSeq, type Node } from 'yaml';
import type { EngineDiagnostic, Range } from '../diagnostics';
import { closestMatch } from '../text/didYouMean';
import { agentConfigValidator, type FailsLater } from './agentConfigSchema';
import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import type { DeprecatedMarker, NotYetMarker } from './versionedSchema';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';

type DataPath = (string | number)[];

/**
 * Validates the parsed configuration against the JSON Schema and turns every error into a
 * diagnostic on the exact key or value at fault, in words a user can act on. `validate` defaults to
 * the agent configuration's validator; environment templates pass their own.
 */
export function schemaDiagnostics(parsed: ParsedYaml, target: CompatibilityTarget, validate: ValidateFunction = agentConfigValidator(target), value: unknown = parsed.value): EngineDiagnostic[] {
  if (validate(value)) return [];
  const out: EngineDiagnostic[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const diagnostic = describe(error, parsed, target);
    if (!diagnostic) continue;
    const key = `${diagnostic.code}|${diagnostic.range.start.line}:${diagnostic.range.start.character}|${diagnostic.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(diagnostic);
  }
  return out;
}

function describe(error: ErrorObject, parsed: ParsedYaml, target: CompatibilityTarget): EngineDiagnostic | null {
  // An invalid key of a map with `propertyNames` (label and annotation keys): ajv reports the
  // map's path and the key's name; the problem is on the key.
  if (error.propertyName !== undefined) return propertyNameDiagnostic(error, parsed);
  const path = parsePointer(error.instancePath);
  const where = humanPath(path);
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  // Cross-field rules (`if`/`then`) carry their own message on the subschema that fails.
  if (typeof schema?.errorMessage === 'string' && error.keyword !== 'if') {
    const onKey = error.keyword === 'required' ? containerRange(parsed, path) : valueRange(parsed, path);
    return { range: onKey, severity: 'error', code: 'schema.crossField', message: schema.errorMessage };
  }
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      return null; // the failing `then` / key is reported by its own error
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = allowedKeys(schema);
      const suggestion = closestMatch(key, allowed);
      const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
      return {
        range: keyRange(parsed, [...path, key]),
        severity: 'error',
        code: 'schema.unknownKey',
        message: `Unknown key "${key}" ${where ? `in ${where}` : 'at the top level'}.${hint} Allowed keys: ${allowed.join(', ')}.`,
        data: { key, allowed: [...allowed], ...(suggestion ? { suggestion } : {}) },
      };
    }
    case 'x-removed': {
      const removed = error.schema as { since: string; message: string; replacement?: string; renameTo?: string };
      return {
        range: keyRange(parsed, path),
        severity: 'error',
        code: 'schema.removedKey',
        message: removed.message,
        tags: ['deprecated'],
        data: { key: path[path.length - 1], since: removed.since, ...(removed.replacement ? { replacement: removed.replacement } : {}), ...(removed.renameTo ? { renameTo: removed.renameTo } : {}) },
      };
    }
    case 'x-notYet': {
      const { key, added, version } = error.schema as NotYetMarker;
      return {
        range: keyRange(parsed, path),
        severity: 'error',
        code: 'schema.notInVersion',
        message: `"${key}" is not in GitLab ${version}: it was added in ${added}. GitLab ${version} rejects an unknown key, so the agent would not load this configuration (GitLab version setting: ${version}).`,
        data: { key, added, version },
      };
    }
    case 'x-failsLater': {
      const rule = error.schema as FailsLater;
      return { ...valueDiagnostic(parsed, path, 'schema.failsLater', `${subject(where)} ${rule.requirement}: ${rule.when}.`), severity: 'warning' };
    }
    case 'x-deprecated':
      return {
        range: keyRange(parsed, path),
        severity: 'warning',
        code: 'schema.deprecatedKey',
        message: (error.schema as DeprecatedMarker).message,
        tags: ['deprecated'],
        data: { key: path[path.length - 1] },
      };
    case 'x-proposal':
      return {
        range: keyRange(parsed, path),
        severity: 'error',
        code: 'target.unsupportedKey',
        message: `"${path[path.length - 1]}" belongs to the proposed rules design and is not shipped by GitLab: the agent would reject the whole configuration (compatibility target: ${target}).`,
      };
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return {
        range: containerRange(parsed, path),
        severity: 'error',
        code: 'schema.missingKey',
        message: `Missing required key "${missing}" in ${where || 'the configuration'}.`,
        data: { key: missing },
      };
    }
    case 'type': {
      const expected = [(error.params as { type: string | string[] }).type].flat().filter((t) => t !== 'null');
      const article = expected.length === 1 && expected[0] === 'object' ? 'a mapping' : expected.map(typeName).join(' or ');
      return valueDiagnostic(parsed, path, 'schema.type', `${subject(where)} must be ${article}, got ${describeValue(error.data)}.`, { expected });
    }
    case 'enum': {
      // Protobuf enums also accept their numbers (docs/gitlab-behaviour.md#config-file-location-and-parsing); list the values of the kind written.
      const values = (error.params as { allowedValues: unknown[] }).allowedValues;
      const sameKind = values.filter((v) => typeof v === typeof error.data);
      const allowed = (sameKind.length ? sameKind : values).map((v) => JSON.stringify(v));
      const names = values.filter((v): v is string => typeof v === 'string');
      const suggestion = typeof error.data === 'string' ? closestMatch(error.data, names) : null;
      return valueDiagnostic(parsed, path, 'schema.enum', `${subject(where)} must be one of ${allowed.join(', ')}, got ${describeValue(error.data)}.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, suggestion ? { suggestion } : undefined);
    }
    case 'pattern':
      return valueDiagnostic(parsed, path, formatCode(schema), `${subject(where)} ${formatRequirement(schema)}, got ${describeValue(error.data)}.`);
    case 'minLength':
      return valueDiagnostic(parsed, path, 'schema.empty', `${subject(where)} must not be empty.`);
    case 'maxLength':
      return valueDiagnostic(parsed, path, 'schema.tooLong', `${subject(where)} must be at most ${(error.params as { limit: number }).limit} characters, got ${String(error.data).length}.`);
    case 'minProperties':
    case 'maxProperties': {
      const options = Object.keys((schema?.properties as Record<string, unknown>) ?? {});
      if (schema?.['x-oneof']) return valueDiagnostic(parsed, path, 'schema.oneOf', `${subject(where)} must set exactly one of: ${options.join(', ')}.`);
      return valueDiagnostic(parsed, path, 'schema.properties', `${subject(where)} ${error.message ?? 'is invalid'}.`);
    }
    case 'minimum':
    case 'maximum': {
      const { comparison, limit } = error.params as { comparison: string; limit: number };
      return valueDiagnostic(parsed, path, 'schema.range', `${subject(where)} must be ${comparison} ${limit}, got ${describeValue(error.data)}.`);
    }
    case 'minItems':
      return valueDiagnostic(parsed, path, 'schema.minItems', `${subject(where)} must have at least ${(error.params as { limit: number }).limit} item(s).`);
    default:
      return valueDiagnostic(parsed, path, `schema.${error.keyword}`, `${subject(where)} ${error.message ?? 'is invalid'}.`);
  }
}

/** A label or annotation key that breaks Kubernetes' key syntax or uses a reserved prefix. */
function propertyNameDiagnostic(error: ErrorObject, parsed: ParsedYaml): EngineDiagnostic | null {
  if (error.keyword === 'propertyNames') return null;
  const path = parsePointer(error.instancePath);
  const key = String(error.propertyName);
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  const requirement = typeof schema?.errorMessage === 'string' ? schema.errorMessage : formatRequirement(schema);
  return {
    range: keyRange(parsed, [...path, key]),
    severity: 'error',
    code: error.keyword === 'not' ? 'schema.reservedKey' : formatCode(schema),
    message: `The key "${key}" in ${humanPath(path)} ${requirement}.`,
  };
}

/**
 * The keys a mapping's schema allows, once per schema object: the same list for every unknown key
 * of every file, so `closestMatch` remembers its answers for it (a misspelt key comes back in file
 * after file of a batch).
 */
function allowedKeys(schema: Record<string, unknown> | undefined): readonly string[] {
  if (!schema) return [];
  let keys = allowedKeysBySchema.get(schema);
  if (!keys) allowedKeysBySchema.set(schema, (keys = Object.keys((schema.properties as Record<string, unknown>) ?? {}).filter((k) => !isRetired(schema, k))));
  return keys;
}

const allowedKeysBySchema = new WeakMap<Record<string, unknown>, readonly string[]>();

function isRetired(schema: Record<string, unknown> | undefined, key: string): boolean {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Boolean(properties[key]?.['x-removed'] || properties[key]?.['x-notYet']);
}

function valueDiagnostic(parsed: ParsedYaml, path: DataPath, code: string, message: string, data?: Record<string, unknown>): EngineDiagnostic {
  return { range: valueRange(parsed, path), severity: 'error', code, message, ...(data ? { data } : {}) };
}

function formatCode(schema: Record<string, unknown> | undefined): string {
  const format = schema?.['x-format'];
  return typeof format === 'string' ? `schema.format.${format}` : 'schema.pattern';
}

function formatRequirement(schema: Record<string, unknown> | undefined): string {
  if (typeof schema?.patternErrorMessage === 'string') return schema.patternErrorMessage;
  switch (schema?.['x-format']) {
    case 'dns1123Label':
      return 'must be a DNS-1123 label (at most 63 lowercase letters, digits or "-", starting and ending with a letter or digit)';
    case 'duration':
      return 'must be a duration in seconds with an "s" suffix, such as "3600s"';
    default:
      return `must match the pattern ${String(schema?.pattern)}`;
  }
}

function typeName(type: string): string {
  return type === 'integer' ? 'an integer' : type === 'array' ? 'a list' : type === 'object' ? 'a mapping' : `a ${type}`;
}

function subject(where: string): string {
  return where ? `"${where}"` : 'The configuration';
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value)}`;
  return `${typeof value} ${String(value)}`;
}

/** `/ci_access/projects/0/id` → ['ci_access', 'projects', 0, 'id'] (JSON Pointer unescaping). */
export function parsePointer(pointer: string): DataPath {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** ['ci_access', 'projects', 0, 'id'] → `ci_access.projects[0].id`. */
export function humanPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

function fallbackRange(parsed: ParsedYaml): Range {
  return parsed.index.range(0, parsed.index.lineEnd(0));
}

function span(parsed: ParsedYaml, node: Node | null | undefined): Range | null {
  const s = nodeSpan(node);
  return s ? parsed.index.range(s[0], s[1]) : null;
}

/** The key of a mapping entry (for unknown, removed or unsupported keys). */
function keyRange(parsed: ParsedYaml, path: DataPath): Range {
  if (!parsed.doc) return fallbackRange(parsed);
  const target = nodeAtPath(parsed.doc, path);
  return span(parsed, target?.pair?.key as Node | undefined) ?? span(parsed, target?.node) ?? containerRange(parsed, path.slice(0, -1));
}

/**
 * The value at a path. For a value-less key (`key:`) or a mapping/list value that spans several
 * lines, the key: a squiggle over a whole block says less than one on its key.
 */
function valueRange(parsed: ParsedYaml, path: DataPath): Range {
  if (!parsed.doc) return fallbackRange(parsed);
  const target = nodeAtPath(parsed.doc, path);
  const key = target?.pair?.key as Node | undefined;
  if (key && (isMap(target?.node) || isSeq(target?.node))) return span(parsed, key) ?? fallbackRange(parsed);
  return span(parsed, target?.node) ?? span(parsed, target?.pair?.key as Node | undefined) ?? (path.length ? containerRange(parsed, path.slice(0, -1)) : fallbackRange(parsed));
}

/**
 * Where to report a problem with a whole mapping (such as a missing key): the key that holds it,
 * or for a list item the item's first line.
 */
function containerRange(parsed: ParsedYaml, path: DataPath): Range {
  if (!parsed.doc) return fallbackRange(parsed);
  const target = nodeAtPath(parsed.doc, path);
  const key = span(parsed, target?.pair?.key as Node | undefined);
  if (key) return key;
  const node = target?.node;
  if (node && (isMap(node) || isSeq(node)) && node.range) {
    const start = node.range[0];
    const line = parsed.index.positionAt(start).line;
    return parsed.index.range(start, Math.min(node.range[1], parsed.index.lineEnd(line)));
  }
  return span(parsed, node) ?? fallbackRange(parsed);
}
