import { guessEnvironmentTier, type EnvironmentTier } from './environment-tier';
import { predefinedVariable, type VariableAvailability } from './predefined';
import { environmentSlug, projectPathSlug, slugify, slugifyRef } from './slug';
import { BoundedCache } from '../cache';

/**
 * A CI situation to simulate: which project, which ref, which environment. Everything GitLab would derive
 * (slugs, `CI_COMMIT_BRANCH` vs `CI_COMMIT_TAG`, tier) is derived by {@link scenarioVariables}.
 */
export interface Scenario {
  /** Optional label shown in results, e.g. "default branch → production". */
  readonly name?: string;
  /** Full path of the CI project, e.g. `group/sub/project`. */
  readonly projectPath: string;
  readonly projectId?: number | string;
  /** `environment:name` of the job (already expanded); absent → the job has no environment. */
  readonly environmentName?: string;
  /** `environment:deployment_tier`; absent → GitLab's guess from the name. */
  readonly environmentTier?: EnvironmentTier;
  readonly environmentUrl?: string;
  /** `environment:action`; default `start`. */
  readonly environmentAction?: 'start' | 'prepare' | 'stop' | 'verify' | 'access';
  /** Branch or tag name (for a merge request pipeline: the source branch). */
  readonly ref: string;
  readonly isTag?: boolean;
  readonly isMergeRequest?: boolean;
  /** Merge request source branch; default `ref`. */
  readonly mergeRequestSourceBranch?: string;
  /** Merge request IID (`CI_MERGE_REQUEST_IID`); default {@link EXAMPLE_MERGE_REQUEST}'s. */
  readonly mergeRequestIid?: number | string;
  /** Merge request target branch; default `defaultBranch`. */
  readonly mergeRequestTargetBranch?: string;
  readonly defaultBranch: string;
  /** Whether the ref is protected (protected branch or tag; for a merge request: its source branch). */
  readonly protectedRef?: boolean;
  /**
   * The project setting `protect_merge_request_pipelines` (docs/gitlab-behaviour.md#protected-merge-request-pipelines):
   * with it, a merge request pipeline between two protected branches runs as protected (never from a
   * fork). Unset: a merge request scenario's `protectedRef` is taken as given.
   */
  readonly protectMergeRequestPipelines?: boolean;
  /** A merge request pipeline: whether its target branch is protected. */
  readonly mergeRequestTargetProtected?: boolean;
  /** A merge request pipeline: whether it comes from a fork. */
  readonly fromFork?: boolean;
  /** `CI_PIPELINE_SOURCE`; default `merge_request_event` for merge requests, else `push`. */
  readonly pipelineSource?: string;
  /** `GITLAB_USER_LOGIN` of the user who started the pipeline. */
  readonly userLogin?: string;
  readonly jobName?: string;
  readonly jobStage?: string;
  readonly commitSha?: string;
  /** Project/group/instance/pipeline variables; they override predefined ones of the same name. */
  readonly variables?: Readonly<Record<string, string>>;
}

/** Where a scenario variable's value comes from. */
export type ScenarioVariableSource = 'predefined' | 'user';

/** One variable of a scenario. */
export interface ScenarioVariable {
  readonly value: string;
  /**
   * Whether GitLab's job `rules:if` sees it (docs/gitlab-behaviour.md#variables-available-to-job-rules). `CI_ENVIRONMENT_*` are false but still have values:
   * `environment:url`, `namespace` expansion in the agent `rules` design (docs/gitlab-behaviour.md#ci_access-rules-design) and templates use them.
   */
  readonly availableInRulesIf: boolean;
  readonly source: ScenarioVariableSource;
  /** For predefined variables, when GitLab sets them; user variables are pipeline-level. */
  readonly availability: VariableAvailability;
}

/**
 * The variables GitLab would set for `scenario` (docs/gitlab-behaviour.md#predefined-variables), each marked with whether `rules:if` may read it.
 * Only variables the scenario determines are present (e.g. no `CI_COMMIT_BRANCH` in a tag pipeline, no
 * `CI_ENVIRONMENT_*` without an environment), as in GitLab.
 */
