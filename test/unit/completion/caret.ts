import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { completeAgentConfig, completeEnvironmentTemplate, indexIds, type CompletionCandidate, type KnownIds, type ScenarioEnvironment, type ScenarioVariableName } from '../../../server/src/engine/completion';
import { snippetPreview } from '../../../server/src/engine/completion/snippets';
import type { CompatibilityTarget } from '../../../server/src/engine/gitlab/compatibilityTarget';

/** Marks the cursor in test documents (`|` would clash with `||` and template pipes). */
export const CARET = '‸';

/** A document written with {@link CARET} where the cursor is: the text without it and the offset. */
export function caret(source: string): { text: string; offset: number } {
  const offset = source.indexOf(CARET);
  if (offset === -1 || source.indexOf(CARET, offset + 1) !== -1) throw new Error(`mark the cursor with exactly one ${CARET}`);
  return { text: source.slice(0, offset) + source.slice(offset + CARET.length), offset };
}

export interface Options {
  target?: CompatibilityTarget;
  scenarioVariables?: ScenarioVariableName[];
  environments?: ScenarioEnvironment[];
  knownIds?: KnownIds;
}

/** Completion candidates at the caret of an agent configuration. */
export function completeConfig(source: string, options: Options = {}): { candidates: CompletionCandidate[]; text: string; offset: number } {
  const { text, offset } = caret(source);
  const parsed = parseYaml(text);
  const candidates = completeAgentConfig({
    text,
    index: parsed.index,
    doc: parsed.doc,
    value: parsed.value,
    offset,
    target: options.target ?? 'proposal',
    scenarioVariables: options.scenarioVariables ?? [],
    environments: options.environments ?? [],
    knownIds: options.knownIds ?? indexIds(new Map()),
  });
  return { candidates, text, offset };
}

/** Completion candidates at the caret of an environment template. */
export function completeTemplate(source: string): { candidates: CompletionCandidate[]; text: string; offset: number } {
  const { text, offset } = caret(source);
  const parsed = parseYaml(text);
  return { candidates: completeEnvironmentTemplate(text, parsed.index, parsed.doc, offset), text, offset };
}

/** Labels in the order an editor shows them (by sort text, then label). */
export function sortedLabels(candidates: readonly CompletionCandidate[]): string[] {
  return [...candidates].sort((a, b) => a.sortText.localeCompare(b.sortText) || a.label.localeCompare(b.label)).map((c) => c.label);
}

/** The text after accepting a candidate, with snippet placeholders replaced by their defaults. */
export function accept(text: string, candidate: CompletionCandidate): string {
  const inserted = candidate.snippet ? expandSnippet(candidate.insertText) : candidate.insertText;
  return text.slice(0, candidate.replace[0]) + inserted + text.slice(candidate.replace[1]);
}

/** `${1:x}` → x, `${1|a,b|}` → a, `$1`/`$0` → '' (what an editor shows before the user types). */
export const expandSnippet = snippetPreview;
