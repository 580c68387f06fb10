/**
 * `only`/`except` as GitLab evaluates them (lib/gitlab/ci/build/policy/refs.rb, variables.rb,
 * lib/gitlab/ci/pipeline/seed/build.rb): `only` matches when all its parts match, `except` when any
 * does; a job runs when `only` matches and `except` does not
 * (https://docs.gitlab.com/ci/yaml/deprecated_keywords/#only--except).
 *
 * A ref pattern matches when it is `branches` in a branch pipeline, `tags` in a tag pipeline, the
 * pipeline's source (with `_event` removed) or its plural (`pushes`, `merge_requests`, `schedules`,
 * `triggers`, `pipelines`, …), or, in branch and tag pipelines only, the ref itself: a `/regex/`
 * (RE2) or the exact name. `pattern@project/path` also requires the project. Merge request
 * pipelines match no branch name or pattern.
 */
import { evaluate } from '../expr';
import { fabricateRubyRegexp } from '../expr/regexp/ruby-syntax';
import type { RefFilter } from './model';

/** true, false, or decided by files (`changes`) or by something a scenario does not say (`kubernetes: active`, the project path). */
export type Tri = true | false | 'depends';

/** The pipeline facts refs patterns read, taken from its predefined variables. */
export interface PipelineFacts {
  readonly tag: boolean;
  readonly mergeRequest: boolean;
  readonly ref: string;
  readonly source: string;
  readonly projectPath: string | undefined;
}

/** Facts from `CI_COMMIT_TAG`, `CI_PIPELINE_SOURCE`, `CI_COMMIT_REF_NAME` and `CI_PROJECT_PATH` (https://docs.gitlab.com/ci/variables/predefined_variables/). */
export function pipelineFacts(variables: ReadonlyMap<string, string>): PipelineFacts {
  const source = variables.get('CI_PIPELINE_SOURCE') ?? 'push';
  const mergeRequest = source === 'merge_request_event' || (variables.get('CI_MERGE_REQUEST_IID') ?? '') !== '';
  return {
    tag: !mergeRequest && (variables.get('CI_COMMIT_TAG') ?? '') !== '',
    mergeRequest,
    ref: variables.get('CI_COMMIT_TAG') || variables.get('CI_COMMIT_BRANCH') || variables.get('CI_COMMIT_REF_NAME') || '',
    source,
    projectPath: variables.get('CI_PROJECT_PATH'),
  };
}

/** Whether `filter` (all of its parts) is satisfied: `only` semantics. */
export function allOf(filter: RefFilter, facts: PipelineFacts, variables: ReadonlyMap<string, string>): Tri {
  return and(parts(filter, facts, variables));
}

/** Whether any part of `filter` is satisfied: `except` semantics. */
export function anyOf(filter: RefFilter, facts: PipelineFacts, variables: ReadonlyMap<string, string>): Tri {
  return or(parts(filter, facts, variables, true));
}

function parts(filter: RefFilter, facts: PipelineFacts, variables: ReadonlyMap<string, string>, isExcept = false): Tri[] {
  const out: Tri[] = [];
  // An `except:` mapping without `refs` has no refs part at all (only `only` gets default refs).
  if (!(isExcept && filter.refs.length === 0)) out.push(or(filter.refs.map((p) => refMatches(p, facts))));
  if (filter.variables) out.push(filter.variables.some((expr) => evaluate(expr, variables).truthy));
  if (filter.changes) out.push(changesKnown(facts) ? true : 'depends');
  // lib/gitlab/ci/build/policy/kubernetes.rb: whether the project has an active (certificate-based) cluster.
  if (filter.kubernetes) out.push('depends');
  return out;
}

/**
 * Whether `changes` is decided without the files: GitLab compares changed paths only in push
 * pipelines for branches and in merge request pipelines; elsewhere (tags, schedules, the web, the
 * API, triggers, …) there are none to compare and `changes` is true
 * (lib/gitlab/ci/build/rules/rule/clause/changes.rb: `return true unless modified_paths`;
 * lib/gitlab/ci/build/policy/changes.rb: `return true if pipeline.modified_paths.nil?`;
 * https://docs.gitlab.com/ci/yaml/#ruleschanges). A push that creates a branch has none either,
 * which a scenario does not say: there it depends.
 */
export function changesKnown(facts: PipelineFacts): boolean {
  if (facts.tag) return true;
  return !['push', 'merge_request_event', 'external_pull_request_event'].includes(facts.source);
}

/** One refs pattern against the pipeline (`Policy::Refs#satisfied_by?`). */
export function refMatches(written: string, facts: PipelineFacts): Tri {
  const at = written.indexOf('@');
  const pattern = at === -1 ? written : written.slice(0, at);
  const path = at === -1 ? undefined : written.slice(at + 1);
  let pathOk: Tri = true;
  if (path !== undefined) pathOk = facts.projectPath === undefined ? 'depends' : facts.projectPath === path;
  return and([pathOk, patternMatches(pattern, facts)]);
}

function patternMatches(pattern: string, facts: PipelineFacts): boolean {
  const branch = !facts.tag && !facts.mergeRequest;
  if (facts.tag && pattern === 'tags') return true;
  if (branch && pattern === 'branches') return true;
  const source = facts.source.replace(/_event$/, '');
  if (pattern === source || pattern === pluralize(source)) return true;
  if (!branch && !facts.tag) return false;
  const regexp = fabricateRubyRegexp(pattern);
  // A pattern RE2 rejects is compared as a plain name (`RubySyntax.fabricate` returns nil).
  return regexp.kind === 'regexp' ? regexp.regexp.matches(facts.ref) : pattern === facts.ref;
}

/** ActiveSupport's `pluralize` for the pipeline sources GitLab has. */
function pluralize(word: string): string {
  if (/(s|sh|ch|x|z)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

export function and(values: readonly Tri[]): Tri {
  if (values.includes(false)) return false;
  return values.includes('depends') ? 'depends' : true;
}

export function or(values: readonly Tri[]): Tri {
  if (values.includes(true)) return true;
  return values.includes('depends') ? 'depends' : false;
}