export function scenarioVariables(scenario: Scenario): Map<string, ScenarioVariable> {
  const vars = new Map<string, ScenarioVariable>();
  const set = (name: string, value: string | undefined): void => {
    if (value === undefined) return;
    const known = predefinedVariable(name);
    const availability = known?.availability ?? 'pipeline';
    vars.set(name, { value, availableInRulesIf: known?.availableInRulesIf ?? true, source: 'predefined', availability });
  };

  const path = scenario.projectPath;
  // With the merge request's project and source project, named after the path too.
  for (const [name, value] of projectNamingValues(path, mergeRequestKind(scenario))) set(name, value);
  set('CI_PROJECT_ID', scenario.projectId === undefined ? undefined : String(scenario.projectId));
  set('CI_DEFAULT_BRANCH', scenario.defaultBranch);

  const isMr = scenario.isMergeRequest === true;
  const isTag = scenario.isTag === true && !isMr;
  set('CI_COMMIT_REF_NAME', scenario.ref);
  set('CI_COMMIT_REF_SLUG', slugifyRef(scenario.ref));
  set('CI_COMMIT_REF_PROTECTED', refIsProtected(scenario) ? 'true' : 'false');
  set('CI_COMMIT_BRANCH', !isTag && !isMr ? scenario.ref : undefined);
  set('CI_COMMIT_TAG', isTag ? scenario.ref : undefined);
  if (scenario.commitSha !== undefined) {
    set('CI_COMMIT_SHA', scenario.commitSha);
    set('CI_COMMIT_SHORT_SHA', scenario.commitSha.slice(0, 8));
  }
  set('CI_PIPELINE_SOURCE', scenario.pipelineSource ?? (isMr ? 'merge_request_event' : 'push'));

  if (isMr) for (const [name, value] of mergeRequestValues(scenario)) set(name, value);
  if (isTag) set('CI_COMMIT_TAG_MESSAGE', '');
  if (scenario.pipelineSource === 'schedule') set('CI_PIPELINE_SCHEDULE_DESCRIPTION', EXAMPLE_SCHEDULE_DESCRIPTION);

  set('GITLAB_USER_LOGIN', scenario.userLogin);
  set('CI_JOB_NAME', scenario.jobName);
  set('CI_JOB_NAME_SLUG', scenario.jobName === undefined ? undefined : slugify(scenario.jobName));
  set('CI_JOB_STAGE', scenario.jobStage);

  const env = scenario.environmentName;
  if (env !== undefined) {
    set('CI_ENVIRONMENT_NAME', env);
    set('CI_ENVIRONMENT_SLUG', environmentSlug(env));
    set('CI_ENVIRONMENT_TIER', scenario.environmentTier ?? guessEnvironmentTier(env));
    set('CI_ENVIRONMENT_ACTION', scenario.environmentAction ?? 'start');
    set('CI_ENVIRONMENT_URL', scenario.environmentUrl);
  }

  for (const [name, value] of Object.entries(scenario.variables ?? {})) {
    vars.set(name, { value, availableInRulesIf: true, source: 'user', availability: 'pipeline' });
  }
  return vars;
}

/** The merge request of a merge request scenario when the scenario does not say: `!1` (a user variable of the same name wins). */
export const EXAMPLE_MERGE_REQUEST = { iid: '1', id: '1001', title: 'Draft: example change', diffId: '2001' } as const;
/** A schedule's description in a schedule scenario (GitLab sets CI_PIPELINE_SCHEDULE_DESCRIPTION in every scheduled pipeline). */
export const EXAMPLE_SCHEDULE_DESCRIPTION = 'Scheduled pipeline';

/**
 * The variables GitLab sets in every merge request pipeline (docs/gitlab-behaviour.md#merge-request-pipeline-variables),
 * but for the two named after the project (projectNamingValues):
 * `Ci::Variables::Builder::Pipeline#predefined_merge_request_variables` and `MergeRequest#predefined_variables`.
 * A detached pipeline of an open merge request without labels, assignees, milestone or approval;
 * instance URLs are not known offline and are left out.
 */
