/**
 * The cluster commands of the language server (ARCHITECTURE.md: cluster operations run in the server,
 * invoked with `workspace/executeCommand`, reporting `$/progress`, cancellable). One typed definition
 * of every command's argument and result, imported by the server and the VS Code client; other LSP
 * editors call the same commands with the same JSON.
 *
 * Every command takes exactly one argument object and answers a {@link ClusterCommandResult}: results,
 * not exceptions, cross the boundary, each failure with a message written for the user.
 */

/** The command ids the server registers in `executeCommandProvider`. */
export const CLUSTER_COMMANDS = {
  /** {@link ListContextsArgs} → {@link ContextList} */
  listContexts: 'gitlabAgentConfig.server.cluster.listContexts',
  /** {@link PlanApplyArgs} → {@link ApplyPlanView} */
  planApply: 'gitlabAgentConfig.server.cluster.planApply',
  /** {@link PlanDestroyArgs} → {@link DestroyPlanView} */
  planDestroy: 'gitlabAgentConfig.server.cluster.planDestroy',
  /** {@link ExecutePlanArgs} → {@link ExecutionReport} */
  executePlan: 'gitlabAgentConfig.server.cluster.executePlan',
  /** {@link DiscardPlanArgs} → `null` (the user declined) */
  discardPlan: 'gitlabAgentConfig.server.cluster.discardPlan',
  /** {@link ClusterArgs} → {@link ClusterInventory} */
  listClusterObjects: 'gitlabAgentConfig.server.cluster.listClusterObjects',
  /** {@link TerminateWorkspaceArgs} → {@link ExecutionReport} */
  terminateWorkspace: 'gitlabAgentConfig.server.cluster.terminateWorkspace',
  /** {@link WaitForFluxSyncArgs} → {@link ExecutionReport} */
  waitForFluxSync: 'gitlabAgentConfig.server.cluster.waitForFluxSync',
} as const;

export type ClusterCommandId = (typeof CLUSTER_COMMANDS)[keyof typeof CLUSTER_COMMANDS];

/** Each command's argument and result, declared once: the client's calls and the server's handlers are typed by it. */
export interface ClusterCommandTypes {
  [CLUSTER_COMMANDS.listContexts]: { args: ListContextsArgs; result: ContextList };
  [CLUSTER_COMMANDS.planApply]: { args: PlanApplyArgs; result: ApplyPlanView };
  [CLUSTER_COMMANDS.planDestroy]: { args: PlanDestroyArgs; result: DestroyPlanView };
  [CLUSTER_COMMANDS.executePlan]: { args: ExecutePlanArgs; result: ExecutionReport };
  [CLUSTER_COMMANDS.discardPlan]: { args: DiscardPlanArgs; result: null };
  [CLUSTER_COMMANDS.listClusterObjects]: { args: ClusterArgs; result: ClusterInventory };
  [CLUSTER_COMMANDS.terminateWorkspace]: { args: TerminateWorkspaceArgs; result: ExecutionReport };
  [CLUSTER_COMMANDS.waitForFluxSync]: { args: WaitForFluxSyncArgs; result: ExecutionReport };
}

/** The argument a command takes. */
export type ClusterCommandArgs<C extends ClusterCommandId> = ClusterCommandTypes[C]['args'];
/** The value a command answers with when it succeeds. */
export type ClusterCommandValue<C extends ClusterCommandId> = ClusterCommandTypes[C]['result'];

/**
 * `workspace/didChangeWorkspaceTrust`-like notification the client sends when the user trusts the
 * workspace after start-up (the initial state travels in `initializationOptions.workspaceTrusted`).
 */
export const WORKSPACE_TRUST_NOTIFICATION = 'gitlabAgentConfig/workspaceTrust';

export interface WorkspaceTrustParams {
  readonly trusted: boolean;
}

/** What the client passes in `initializationOptions`. */
export interface ClusterInitializationOptions {
  /** Whether the editor trusts the workspace; absent = not trusted, cluster commands refused. */
  readonly workspaceTrusted?: boolean;
  /** The cluster the user works with (the hover's RBAC preview asks it); absent: none. */
  readonly cluster?: ClusterTarget;
}

/**
 * The client tells the server which cluster the user has selected (kubeconfig setting and context),
 * whenever it changes; `null`: none. The RBAC preview of hovers asks that cluster; other editors that
 * never send it get hovers without the preview.
 */
export const CLUSTER_TARGET_NOTIFICATION = 'gitlabAgentConfig/clusterTarget';

export interface ClusterTargetParams {
  readonly cluster: ClusterTarget | null;
}

