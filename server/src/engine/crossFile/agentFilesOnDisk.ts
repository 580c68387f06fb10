import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { presetScenarios } from '../access/scenarios';
import { parseYaml, type ParsedYaml } from '../config/yamlDocument';
import type { EngineDiagnostic } from '../diagnostics';
import { configCrossFileDiagnostics, templateCrossFileDiagnostics, type AgentFiles } from './agentFiles';

/** The default branch the command line assumes for its scenarios (the editor's setting defaults to it too). */
const DEFAULT_BRANCH = 'main';

async function firstReadable(candidates: readonly string[]): Promise<string | null> {
  for (const file of candidates) {
    try {
      return await readFile(file, 'utf8');
    } catch {
      // try the next spelling
    }
  }
  return null;
}

/**
 * The cross-file checks for a file on disk (the command line's view): the sibling is read from the
 * agent's directory, the scenarios are the presets.
 */
export async function agentFilesOnDisk(file: string, agentName: string): Promise<{ configDiagnostics(config: ParsedYaml): EngineDiagnostic[]; templateDiagnostics(text: string): EngineDiagnostic[] }> {
  const isTemplate = path.basename(path.dirname(file)) === 'environment_templates';
  const agentDir = isTemplate ? path.dirname(path.dirname(file)) : path.dirname(file);
  const base = { agentName, scenarios: presetScenarios(DEFAULT_BRANCH), defaultBranch: DEFAULT_BRANCH };
  if (isTemplate) {
    const configText = await firstReadable(['config.yaml', 'config.yml'].map((n) => path.join(agentDir, n)));
    const config = configText === null ? null : parseYaml(configText);
    return { configDiagnostics: () => [], templateDiagnostics: (text) => templateCrossFileDiagnostics({ ...base, config, templateText: text } satisfies AgentFiles) };
  }
  const templateText = await firstReadable(['default.yaml', 'default.yml'].map((n) => path.join(agentDir, 'environment_templates', n)));
  return { configDiagnostics: (config) => configCrossFileDiagnostics({ ...base, config, templateText } satisfies AgentFiles), templateDiagnostics: () => [] };
}
