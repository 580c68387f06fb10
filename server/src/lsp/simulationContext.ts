import type { RuleCheckContext } from '../engine/access/ruleDiagnostics';
import { presetScenarios, type JobScenario } from '../engine/access/scenarios';
import { classifyPath } from '../engine/files';
import type { ServerSettings } from '../protocol';
import { configProjectPathFromGit } from '../workspace/gitRemote';
import { documentPath, localFilePath } from './uriPaths';

/** The active scenario set: the presets (unless turned off) followed by the user's own. */
export function activeScenarios(settings: ServerSettings): JobScenario[] {
  return [...(settings.usePresetScenarios ? presetScenarios(settings.defaultBranch) : []), ...settings.scenarios];
}

/** Project path per config file, from its git remote; bounded (least recently used goes first). */
const gitCache = new Map<string, string | null>();
const GIT_CACHE_SIZE = 64;

function configProjectPathFor(file: string): string | null {
  if (gitCache.has(file)) {
    const hit = gitCache.get(file)!;
    gitCache.delete(file);
    gitCache.set(file, hit);
    return hit;
  }
  const found = configProjectPathFromGit(file);
  gitCache.set(file, found);
  if (gitCache.size > GIT_CACHE_SIZE) gitCache.delete(gitCache.keys().next().value!);
  return found;
}

/** Which agent a document configures and how to simulate it, from its path and the settings. */
export function simulationContext(uri: string, settings: ServerSettings): RuleCheckContext {
  const kind = classifyPath(documentPath(uri));
  let configProjectPath = settings.configProjectPath;
  const local = localFilePath(uri);
  if (!configProjectPath && local !== null) {
    configProjectPath = configProjectPathFor(local) ?? '';
  }
  return {
    agent: { configProjectPath, name: kind.kind === 'agentConfig' ? kind.agentName : 'agent' },
    scenarios: activeScenarios(settings),
    defaultBranch: settings.defaultBranch,
    options: { target: settings.target, noRuleMatch: settings.noRuleMatch, overlongNamespace: settings.overlongNamespace },
  };
}
