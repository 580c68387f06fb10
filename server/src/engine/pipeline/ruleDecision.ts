/**
 * Whether GitLab creates the pipeline and adds a job to it in a situation (given by its variables).
 *
 * Rules (lib/gitlab/ci/build/rules.rb, rules/rule.rb; https://docs.gitlab.com/ci/jobs/job_rules/):
 * evaluated in order, the first rule whose clauses all hold decides; its `when` (default: the job's
 * `when`, for `workflow:rules` `always`) says how the job runs, `never` that it is not added; when no
 * rule matches the job is not added (for `workflow:rules`: no pipeline). `rules:if` is evaluated with
 * the project's GitLab-exact evaluator; an expression GitLab cannot evaluate does not match. A rule
 * with `changes` or `exists` depends on the repository's files, which a scenario does not give.
 *
 * Without `rules`, `only`/`except` decide (https://docs.gitlab.com/ci/yaml/deprecated_keywords/#only--except);
 * a job with neither runs on branches and tags only (`only: [branches, tags]`), unless the
 * pipeline has `workflow:rules`, which drop that default (lib/gitlab/ci/config/entry/processable.rb).
 */
import { evaluate } from '../expr';
import type { JobWhen, Pipeline, PipelineJob, PipelineRule, RunDecision } from './model';
import { allOf, anyOf, changesKnown, pipelineFacts, type Tri } from './refPolicy';

/** The `only` GitLab gives a job that sets neither `only` nor `rules` (lib/gitlab/ci/config/entry/policy.rb, `Policy.default`). */
export const DEFAULT_ONLY_REFS: readonly string[] = ['branches', 'tags'];

/** What `workflow:rules` decide, with the global `variables:` (and the scenario's) in `scope`. */
export function workflowRulesDecision(pipeline: Pipeline, scope: ReadonlyMap<string, string>): RunDecision {
  const rules = pipeline.workflowRules;
  if (!rules || rules.length === 0) return { runs: true, when: 'always', reason: 'no workflow:rules: the pipeline is created' };
  return evaluateRules(rules, scope, 'always', 'workflow rule', 'the pipeline is not created');
}

/** What the job's own `rules`, or `only`/`except`, decide with `scope` (its variables) in scope. */
export function ownDecision(pipeline: Pipeline, job: PipelineJob, scope: ReadonlyMap<string, string>): RunDecision {
  if (job.rules) return evaluateRules(job.rules, scope, job.when, 'rule', 'the job is not added');
  if (job.when === 'never') return { runs: false, when: 'never', reason: 'when: never' };
  const hasWorkflowRules = (pipeline.workflowRules?.length ?? 0) > 0;
  const only = job.only ?? (hasWorkflowRules ? undefined : { refs: DEFAULT_ONLY_REFS, location: job.location });
  if (!only && !job.except) return { runs: true, when: job.when, reason: `no rules, only or except: the job is added (when ${job.when})` };
  const facts = pipelineFacts(scope);
  const onlyOk: Tri = only ? allOf(only, facts, scope) : true;
  const exceptHit: Tri = job.except ? anyOf(job.except, facts, scope) : false;
  const onlyText = job.only ? `only: ${describeFilter(job.only.refs)}` : `only: ${DEFAULT_ONLY_REFS.join(', ')} (the default)`;
  if (onlyOk === false) return { runs: false, when: 'never', reason: `${onlyText} does not match`, location: only!.location };
  if (exceptHit === true) return { runs: false, when: 'never', reason: `except: ${describeFilter(job.except!.refs)} matches`, location: job.except!.location };
  if (onlyOk === 'depends' || exceptHit === 'depends') {
    const filter = onlyOk === 'depends' ? only! : job.except!;
    return { runs: 'depends', when: job.when, reason: `${onlyOk === 'depends' ? 'only' : 'except'} depends on changed files or on the project`, location: filter.location };
  }
  return { runs: true, when: job.when, reason: `${onlyText} matches (when ${job.when})`, ...(only ? { location: only.location } : {}) };
}

function describeFilter(refs: readonly string[]): string {
  return refs.length ? refs.join(', ') : '(no refs)';
}

/** First match wins; a rule that depends on files is weighed against what the rules after it decide. */
function evaluateRules(rules: readonly PipelineRule[], scope: ReadonlyMap<string, string>, defaultWhen: JobWhen, label: string, noMatch: string, from = 0): RunDecision {
  for (let i = from; i < rules.length; i++) {
    const rule = rules[i];
    if (rule.if !== undefined && !evaluate(rule.if, scope).truthy) continue;
    const when = rule.when ?? defaultWhen;
    const runs = when !== 'never';
    const condition = rule.if !== undefined ? ` (${rule.if})` : '';
    const decided: RunDecision = {
      runs,
      when,
      reason: `${label} ${i + 1} matches${condition}: ${runs ? `when ${when}` : 'when never'}`,
      rule: i + 1,
      location: rule.location,
      ...(runs && rule.variables ? { variables: rule.variables } : {}),
    };
    // `changes` without compare_to is true where GitLab has no changed paths to compare (changesKnown).
    const changesDepend = rule.changes === true && (rule.compareTo !== undefined || !changesKnown(pipelineFacts(scope)));
    if (!changesDepend && !rule.exists) return rule.changes ? { ...decided, reason: `${decided.reason} (changes: true in this pipeline, which has no changed files to compare)` } : decided;
    const files = [changesDepend ? 'changes' : '', rule.exists ? 'exists' : ''].filter(Boolean).join(' and ');
    const otherwise = evaluateRules(rules, scope, defaultWhen, label, noMatch, i + 1);
    // Either way the same outcome: the files do not matter here.
    if (otherwise.runs === runs && (!runs || (otherwise.when === when && sameVariables(otherwise.variables, decided.variables)))) {
      return { ...decided, reason: `${label} ${i + 1}${condition} depends on ${files}, and otherwise ${otherwise.reason}: ${runs ? `when ${when}` : 'not added'} either way` };
    }
    return { ...decided, runs: 'depends', reason: `${label} ${i + 1}${condition} depends on ${files}: ${runs ? `when ${when}` : 'not added'} if the files match, otherwise ${otherwise.reason}` };
  }
  return { runs: false, when: 'never', reason: `no ${label} matches: ${noMatch}` };
}

function sameVariables(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => Object.hasOwn(b ?? {}, k) && b![k] === a![k]);
}