/** Every custom notification, method → params, typed like the requests (protocol/index.ts CustomRequests). */
export interface CustomNotifications {
  [WORKSPACE_TRUST_NOTIFICATION]: WorkspaceTrustParams;
  [CLUSTER_TARGET_NOTIFICATION]: ClusterTargetParams;
}

/** Which cluster: a kubeconfig (default: `KUBECONFIG` or `~/.kube/config`) and one of its contexts. */
export interface ClusterTarget {
  /** A kubeconfig path; empty or absent: `KUBECONFIG`, then `~/.kube/config`. Never written to. */
  readonly kubeconfigPath?: string;
  /** A context of that kubeconfig; absent: its current-context. */
  readonly context?: string;
}

export interface ClusterArgs {
  readonly cluster: ClusterTarget;
  /** Upper bound of the operation, waits included; absent: the engine's default. */
  readonly timeoutSeconds?: number;
  /** Where the agent runs and keeps the environments' inventories; never deleted. Default `gitlab-agent`. */
  readonly agentNamespace?: string;
}

export type ListContextsArgs = Pick<ClusterTarget, 'kubeconfigPath'>;

export interface KubeContextInfo {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
  /** The API server URL of the context's cluster (no credentials). */
  readonly server?: string;
}

export interface ContextList {
  /** Where the contexts were read from (paths only, never contents). */
  readonly source: string;
  readonly currentContext?: string;
  readonly contexts: readonly KubeContextInfo[];
}

/** The CI situation an environment is rendered for (template data of docs/gitlab-behaviour.md#template-variables-and-functions). */
export interface EnvironmentScenarioArgs {
  /** The agent's name (the folder under `.gitlab/agents/`). */
  readonly agentName: string;
  readonly agentId: number;
  /** Full path of the agent's configuration project (for `.agent.url`). */
  readonly agentProjectPath?: string;
  readonly projectId: number;
  /** Full path of the CI project, e.g. `acme/shop/app`. */
  readonly projectPath: string;
  /** The job's environment name, e.g. `review/feature-x`. */
  readonly environmentName: string;
  readonly environmentTier?: string;
  /** The scenario's name, shown in titles and messages. */
  readonly scenarioName?: string;
  readonly ref?: string;
  readonly environmentId?: number;
  readonly userLogin?: string;
}

export interface PlanApplyArgs extends ClusterArgs {
  /**
   * The environment template: a `file:` URI of `environment_templates/default.yaml`, read from the
   * open document when the editor has it open (unsaved edits included) or from disk; absent: GitLab's
   * built-in default template (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#built-in-default-template).
   */
  readonly templateUri?: string;
  readonly scenario: EnvironmentScenarioArgs;
}

/** What applying does to one object. */
export type PlannedAction = 'create' | 'update' | 'unchanged' | 'prune';

/** Fields other managers own that the apply would take over (server-side apply conflict). */
export interface FieldConflictView {
  /** The field managers named by the API server. */
  readonly managers: readonly string[];
  /** The API server's message (which fields). */
  readonly message: string;
}

export interface PlannedObjectView {
  /** `<kind> <namespace>/<name>` as shown to the user. */
  readonly id: string;
  readonly action: PlannedAction;
  /** The live object (managed fields dropped) as YAML; empty when it does not exist. */
  readonly live: string;
  /** The object as the server-side dry-run says it would be; empty for a prune. */
  readonly proposed: string;
  /** Present when other field managers own fields this apply sets: executing needs `force`. */
  readonly conflict?: FieldConflictView;
}

export interface ApplyPlanView {
  /** Handle for {@link ExecutePlanArgs}; the server keeps the plan, the client never edits it. */
  readonly planId: string;
  readonly title: string;
  readonly objects: readonly PlannedObjectView[];
  /** A unified text diff of the whole plan (what the CLI prints). */
  readonly diff: string;
  /** True when at least one object has a conflict: executing needs `force`. */
  readonly hasConflicts: boolean;
  /** Where the template came from: a file path, or GitLab's built-in default template. */
  readonly templateSource: string;
  /** True when executing would change nothing (the cluster matches the template and the inventory). */
  readonly noop: boolean;
  /** The context and API server the plan was made against (execute refuses another). */
  readonly context: string;
  readonly server: string;
  readonly warnings: readonly string[];
  /**
   * Objects this environment did not create that pruning a namespace would delete with it; executing
   * needs `deleteOthers` (a second, explicit confirmation).
   */
  readonly alsoDeleted: readonly string[];
}

