import { readFile } from 'node:fs/promises';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { prepareEnvironment, type PreparedEnvironment } from '../../cluster/apply/environment';
import { ENVIRONMENT_TIERS, type EnvironmentTier } from '../../engine/api';
import { localFilePath } from '../uriPaths';
import { integer, record, text } from './args';
import { InvalidArguments } from './commandRouter';
import type { ClusterCommandResult, EnvironmentScenarioArgs } from '../../protocol/cluster';

/** Reads {@link EnvironmentScenarioArgs}, every field checked. */
export function readScenario(value: unknown): EnvironmentScenarioArgs {
  const s = record(value, '"scenario"');
  const tier = text(s, 'environmentTier', { optional: true });
  // Refused, not dropped: without it the template would render with the tier GitLab guesses.
  if (tier !== undefined && !ENVIRONMENT_TIERS.includes(tier as EnvironmentTier)) throw new InvalidArguments(`"environmentTier" must be one of ${ENVIRONMENT_TIERS.join(', ')}`);
  return {
    agentName: text(s, 'agentName'),
    agentId: integer(s, 'agentId'),
    projectId: integer(s, 'projectId'),
    projectPath: text(s, 'projectPath'),
    environmentName: text(s, 'environmentName'),
    ...(tier ? { environmentTier: tier } : {}),
    ...optional('agentProjectPath', text(s, 'agentProjectPath', { optional: true })),
    ...optional('scenarioName', text(s, 'scenarioName', { optional: true })),
    ...optional('ref', text(s, 'ref', { optional: true })),
    ...optional('userLogin', text(s, 'userLogin', { optional: true })),
    ...optional('environmentId', integer(s, 'environmentId', { optional: true })),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * The template text: the open document when the editor has it (so unsaved edits are what gets
 * applied, as the diff shows), else the file; no URI means GitLab's built-in default (docs/gitlab-behaviour.md#built-in-default-template).
 */
async function templateText(documents: TextDocuments<TextDocument>, uri: string | undefined): Promise<{ text?: string; source: string } | string> {
  if (!uri) return { source: "GitLab's built-in default template" };
  const open = documents.get(uri);
  const path = localFilePath(uri);
  if (path === null) return open ? { text: open.getText(), source: uri } : `The template ${uri} is not a file URI and is not open in the editor.`;
  if (open) return { text: open.getText(), source: path };
  try {
    return { text: await readFile(path, 'utf8'), source: path };
  } catch (err) {
    return `Cannot read the template ${path}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * GitLab's render flow for one scenario (docs/gitlab-behaviour.md#template-variables-and-functions, docs/gitlab-behaviour.md#managed-resources-flow) through the cluster engine's
 * prepareEnvironment: template data, the rendered template, the decorated objects and their
 * inventory. Render errors point at the template's file, line and column.
 */
export async function prepareForScenario(
  documents: TextDocuments<TextDocument>,
  templateUri: string | undefined,
  scenario: EnvironmentScenarioArgs,
  agentNamespace: string | undefined,
): Promise<{ environment: PreparedEnvironment; source: string } | ClusterCommandResult<never>> {
  const template = await templateText(documents, templateUri);
  if (typeof template === 'string') return { ok: false, kind: 'templateError', message: template };
  const prepared = prepareEnvironment({
    ...(template.text !== undefined ? { templateText: template.text } : {}),
    scenario: {
      name: scenario.scenarioName,
      projectPath: scenario.projectPath,
      projectId: scenario.projectId,
      environmentName: scenario.environmentName,
      ref: scenario.ref ?? 'main',
      defaultBranch: 'main',
      ...(scenario.environmentTier ? { environmentTier: scenario.environmentTier as EnvironmentTier } : {}),
      ...(scenario.userLogin ? { userLogin: scenario.userLogin } : {}),
    },
    ids: {
      agentId: scenario.agentId,
      agentName: scenario.agentName,
      ...(scenario.agentProjectPath ? { agentProjectPath: scenario.agentProjectPath } : {}),
      ...(scenario.environmentId !== undefined ? { environmentId: scenario.environmentId } : {}),
    },
    ...(agentNamespace ? { agentNamespace } : {}),
  });
  if (prepared.ok) return { environment: prepared.environment, source: template.source };
  if (prepared.stage === 'data') return { ok: false, kind: 'templateError', message: prepared.message };
  const lines = prepared.errors.map((e) => `${template.source}:${e.range.start.line + 1}:${e.range.start.character + 1}: ${e.message}`);
  return { ok: false, kind: 'templateError', message: `The template does not render for environment ${scenario.environmentName}:\n${lines.join('\n')}` };
}
