/**
 * Custom requests, notifications and settings shared by the client and the server: one typed
 * definition each, imported by both sides.
 */

// The protocol imports nothing from the engine or the cluster code, so the client cannot either.
// These types are the engine's by structure: the server passes settings to engine functions, so any
// drift fails to compile there.

/** `proposal` (what GitLab ships plus the `rules` design) or `gitlab` (exactly what GitLab ships). */
export type CompatibilityTarget = 'proposal' | 'gitlab';
/** What the `rules` design does when an entry has rules and none matches. */
export type NoRuleMatchBehaviour = 'deny' | 'allow';
/** What happens to a resolved namespace longer than 63 characters. */
export type OverlongNamespacePolicy = 'error' | 'truncate';
/** GitLab's deployment tiers. */
export type EnvironmentTierSetting = 'production' | 'staging' | 'testing' | 'development' | 'other';

/** One CI scenario of the settings (`gitlabAgentConfig.scenarios`), or a built-in one. */
export interface ScenarioSetting {
  readonly name: string;
  readonly ref: string;
  readonly isTag?: boolean;
  readonly isMergeRequest?: boolean;
  readonly protectedRef?: boolean;
  /** Merge request scenarios: the project setting `protect_merge_request_pipelines`, a protected target branch, a fork. */
  readonly protectMergeRequestPipelines?: boolean;
  readonly mergeRequestTargetProtected?: boolean;
  readonly fromFork?: boolean;
  readonly environmentName?: string;
  readonly environmentTier?: EnvironmentTierSetting;
  readonly pipelineSource?: string;
  readonly userLogin?: string;
  readonly variables?: Readonly<Record<string, string>>;
  readonly projectPath?: string;
}

/** The settings section the client exposes under `gitlabAgentConfig.*`. */
export const SETTINGS_SECTION = 'gitlabAgentConfig';

/** Settings the server reads (workspace/configuration). */
export interface ServerSettings {
  readonly target: CompatibilityTarget;
  /** The GitLab release (`major.minor`, 16.0 to the newest documented) the files are checked for. */
  readonly gitlabVersion: string;
  /** Security lint codes (`security.*`) silenced for the whole workspace. */
  readonly disabledLints: readonly string[];
  /** The projects' default branch used by scenarios. */
  readonly defaultBranch: string;
  /** Include the built-in scenarios in the active set. */
  readonly usePresetScenarios: boolean;
  /** The user's own scenarios. */
  readonly scenarios: readonly ScenarioSetting[];
  readonly noRuleMatch: NoRuleMatchBehaviour;
  readonly overlongNamespace: OverlongNamespacePolicy;
  /** Full path of the agent configuration project; empty = from the git remote. */
  readonly configProjectPath: string;
  /** More agent configurations (paths, relative to the pipeline's folder) whose contexts `.gitlab-ci.yml` jobs may get: agents configured in other projects. */
  readonly agentConfigs: readonly string[];
  /** Full path of the project whose `.gitlab-ci.yml` is mapped; empty = from its git remote. */
  readonly pipelineProjectPath: string;
}

export const DEFAULT_SETTINGS: ServerSettings = {
  target: 'proposal',
  // engine/gitlab/gitlabVersions.ts NEWEST_GITLAB_VERSION (a unit test keeps them equal).
  gitlabVersion: '19.5',
  disabledLints: [],
  defaultBranch: 'main',
  usePresetScenarios: true,
  scenarios: [],
  noRuleMatch: 'deny',
  overlongNamespace: 'error',
  configProjectPath: '',
  agentConfigs: [],
  pipelineProjectPath: '',
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
  /** Why the job gets no access; null when authorized. */
  readonly denial: string | null;
  readonly explanation: readonly string[];
  /** The entry simulated, as the view labels its row: `project acme/web`, `group acme`, `instance`. */
  readonly entry: string;
  /** What decided the outcome (0-based line): the rule that matched, else the winning entry, else this row's entry. */
  readonly decidedLine: number | null;
  /** How the job acts in the cluster (`access_as`); null when denied. */
  readonly accessAs: 'agent' | 'ci_job' | 'impersonate' | null;
  /** The identity × namespace the RBAC check asks about ({@link SIMULATION_ACCESS_REQUEST}); null when denied or acting as the agent. */
  readonly accessKey: string | null;
}

export interface SimulateResult {
  readonly agent: string;
  readonly context: string;
  /** Where the configuration project in `context` comes from; null: unknown, `context` holds a placeholder. */
  readonly contextSource: 'setting' | 'git remote' | null;
  /** The cluster {@link SIMULATION_ACCESS_REQUEST} would ask, or why none can be asked. */
  readonly cluster: { readonly context: string | null } | { readonly unavailable: string };
  readonly scenarios: readonly string[];
  readonly rows: readonly SimulationRow[];
}

/**
 * `gitlabAgentConfig/simulationAccess`: the RBAC preview for the results view — what the connected
 * cluster lets each identity × namespace (a row's `accessKey`) do, asked once per key in one bounded
 * batch when the user asks, never while typing.
 */
export const SIMULATION_ACCESS_REQUEST = 'gitlabAgentConfig/simulationAccess';

