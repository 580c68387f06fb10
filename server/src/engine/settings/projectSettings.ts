import type { RuleCheckContext } from '../access/ruleDiagnostics';
import { presetScenarios, readJobScenarios, type JobScenario } from '../access/scenarios';
import type { NoRuleMatchBehaviour } from '../access/rules';
import { isCompatibilityTarget, type CompatibilityTarget } from '../gitlab/compatibilityTarget';
import { isGitlabVersion, NEWEST_GITLAB_VERSION, type GitlabVersion } from '../gitlab/gitlabVersions';
import { isSecurityLintCode } from '../config/securityLints';
import type { OverlongNamespacePolicy } from '../vars/namespace';

/**
 * Everything besides the files that decides what the checks and the simulation say. The editor
 * fills it from its settings, the CLI from its flags: the same values give the same answers.
 */
export interface ProjectSettings {
  readonly target: CompatibilityTarget;
  /** The GitLab release the files are checked for (docs/gitlab-behaviour.md#gitlab-versions); default the newest documented. */
  readonly gitlabVersion: GitlabVersion;
  /** Security lint codes silenced for the whole project (docs/gitlab-behaviour.md#security-lints). */
  readonly disabledLints: readonly string[];
  /** The projects' default branch the scenarios assume. */
  readonly defaultBranch: string;
  /** The built-in scenarios come first in the active set unless this is false. */
  readonly usePresetScenarios: boolean;
  /** The user's own scenarios, after the built-in ones. */
  readonly scenarios: readonly JobScenario[];
  readonly noRuleMatch: NoRuleMatchBehaviour;
  readonly overlongNamespace: OverlongNamespacePolicy;
  /** Full path of the project holding `.gitlab/agents/` (found by the face, e.g. from git); '' when unknown. */
  readonly configProjectPath: string;
}

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  target: 'proposal',
  gitlabVersion: NEWEST_GITLAB_VERSION,
  disabledLints: [],
  defaultBranch: 'main',
  usePresetScenarios: true,
  scenarios: [],
  noRuleMatch: 'deny',
  overlongNamespace: 'error',
  configProjectPath: '',
};

/**
 * The settings from their raw form (the `gitlabAgentConfig` section of VS Code settings, or the
 * same keys in a settings file given to the CLI). Every value is checked, settings are user input
 * too: a missing or malformed one takes its default.
 */
export function readProjectSettings(raw: Partial<Record<string, unknown>>): ProjectSettings {
  const d = DEFAULT_PROJECT_SETTINGS;
  const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v.trim() : fallback);
  return {
    target: isCompatibilityTarget(raw.target) ? raw.target : d.target,
    gitlabVersion: isGitlabVersion(raw.gitlabVersion) ? raw.gitlabVersion : d.gitlabVersion,
    disabledLints: Array.isArray(raw.disabledLints) ? raw.disabledLints.filter(isSecurityLintCode) : d.disabledLints,
    defaultBranch: text(raw.defaultBranch, d.defaultBranch) || d.defaultBranch,
    usePresetScenarios: typeof raw.usePresetScenarios === 'boolean' ? raw.usePresetScenarios : d.usePresetScenarios,
    scenarios: readJobScenarios(raw.scenarios),
    noRuleMatch: raw.noRuleMatch === 'allow' ? 'allow' : 'deny',
    overlongNamespace: raw.overlongNamespace === 'truncate' ? 'truncate' : 'error',
    configProjectPath: text(raw.configProjectPath, ''),
  };
}

/** The agent name simulated for a configuration outside `.gitlab/agents/<agent>/`. */
export const UNNAMED_AGENT = 'agent';

/** The active scenarios, in the one order every face shows: the built-in ones, then the user's. */
export function activeScenarios(settings: ProjectSettings): JobScenario[] {
  return [...(settings.usePresetScenarios ? presetScenarios(settings.defaultBranch) : []), ...settings.scenarios];
}

/** Which agent is simulated (name from its folder) and how: the context of the rule checks and the simulation. */
export function scenarioContext(settings: ProjectSettings, agentName: string): RuleCheckContext {
  return {
    agent: { configProjectPath: settings.configProjectPath, name: agentName },
    scenarios: activeScenarios(settings),
    defaultBranch: settings.defaultBranch,
    options: { target: settings.target, gitlabVersion: settings.gitlabVersion, noRuleMatch: settings.noRuleMatch, overlongNamespace: settings.overlongNamespace },
  };
}