function mergeRequestValues(scenario: Scenario): [string, string | undefined][] {
  const iid = scenario.mergeRequestIid === undefined ? EXAMPLE_MERGE_REQUEST.iid : String(scenario.mergeRequestIid);
  const projectId = scenario.projectId === undefined ? undefined : String(scenario.projectId);
  const source = scenario.mergeRequestSourceBranch ?? scenario.ref;
  return [
    ['CI_MERGE_REQUEST_ID', EXAMPLE_MERGE_REQUEST.id],
    ['CI_MERGE_REQUEST_IID', iid],
    ['CI_MERGE_REQUEST_REF_PATH', `refs/merge-requests/${iid}/head`],
    ['CI_MERGE_REQUEST_PROJECT_ID', projectId],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_NAME', scenario.mergeRequestTargetBranch ?? scenario.defaultBranch],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED', String(scenario.mergeRequestTargetProtected ?? true)],
    ['CI_MERGE_REQUEST_TITLE', EXAMPLE_MERGE_REQUEST.title],
    ['CI_MERGE_REQUEST_DRAFT', 'true'],
    ['CI_MERGE_REQUEST_DESCRIPTION', ''],
    ['CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED', 'false'],
    ['CI_MERGE_REQUEST_SQUASH_ON_MERGE', 'false'],
    ['CI_MERGE_REQUEST_SOURCE_PROJECT_ID', scenario.fromFork === true ? undefined : projectId],
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', source],
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED', String(scenario.protectedRef === true && scenario.fromFork !== true)],
    ['CI_MERGE_REQUEST_EVENT_TYPE', 'detached'],
    // Empty in a detached pipeline: only merged results pipelines carry the two heads.
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', ''],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_SHA', ''],
    ['CI_MERGE_REQUEST_DIFF_ID', EXAMPLE_MERGE_REQUEST.diffId],
  ];
}

/**
 * `allVariableValues(scenarioVariables(...))` of `scenario` moved to any project, for checks that
 * run one job situation in the project of every entry: all but the variables naming the project
 * are derived once. A user variable of the same name still wins, as in {@link scenarioVariables}.
 * (Only lookups read these maps, so the order of their names does not matter.)
 */
export function variableValuesByProject(scenario: Scenario): (projectPath: string) => ReadonlyMap<string, string> {
  const shared = allVariableValues(scenarioVariables(scenario));
  const userNames = new Set(Object.keys(scenario.variables ?? {}));
  const mergeRequest = mergeRequestKind(scenario);
  return (projectPath) => {
    const naming = projectNamingValues(projectPath, mergeRequest);
    const own = userNames.size && [...userNames].some((name) => naming.has(name)) ? new Map([...naming].filter(([name]) => !userNames.has(name))) : naming;
    return new OverlaidValues(shared, own);
  };
}

/**
 * A read-only map of variable values that answers lookups without being made whole: the whole map
 * is made (once) only when it is iterated or sized.
 */
abstract class LookupFirstValues implements ReadonlyMap<string, string> {
  private made: Map<string, string> | undefined;

  abstract get(name: string): string | undefined;
  abstract has(name: string): boolean;
  protected abstract make(): Map<string, string>;

  get size(): number {
    return this.whole().size;
  }

  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    this.whole().forEach((value, key) => callback.call(thisArg, value, key, this));
  }

  entries(): MapIterator<[string, string]> {
    return this.whole().entries();
  }

  keys(): MapIterator<string> {
    return this.whole().keys();
  }

  values(): MapIterator<string> {
    return this.whole().values();
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.whole()[Symbol.iterator]();
  }

  protected whole(): Map<string, string> {
    return (this.made ??= this.make());
  }
}

/**
 * `shared` with some names given their own values, read through without copying `shared`: the
 * namespace checks ask for one per entry and scenario, and a copy of the ~100 values each was the
 * larger part of their setup at a first open. The whole map is made only if someone iterates it.
 */
class OverlaidValues extends LookupFirstValues {
  constructor(
    private readonly shared: ReadonlyMap<string, string>,
    private readonly own: ReadonlyMap<string, string>,
  ) {
    super();
  }

  get(name: string): string | undefined {
    return this.own.has(name) ? this.own.get(name) : this.shared.get(name);
  }

  has(name: string): boolean {
    return this.own.has(name) || this.shared.has(name);
  }

  /** In the order of a copy of `shared` with the own values set over it (names of `shared` first). */
  protected make(): Map<string, string> {
    return new Map([...this.shared, ...this.own]);
  }
}

/** The predefined variables whose values come from the project's path: the only ones that differ between projects. */
const PROJECT_NAMING = new Set(['CI_PROJECT_PATH', 'CI_PROJECT_PATH_SLUG', 'CI_PROJECT_NAME', 'CI_PROJECT_NAMESPACE', 'CI_PROJECT_ROOT_NAMESPACE']);
/** Named after the project too, in a merge request pipeline. */
const MERGE_REQUEST_PROJECT_PATH = 'CI_MERGE_REQUEST_PROJECT_PATH';
const MERGE_REQUEST_SOURCE_PROJECT_PATH = 'CI_MERGE_REQUEST_SOURCE_PROJECT_PATH';