export interface SimulationAccessParams {
  readonly uri: string;
  /** The keys to ask about (the rows shown); keys the current simulation no longer gives are ignored. */
  readonly keys: readonly string[];
}

export interface SimulationAccessAnswer {
  readonly key: string;
  /** true: `text` is the cluster's summary; false: `text` says why the cluster could not answer. */
  readonly ok: boolean;
  readonly text: string;
  /** The summary's parts (`can deploy`, `cannot read secrets`), for a compact cell; empty when not ok. */
  readonly capabilities: readonly { readonly text: string; readonly allowed: boolean }[];
}

export interface SimulationAccessResult {
  /** Why nothing was asked (no cluster selected, untrusted workspace); null when asked. */
  readonly unavailable: string | null;
  readonly answers: readonly SimulationAccessAnswer[];
  /** Keys left unasked to keep the batch bounded. */
  readonly skipped: number;
}

/**
 * `gitlabAgentConfig/scenarios` (no params): the active CI scenarios, in the order the server
 * simulates them (the built-in ones unless turned off, then the user's), so every face shows them alike.
 */
export const SCENARIOS_REQUEST = 'gitlabAgentConfig/scenarios';

export interface ScenariosResult {
  readonly scenarios: readonly ScenarioSetting[];
}

/**
 * `gitlabAgentConfig/pipelineJobs` (params: the agent config's `uri`): the jobs of the pipeline beside
 * the agent (`<repository>/.gitlab-ci.yml`) that would get this agent's context, per pipeline
 * situation — the access map (`agentcfg pipeline`) seen from the agent's side.
 */
export const PIPELINE_JOBS_REQUEST = 'gitlabAgentConfig/pipelineJobs';

export interface PipelineJobsParams {
  readonly uri: string;
}

export interface PipelineJobRow {
  readonly job: string;
  readonly scenario: string;
  /** `depends`: on changed files (`rules:changes`/`exists`) or on the project. */
  readonly runs: boolean | 'depends';
  readonly when: string;
  readonly environment: string | null;
  readonly authorized: boolean;
  readonly namespace: string | null;
  readonly identity: string | null;
  /** Why the job gets no context from this agent; null when authorized. */
  readonly reason: string | null;
  /** GitLab prepares a managed environment for the job before it starts. */
  readonly managedEnvironment: boolean;
  /** The job's line in the pipeline file (0-based). */
  readonly line: number;
}

export interface PipelineJobsResult {
  /** The pipeline file's path relative to the repository root; null when there is none. */
  readonly pipeline: string | null;
  /** The project the pipeline runs in. */
  readonly project: string;
  readonly rows: readonly PipelineJobRow[];
}

/** Client command ids the server's code lenses invoke. */
export const SHOW_SIMULATION_COMMAND = 'gitlabAgentConfig.simulate';

/**
 * `gitlabAgentConfig/accessDiff`: what the change from a base version (a branch) to the current one
 * does to CI/CD access — the same diff as `agentcfg diff --base`. The client reads both versions
 * (the base through the git extension); the server compares them with the editor's settings.
 */
export const ACCESS_DIFF_REQUEST = 'gitlabAgentConfig/accessDiff';

/** One agent file (`.gitlab/agents/<agent>/config.yaml` or `environment_templates/default.yaml`) in both versions. */
export interface AccessDiffFile {
  /** Relative to the repository root, `/`-separated. */
  readonly path: string;
  /** null: the version has no such file (an agent added or deleted). */
  readonly before: string | null;
  readonly after: string | null;
}

export interface AccessDiffParams {
  /** What the base is called (a branch name), for the titles. */
  readonly base: string;
  /** The repository root, as a `file:` URI (the agent configuration project comes from its git remote unless set). */
  readonly rootUri: string;
  readonly files: readonly AccessDiffFile[];
}

/** A code lens above an entry or rule of the current version that changes access. */
export interface AccessDiffLens {
  /** Relative to the repository root. */
  readonly path: string;
  /** 0-based line in the current version. */
  readonly line: number;
  readonly title: string;
}

export interface AccessDiffResult {
  /** Number of changed job situations; 0 when nothing changes. */
  readonly count: number;
  /** The summary line and table `agentcfg diff --format markdown` prints ('' when nothing changes). */
  readonly markdown: string;
  readonly lenses: readonly AccessDiffLens[];
}

/**
 * Every custom request above as a typed pair, method → params and result (`void`: none). The client
 * sends through client/src/customRequests.ts and the server answers through lsp/customRequests.ts,
 * both typed by this map, so a call or a handler that drifts from it does not compile.
 */
export interface CustomRequests {
  [SIMULATE_REQUEST]: { params: SimulateParams; result: SimulateResult };
  [SIMULATION_ACCESS_REQUEST]: { params: SimulationAccessParams; result: SimulationAccessResult };
  [SCENARIOS_REQUEST]: { params: void; result: ScenariosResult };
  [PIPELINE_JOBS_REQUEST]: { params: PipelineJobsParams; result: PipelineJobsResult };
  [ACCESS_DIFF_REQUEST]: { params: AccessDiffParams; result: AccessDiffResult };
}

/** The cluster commands (workspace/executeCommand): ids, arguments and results, defined in one module. */
export * from './cluster';
