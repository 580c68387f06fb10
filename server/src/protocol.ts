/**
 * Custom requests, notifications and settings shared by the client and the server: one typed
 * definition each, imported by both sides.
 */
import type { CompatibilityTarget } from './engine/config/compatibilityTarget';
import type { JobScenario } from './engine/access/scenarios';
import type { NoRuleMatchBehaviour } from './engine/access/rules';
import type { OverlongNamespacePolicy } from './engine/vars/namespace';

/** The settings section the client exposes under `gitlabAgentConfig.*`. */
export const SETTINGS_SECTION = 'gitlabAgentConfig';

/** Settings the server reads (workspace/configuration). */
export interface ServerSettings {
  readonly target: CompatibilityTarget;
  /** The projects' default branch used by scenarios. */
  readonly defaultBranch: string;
  /** Include the built-in scenarios in the active set. */
  readonly usePresetScenarios: boolean;
  /** The user's own scenarios. */
  readonly scenarios: readonly JobScenario[];
  readonly noRuleMatch: NoRuleMatchBehaviour;
  readonly overlongNamespace: OverlongNamespacePolicy;
  /** Full path of the agent configuration project; empty = from the git remote. */
  readonly configProjectPath: string;
}

export const DEFAULT_SETTINGS: ServerSettings = {
  target: 'proposal',
  defaultBranch: 'main',
  usePresetScenarios: true,
  scenarios: [],
  noRuleMatch: 'deny',
  overlongNamespace: 'error',
  configProjectPath: '',
};

/** Diagnostic `source` shown in the Problems panel. */
export const DIAGNOSTIC_SOURCE = 'gitlab-agent';

/** `gitlabAgentConfig/simulate`: every active scenario against every entry of one config file. */
export const SIMULATE_REQUEST = 'gitlabAgentConfig/simulate';

export interface SimulateParams {
  readonly uri: string;
}

export interface SimulationRow {
  readonly scenario: string;
  readonly project: string;
  /** Where the entry is in the file (0-based line), for "reveal". */
  readonly line: number | null;
  readonly authorized: boolean;
  readonly via: string | null;
  readonly rule: number | null;
  readonly namespace: string | null;
  readonly identity: string | null;
  readonly problems: readonly string[];
  readonly explanation: readonly string[];
}

export interface SimulateResult {
  readonly agent: string;
  readonly context: string;
  readonly scenarios: readonly string[];
  readonly rows: readonly SimulationRow[];
}

/** Client command ids the server's code lenses invoke. */
export const SHOW_SIMULATION_COMMAND = 'gitlabAgentConfig.simulate';

/** The cluster commands (workspace/executeCommand): ids, arguments and results, defined in one module. */
export * from './lsp/cluster/protocol';