/** Whether a scenario is a merge request pipeline, and whether from a fork: the naming variables differ. */
type MergeRequestKind = 'none' | 'sameProject' | 'fork';

function mergeRequestKind(scenario: Scenario): MergeRequestKind {
  return scenario.isMergeRequest !== true ? 'none' : scenario.fromFork === true ? 'fork' : 'sameProject';
}

/** The source project of a merge request into `path`: the project itself, or (from a fork) an example fork of it. */
function sourceProjectPath(path: string, kind: MergeRequestKind): string {
  return kind === 'fork' ? `contributor/${path.slice(path.lastIndexOf('/') + 1)}` : path;
}

/**
 * The predefined `CI_PROJECT_*` variables of a project, with `CI_MERGE_REQUEST_PROJECT_PATH` and
 * `CI_MERGE_REQUEST_SOURCE_PROJECT_PATH` in a merge request. The maps of recent projects are kept (read-only): the checks ask for the project
 * of each entry in each scenario in turn, and the simulations of a file for a few more. (With only
 * the last project kept, the asks of two interleaved callers made new maps nearly every time.)
 */
function projectNamingValues(path: string, mergeRequest: MergeRequestKind): ReadonlyMap<string, string> {
  const known = namingByPath.get(path, () => new Map());
  let naming = known.get(mergeRequest);
  if (!naming) known.set(mergeRequest, (naming = new ProjectNaming(path, mergeRequest)));
  return naming;
}

const namingByPath = new BoundedCache<string, Map<MergeRequestKind, ProjectNaming>>(256);

/**
 * The naming values of one project, derived only when one is read: the namespace checks ask for
 * the variables of every entry's project, and most namespaces and rules read none of these
 * (deriving them all, slug included, was a large part of the namespace checks at a first open).
 */
class ProjectNaming extends LookupFirstValues {
  constructor(
    private readonly path: string,
    private readonly mergeRequest: MergeRequestKind,
  ) {
    super();
  }

  has(name: string): boolean {
    return PROJECT_NAMING.has(name) || (this.mergeRequest !== 'none' && (name === MERGE_REQUEST_PROJECT_PATH || name === MERGE_REQUEST_SOURCE_PROJECT_PATH));
  }

  get(name: string): string | undefined {
    return this.has(name) ? this.whole().get(name) : undefined;
  }

  protected make(): Map<string, string> {
    const path = this.path;
    const parts = path.split('/');
    const made = new Map([
      ['CI_PROJECT_PATH', path],
      ['CI_PROJECT_PATH_SLUG', projectPathSlug(path)],
      ['CI_PROJECT_NAME', parts[parts.length - 1]],
      ['CI_PROJECT_NAMESPACE', parts.slice(0, -1).join('/')],
      ['CI_PROJECT_ROOT_NAMESPACE', parts[0]],
    ]);
    if (this.mergeRequest !== 'none') {
      made.set(MERGE_REQUEST_PROJECT_PATH, path);
      made.set(MERGE_REQUEST_SOURCE_PROJECT_PATH, sourceProjectPath(path, this.mergeRequest));
    }
    return made;
  }
}

/** Name → value of the variables `rules:if` may read (what GitLab passes to `Statement`). */
export function rulesIfVariables(variables: ReadonlyMap<string, ScenarioVariable>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, v] of variables) if (v.availableInRulesIf) out.set(name, v.value);
  return out;
}

/** Name → value of every variable, including environment-derived ones (for `namespace`/URL expansion). */
export function allVariableValues(variables: ReadonlyMap<string, ScenarioVariable>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, v] of variables) out.set(name, v.value);
  return out;
}

/**
 * Whether the job runs for a protected ref, as `protected_branches_only` reads it
 * (docs/gitlab-behaviour.md#protected-merge-request-pipelines): a protected branch or tag; a merge request pipeline
 * only with `protect_merge_request_pipelines` on, both branches protected and not from a fork.
 */
export function refIsProtected(scenario: Scenario): boolean {
  if (scenario.isMergeRequest === true && scenario.protectMergeRequestPipelines !== undefined) {
    return scenario.protectMergeRequestPipelines && scenario.protectedRef === true && scenario.mergeRequestTargetProtected === true && scenario.fromFork !== true;
  }
  return scenario.protectedRef === true;
}
