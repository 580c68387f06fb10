import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type Connection,
  type TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { activeScenarios, classifyPath, type JobScenario } from '../engine/api';
import { agentConfigContext, completeAgentConfig, completeEnvironmentTemplate, indexIds, isIdValue, type CandidateKind, type CompletionCandidate, type ScenarioEnvironment, type ScenarioVariableName } from '../engine/api/editor';
import type { DocumentModels } from './documentModels';
import type { SettingsStore } from './settings';
import { documentPath } from './uriPaths';
import type { WorkspaceIds } from './workspaceIds';

/** Characters after which the editor asks for completion without Ctrl+Space. */
export const COMPLETION_TRIGGER_CHARACTERS = ['$', '{', '.', ' ', '=', '~', '&', '|'];

const NO_IDS = indexIds(new Map());

const KIND: Readonly<Record<CandidateKind, CompletionItemKind>> = {
  key: CompletionItemKind.Property,
  skeleton: CompletionItemKind.Snippet,
  value: CompletionItemKind.EnumMember,
  variable: CompletionItemKind.Variable,
  operator: CompletionItemKind.Operator,
  function: CompletionItemKind.Function,
  keyword: CompletionItemKind.Keyword,
  field: CompletionItemKind.Field,
  id: CompletionItemKind.Reference,
};

/**
 * `textDocument/completion` for agent configurations and environment templates: a thin adapter over
 * engine/completion, answered from the cached parse (no validation on this path).
 */
export class CompletionFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly workspaceIds: WorkspaceIds,
  ) {
    connection.onCompletion((params) => this.complete(params.textDocument.uri, params.position));
  }

  private async complete(uri: string, position: { line: number; character: number }): Promise<CompletionList | null> {
    const document = this.documents.get(uri);
    if (!document) return null;
    const kind = classifyPath(documentPath(uri)).kind;
    if (kind === 'other') return null;
    const parsed = this.models.get(document);
    const offset = document.offsetAt(position);
    let candidates: CompletionCandidate[];
    if (kind === 'environmentTemplate') {
      candidates = completeEnvironmentTemplate(parsed.text, parsed.index, parsed.doc, offset);
    } else {
      const settings = await this.settings.get();
      // The model's text as its index keeps it: after an edit of a big config, not joined.
      const context = agentConfigContext(parsed.index.source, parsed.index, parsed.doc, offset);
      // The workspace's ids are gathered only for an `id:` value.
      const knownIds = context && isIdValue(context) ? await this.workspaceIds.current() : NO_IDS;
      const scenarios = activeScenarios(settings);
      const input = { text: parsed.index.source, index: parsed.index, doc: parsed.doc, value: parsed.value, offset, target: settings.target, gitlabVersion: settings.gitlabVersion, scenarioVariables: scenarioVariableNames(scenarios), environments: scenarioEnvironments(scenarios), knownIds };
      candidates = completeAgentConfig(input, context);
    }
    // Complete lists: every candidate for the position is there, the editor filters as the user types.
    return { isIncomplete: false, items: candidates.map((c) => toItem(c, document)) };
  }
}

function toItem(candidate: CompletionCandidate, document: TextDocument): CompletionItem {
  const range = { start: document.positionAt(candidate.replace[0]), end: document.positionAt(candidate.replace[1]) };
  return {
    label: candidate.label,
    kind: KIND[candidate.kind],
    textEdit: { range, newText: candidate.insertText },
    insertTextFormat: candidate.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    // Skeleton lines carry their own indentation.
    ...(candidate.insertText.includes('\n') ? { insertTextMode: InsertTextMode.asIs } : {}),
    sortText: candidate.sortText,
    ...(candidate.filterText !== undefined ? { filterText: candidate.filterText } : {}),
    ...(candidate.detail ? { detail: candidate.detail } : {}),
    ...(candidate.documentation ? { documentation: { kind: MarkupKind.Markdown, value: candidate.documentation } } : {}),
    ...(candidate.deprecated ? { tags: [CompletionItemTag.Deprecated] } : {}),
    ...(candidate.preselect ? { preselect: true } : {}),
    ...(candidate.suggestAgain ? { command: { title: 'Suggest', command: 'editor.action.triggerSuggest' } } : {}),
  };
}

/** The variables the scenarios define, with the scenarios that define them. */
export function scenarioVariableNames(scenarios: readonly JobScenario[]): ScenarioVariableName[] {
  return groupByScenario(scenarios, (s) => Object.keys(s.variables ?? {}));
}

/** The environments the scenarios deploy to, with the scenarios that do. */
export function scenarioEnvironments(scenarios: readonly JobScenario[]): ScenarioEnvironment[] {
  return groupByScenario(scenarios, (s) => (s.environmentName ? [s.environmentName] : []));
}

function groupByScenario(scenarios: readonly JobScenario[], namesOf: (s: JobScenario) => string[]): { name: string; scenarios: string[] }[] {
  const byName = new Map<string, string[]>();
  for (const scenario of scenarios) {
    for (const name of namesOf(scenario)) byName.set(name, [...(byName.get(name) ?? []), scenario.name]);
  }
  return [...byName].map(([name, names]) => ({ name, scenarios: names }));
}
