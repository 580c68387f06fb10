import { fileURLToPath } from 'node:url';
import type { RuleCheckContext } from '../engine/access/ruleDiagnostics';
import { presetScenarios, type JobScenario } from '../engine/access/scenarios';
import { classifyPath } from '../engine/files';
import type { ServerSettings } from '../protocol';
import { configProjectPathFromGit } from '../workspace/gitRemote';

/** The active scenario set: the presets (unless turned off) followed by the user's own. */
export function activeScenarios(settings: ServerSettings): JobScenario[] {
  return [...(settings.usePresetScenarios ? presetScenarios(settings.defaultBranch) : []), ...settings.scenarios];
}

const gitCache = new Map<string, string | null>();

/** Which agent a document configures and how to simulate it, from its path and the settings. */
export function simulationContext(uri: string, settings: ServerSettings): RuleCheckContext {
  const file = uri.startsWith('file:') ? fileURLToPath(uri) : new URL(uri).pathname;
  const kind = classifyPath(file);
  let configProjectPath = settings.configProjectPath;
  if (!configProjectPath && uri.startsWith('file:')) {
    if (!gitCache.has(file)) gitCache.set(file, configProjectPathFromGit(file));
    configProjectPath = gitCache.get(file) ?? '';
  }
  return {
    agent: { configProjectPath, name: kind.kind === 'agentConfig' ? kind.agentName : 'agent' },
    scenarios: activeScenarios(settings),
    defaultBranch: settings.defaultBranch,
    options: { target: settings.target, noRuleMatch: settings.noRuleMatch, overlongNamespace: settings.overlongNamespace },
  };
}