export interface PlanDestroyArgs extends ClusterArgs {
  /** The environment's inventory, found by {@link CLUSTER_COMMANDS.listClusterObjects}. */
  readonly inventory: InventoryRef;
  /** The template's `delete_resources` when known; `never` refuses (docs/gitlab-behaviour.md#environment-template-file). Default `on_stop`. */
  readonly deleteResources?: string;
}

export interface InventoryRef {
  readonly namespace: string;
  readonly name: string;
}

export interface DestroyPlanView {
  readonly planId: string;
  readonly title: string;
  /** What will be deleted, in deletion order (the inventory ConfigMap last). */
  readonly objects: readonly string[];
  /** Tracked objects left alone, with the reason (gone already, or a guard). */
  readonly skipped: readonly string[];
  /** Set when there is nothing to delete (no inventory: never applied, or already deleted). */
  readonly nothingToDelete?: string;
  /**
   * Objects this environment did not create that deleting its namespace deletes too; executing needs
   * `deleteOthers` (a second, explicit confirmation).
   */
  readonly alsoDeleted: readonly string[];
  readonly context: string;
  readonly server: string;
}

export interface ExecutePlanArgs extends ClusterArgs {
  readonly planId: string;
  /** Take over fields other managers own: only after the user's second, explicit confirmation. */
  readonly force?: boolean;
  /** Delete a namespace with the other objects the plan's `alsoDeleted` lists: only after the user's explicit confirmation. */
  readonly deleteOthers?: boolean;
}

export interface DiscardPlanArgs {
  readonly planId: string;
}

/** One line of a finished operation's report. */
export interface ReportLine {
  readonly object: string;
  readonly result: string;
  readonly ok: boolean;
}

export interface ExecutionReport {
  /** One sentence: what happened. */
  readonly summary: string;
  readonly lines: readonly ReportLine[];
}

/** A managed environment found on the cluster by GitLab's labels (docs/gitlab-behaviour.md#managed-object-labels-and-annotation). */
export interface EnvironmentView {
  readonly inventory: InventoryRef;
  readonly environment: string;
  readonly projectPath?: string;
  /** The Namespace object the environment tracks, when it has one. */
  readonly namespace?: string;
  readonly objectCount: number;
  /** `Ready`, `Progressing`, `Failed` or `N missing`. */
  readonly state: string;
}

/** A workspace found on the cluster (docs/gitlab-behaviour.md#remote-development-workspaces). */
export interface WorkspaceView {
  readonly name: string;
  readonly namespace: string;
  readonly mode: 'unique' | 'shared';
  readonly state: string;
}

export interface ClusterInventory {
  readonly context: string;
  readonly environments: readonly EnvironmentView[];
  readonly workspaces: readonly WorkspaceView[];
  /** Why one of the lists could not be read (e.g. forbidden), while the other still shows. */
  readonly problems: readonly string[];
  /** Why the environments could not be listed (then `environments` is empty for that reason, not because there are none). */
  readonly environmentsProblem?: string;
  /** Why the workspaces could not be listed. */
  readonly workspacesProblem?: string;
  /**
   * The one namespace the environments were looked for in, when the context may not list them in
   * every namespace (the agent's namespace setting): "none" means none there, not none at all.
   */
  readonly environmentsNamespace?: string;
}

export interface TerminateWorkspaceArgs extends ClusterArgs {
  readonly name: string;
  readonly namespace: string;
  readonly mode: 'unique' | 'shared';
  /** Only read, and report what the first termination step would delete (the preview before confirming). */
  readonly dryRun?: boolean;
}

export interface WaitForFluxSyncArgs extends ClusterArgs {
  readonly namespace: string;
  /** A Kustomization, or an OCIRepository whose Kustomization is waited for. */
  readonly kind: 'Kustomization' | 'OCIRepository';
  readonly name: string;
  /** `<ref>@sha1:<sha>`, `sha256:<digest>`, or a bare commit SHA (docs/gitlab-behaviour.md#oci-artifact-origin-revision, docs/gitlab-behaviour.md#flux-revision-formats). */
  readonly revision: string;
  readonly timeoutSeconds?: number;
}

/**
 * Why a command did not do its job: the cluster engine's failure classes (the server's
 * `fromFailure` only compiles while every engine failure type is listed here) plus what the
 * command layer itself refuses.
 */
export type ClusterFailureKind =
  | 'notFound'
  | 'forbidden'
  | 'unauthorized'
  | 'conflict'
  | 'invalid'
  | 'unknownKind'
  | 'unreachable'
  | 'timeout'
  | 'cancelled'
  | 'refused'
  | 'failed'
  | 'untrusted'
  | 'invalidArguments'
  | 'planNotFound'
  | 'templateError';

export type ClusterCommandResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly kind: ClusterFailureKind; readonly message: string };
