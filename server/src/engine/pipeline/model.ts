/**
 * A project's `.gitlab-ci.yml` as far as it decides cluster access: which jobs exist after
 * `include:local`, `extends`, `!reference`, anchors and `default:`; when each runs (`workflow:rules`,
 * `rules`, `only`/`except`, `when`); and the environment it deploys to. Not a general CI linter:
 * keys that do not decide access are read only as far as resolving the rest needs them.
 */
import type { Range } from '../diagnostics';
import type { EnvironmentTier } from '../vars/environment-tier';

/** Where something is: the file (as `include:local` names it, e.g. `.gitlab-ci.yml`, `ci/deploy.yml`) and the range in it. */
export interface SourceLocation {
  readonly file: string;
  readonly range: Range;
}

export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed' | 'never';

/** One entry of `rules:` (job or `workflow:`), after `!reference` and anchors. */
export interface PipelineRule {
  readonly if?: string;
  /** The rule has `changes:` / `exists:`: whether it matches depends on files, not on the scenario. */
  readonly changes?: boolean;
  /** `changes:compare_to`: the ref the changes are computed against (then they are computed in every pipeline). */
  readonly compareTo?: string;
  readonly exists?: boolean;
  readonly when?: JobWhen;
  /** `rules:variables`: set for the job (or pipeline, for `workflow:rules`) when this rule matches. */
  readonly variables?: Readonly<Record<string, string>>;
  readonly location: SourceLocation;
}

/** `only:` / `except:` in either form (a list of refs, or `{refs, variables, changes, kubernetes}`). */
export interface RefFilter {
  /** Branch names, `/regex/` patterns and keywords (`branches`, `tags`, `merge_requests`, `schedules`, `api`, `web`, …). */
  readonly refs: readonly string[];
  /** `variables:` expressions (any one true matches). */
  readonly variables?: readonly string[];
  /** `changes:` given: depends on files. */
  readonly changes?: boolean;
  /** `kubernetes: active` given: depends on the project's certificate-based cluster integration, which a scenario does not say. */
  readonly kubernetes?: boolean;
  readonly location: SourceLocation;
}

export interface JobEnvironment {
  /** `environment:name` (or the string form), not yet expanded. */
  readonly name: string;
  readonly action?: 'start' | 'prepare' | 'stop' | 'verify' | 'access';
  readonly deploymentTier?: EnvironmentTier;
  readonly url?: string;
  /** `environment:kubernetes`: `agent` (`<config project path>:<agent name>`, may hold variables), legacy `namespace`, `managed_resources.enabled` (absent: true). */
  readonly kubernetes?: {
    readonly agent?: string;
    readonly namespace?: string;
    readonly managedResources?: boolean;
    /** `environment:kubernetes:dashboard:namespace` (18.4), the newer place of the dashboard's namespace. */
    readonly dashboardNamespace?: string;
    readonly location: SourceLocation;
  };
  /** `environment:on_stop`: the job that stops this environment. */
  readonly onStop?: string;
  readonly location: SourceLocation;
}

export interface PipelineJob {
  readonly name: string;
  /** The job's key. */
  readonly location: SourceLocation;
  readonly stage: string;
  /** Where `stage:` is written; absent when the job takes the default stage `test`. */
  readonly stageLocation?: SourceLocation;
  /** The job's own `when` (default `on_success`). */
  readonly when: JobWhen;
  readonly rules?: readonly PipelineRule[];
  readonly only?: RefFilter;
  readonly except?: RefFilter;
  /** Job `variables:` after `default:`/`extends` merging, not expanded. */
  readonly variables: Readonly<Record<string, string>>;
  /**
   * `inherit:variables`: which global `variables:` the job sees: absent or true all, false none, a list
   * only those (https://docs.gitlab.com/ci/yaml/#inheritvariables).
   */
  readonly inheritVariables?: boolean | readonly string[];
  readonly environment?: JobEnvironment;
  /**
   * A `trigger:` job starts a downstream pipeline: no runner runs it, so it gets no KUBECONFIG
   * (https://docs.gitlab.com/ci/yaml/#trigger).
   */
  readonly trigger?: boolean;
  /** The job `parallel:matrix` made this one of (its name without the matrix values). */
  readonly matrixOf?: string;
  /** The jobs of this pipeline it `needs`, where each is named (optional needs left out). */
  readonly needs?: readonly { readonly job: string; readonly location: SourceLocation }[];
  /** `trigger:include`: a child pipeline of this project (https://docs.gitlab.com/ci/yaml/#triggerinclude). */
  readonly childPipeline?: ChildPipeline;
  /** `kubectl --context <name>` / `kubectl config use-context <name>` in `script`/`before_script`/`after_script`, where the name is literal or a variable. */
  readonly kubeContexts: readonly { readonly context: string; readonly location: SourceLocation }[];
}

/** The configuration of a child pipeline, as its trigger job names it. */
export interface ChildPipeline {
  /** `include:local` files (and plain strings), in order. */
  readonly local: readonly string[];
  /** Entries not read here: `artifact` (a dynamic child made at run time), `project`, `template`, `remote`, `component`. */
  readonly elsewhere: readonly { readonly kind: string; readonly value: string | null; readonly location: SourceLocation }[];
  /** `trigger:forward:yaml_variables` (default true): the trigger job's YAML variables pass to the child. */
  readonly forwardYamlVariables: boolean;
  readonly location: SourceLocation;
}

export interface PipelineProblem {
  readonly location: SourceLocation;
  readonly severity: 'error' | 'warning' | 'information';
  readonly code: string;
  readonly message: string;
}

export interface Pipeline {
  /** Visible jobs (hidden `.jobs` and templates left out), in file order. */
  readonly jobs: readonly PipelineJob[];
  /** Global `variables:` (values only; `description`/`options` forms read as their value). */
  readonly variables: Readonly<Record<string, string>>;
  readonly workflowRules?: readonly PipelineRule[];
  /** Malformed YAML, unresolved `include:` kinds, broken `extends`/`!reference`: with file and range, never a throw. */
  readonly problems: readonly PipelineProblem[];
  /**
   * Why GitLab creates no pipeline from this file at all, whatever the situation: the first error its
   * YAML processor raises that can be decided offline (a job in a stage `stages` does not declare).
   */
  readonly refusal?: { readonly message: string; readonly location: SourceLocation };
}

/** Reads a file of the repository by the path `include:local` gives (leading `/` allowed); null when absent. */
export interface PipelineFileReader {
  (path: string): string | null;
  /**
   * The repository's files under `directory` (`''`: all), at any depth, repository-relative and
   * `/`-separated, for `include:local` wildcards; absent when the face cannot list them.
   */
  readonly list?: (directory: string) => readonly string[];
}

/** Whether a job (or the pipeline, for `workflow:rules`) runs in a situation, and what decided it. */
export interface RunDecision {
  /** `depends`: decided by `changes`/`exists` (files), or by a variable the scenario does not know. */
  readonly runs: true | false | 'depends';
  /** For a job that runs: `on_success`, `manual`, `delayed`, … */
  readonly when: JobWhen;
  /** In words: "rule 2 matches ($CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH): when manual". */
  readonly reason: string;
  /** The deciding rule (1-based) or filter, when one decided. */
  readonly rule?: number;
  readonly location?: SourceLocation;
  /** `rules:variables` of the matching rule (workflow rules: pipeline-wide). */
  readonly variables?: Readonly<Record<string, string>>;
}
