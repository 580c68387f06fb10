/**
 * Completion for agent configurations and environment templates: what to offer at a position,
 * decided from the cached parse (YAML tree, plain value) without validating anything. Pure: the LSP
 * adapter (lsp/completion.ts) supplies settings-derived inputs and converts the candidates.
 */
import type { Document } from 'yaml';
import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import { expressionDialect, type GitlabVersion } from '../gitlab/gitlabVersions';
import { schemaAtPath } from '../config/schemaLookup';
import type { SchemaNode } from '../config/schemaNode';
import { agentConfigSchemaFor } from '../config/versionedSchema';
import type { TextSource } from '../text/splicedText';
import type { TextIndex } from '../text/textIndex';
import { environmentCandidates, type ScenarioEnvironment } from './environmentCompletion';
import { expressionCandidates } from './expressionCompletion';
import { namespaceCandidates } from './namespaceCompletion';
import { pathPattern } from './snippets';
import { keyCandidates, valueCandidates } from './schemaCompletion';
import type { CompletionCandidate, KnownIds, ScenarioVariableName } from './types';
import { idCandidates } from './workspaceIds';
import { completionContextAt, type DataPath, type YamlCompletionContext } from './yamlContext';

export { completeEnvironmentTemplate } from './templateCompletion';
export { idsOfConfig, indexIds } from './workspaceIds';
export type { YamlCompletionContext } from './yamlContext';
export type { ScenarioEnvironment } from './environmentCompletion';
export type { CandidateKind, CompletionCandidate, KnownIds, ScenarioVariableName } from './types';

/** Everything agent-config completion reads. */
export interface AgentConfigCompletionInput {
  /** Read only around `offset`. */
  readonly text: TextSource;
  readonly index: TextIndex;
  readonly doc: Document.Parsed | null;
  /** The document as plain data (for the ids already in a list). */
  readonly value: unknown;
  readonly offset: number;
  readonly target: CompatibilityTarget;
  /** The GitLab release completion offers keys and operators of (default the newest). */
  readonly gitlabVersion?: GitlabVersion;
  readonly scenarioVariables: readonly ScenarioVariableName[];
  /** Environments the active scenarios deploy to, for `environments` filters. */
  readonly environments: readonly ScenarioEnvironment[];
  /** Ids used in the workspace (already gathered by the caller). */
  readonly knownIds: KnownIds;
}

/**
 * Candidates at `input.offset` in an agent configuration: keys (with skeletons), enum and boolean
 * values, CI variables and operators in `if:`, variables in namespaces, ids used elsewhere.
 */
export function completeAgentConfig(
  input: AgentConfigCompletionInput,
  context: YamlCompletionContext | null = agentConfigContext(input.text, input.index, input.doc, input.offset),
): CompletionCandidate[] {
  if (!context) return [];
  const schema = schemaAtPath(context.path, agentConfigSchemaFor(input.gitlabVersion));
  if (!schema) return [];
  if (context.kind === 'key') {
    // `- |` in a list of scalars (`environments`, `resource_types`) is a value, not a key.
    if (context.newItem && !schema.properties) return scalarValueCandidates(input, context, schema);
    return keyCandidates(schema, context, input.target);
  }
  return valueCompletion(input, context, schema);
}

/**
 * The YAML context at an offset, for callers that must prepare inputs only some contexts need (the
 * workspace ids are gathered only for an `id:` value).
 */
export function agentConfigContext(text: TextSource, index: TextIndex, doc: Document.Parsed | null, offset: number): YamlCompletionContext | null {
  return completionContextAt(text, index, doc, offset);
}

/** True when the context is the value of a `projects[].id` or `groups[].id`. */
export function isIdValue(context: YamlCompletionContext): boolean {
  return context.kind === 'value' && ID_PATH.test(pathPattern(context.path));
}

const ID_PATH = /(?:^|\.)(?:ci_access|user_access)\.(projects|groups)\[\]\.id$/;
const ENVIRONMENTS_PATH = /^ci_access\.(?:projects\[\]|groups\[\]|instance)\.environments\[\]$/;

function valueCompletion(input: AgentConfigCompletionInput, context: Extract<YamlCompletionContext, { kind: 'value' }>, schema: SchemaNode): CompletionCandidate[] {
  const format = schema['x-format'];
  if (format === 'ciExpression' || format === 'expandedNamespace' || (format === 'namespace' && defaultNamespaceIsExpanded(input, context.path))) {
    const content = scalarContent(context.text, context.prefix.length);
    if (!content) return [];
    const base = context.start + content.shift;
    return format === 'ciExpression'
      ? expressionCandidates(content.text, content.cursor, base, input.scenarioVariables, expressionDialect(input.gitlabVersion).unaryNot)
      : namespaceCandidates(content.text, content.cursor, base, input.scenarioVariables);
  }
  return scalarValueCandidates(input, context, schema);
}

/** A plain value: an environment filter item, an id used elsewhere, or what the schema names. */
function scalarValueCandidates(input: AgentConfigCompletionInput, context: YamlCompletionContext, schema: SchemaNode): CompletionCandidate[] {
  const pattern = pathPattern(context.path);
  if (ENVIRONMENTS_PATH.test(pattern)) {
    const listed = listAt(input.value, context.path.slice(0, -1)).filter((item): item is string => typeof item === 'string');
    return environmentCandidates(input.environments, new Set(listed), context.replace);
  }
  const id = ID_PATH.exec(pattern);
  if (id) {
    // GitLab compares ids case-insensitively (docs/gitlab-behaviour.md#ci_access-entries).
    const listed = listAt(input.value, context.path.slice(0, -2)).map((entry) => (entry as { id?: unknown } | null)?.id);
    const ids = new Set(listed.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()));
    return idCandidates(id[1] as 'projects' | 'groups', input.knownIds, ids, context.replace);
  }
  return valueCandidates(schema, context);
}

/**
 * The characters of a scalar as GitLab reads them, when they are the characters on screen: a plain
 * scalar, or a quoted one without escapes. `shift` is where they start in the source text.
 */
function scalarContent(source: string, cursor: number): { text: string; cursor: number; shift: number } | null {
  const quote = source[0];
  if (quote === '"' || quote === "'") {
    const closed = source.length > 1 && source.endsWith(quote);
    const inner = source.slice(1, closed ? -1 : undefined);
    if ((quote === '"' && inner.includes('\\')) || (quote === "'" && inner.includes("''"))) return null;
    if (cursor < 1 || cursor > inner.length + 1) return null;
    return { text: inner, cursor: cursor - 1, shift: 1 };
  }
  if (quote === '|' || quote === '>' || quote === '&' || quote === '!' || quote === '*') return null;
  return { text: source, cursor, shift: 0 };
}

/**
 * Whether GitLab expands variables in this `default_namespace`: only when a rule of its entry leads
 * to it, under the `rules` design (docs/gitlab-behaviour.md#ci_access-rules-design); otherwise it is used literally, like the access engine
 * and the semantic tokens treat it.
 */
function defaultNamespaceIsExpanded(input: AgentConfigCompletionInput, path: DataPath): boolean {
  const entry = dataAt(input.value, path.slice(0, -1));
  return input.target === 'proposal' && entry !== null && typeof entry === 'object' && Array.isArray((entry as { rules?: unknown }).rules);
}

/** The list at `path` in the document's data, or an empty one. */
function listAt(value: unknown, path: DataPath): unknown[] {
  const node = dataAt(value, path);
  return Array.isArray(node) ? node : [];
}

function dataAt(value: unknown, path: DataPath): unknown {
  let node: unknown = value;
  for (const segment of path) node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[segment] : undefined;
  return node;
}
