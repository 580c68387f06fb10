// When GitLab creates the pipeline and adds each job: workflow:rules, rules, only/except and when,
// for the usual pipeline types. One table per fixture; each row cites the documentation it follows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jobDecision, readPipeline, workflowDecision, type JobWhen, type Pipeline } from '../../../server/src/engine/pipeline/index';
import { job, loadFixture, variablesOf, type ScenarioName } from './pipelineFixtures';

type Expected = [runs: true | false | 'depends', when?: JobWhen, rule?: number];
type Row = [job: string, scenario: ScenarioName, expected: Expected, source: string, extra?: Record<string, string>];

function check(pipeline: Pipeline, rows: readonly Row[]): void {
  for (const [name, scenario, [runs, when, rule], source, extra] of rows) {
    test(`${name} in ${scenario}${extra ? ` ${JSON.stringify(extra)}` : ''}: ${runs}${when ? ` (${when})` : ''} — ${source}`, () => {
      const decision = jobDecision(pipeline, job(pipeline, name), variablesOf(scenario, extra));
      assert.equal(decision.runs, runs, decision.reason);
      if (when) assert.equal(decision.when, when, decision.reason);
      if (rule !== undefined) assert.equal(decision.rule, rule, decision.reason);
    });
  }
}

const RULES = 'https://docs.gitlab.com/ci/jobs/job_rules/';
const RULES_WHEN = 'https://docs.gitlab.com/ci/yaml/#ruleswhen';
const ONLY = 'https://docs.gitlab.com/ci/yaml/deprecated_keywords/#only--except';

describe('review apps', () => {
  check(loadFixture('review-apps'), [
    // Jobs with neither rules nor only/except: only branches and tags, not merge requests (https://docs.gitlab.com/ci/jobs/job_rules/#avoid-duplicate-pipelines).
    ['build', 'defaultBranch', [true, 'on_success'], `${RULES}#avoid-duplicate-pipelines`],
    ['build', 'tag', [true], `${RULES}#avoid-duplicate-pipelines`],
    ['build', 'mergeRequest', [false], `${RULES}#avoid-duplicate-pipelines`],
    ['review', 'mergeRequest', [true, 'on_success', 1], `${RULES}#ci_pipeline_source-predefined-variable`],
    ['review', 'feature', [false], `${RULES} (no rule matches: not added)`],
    ['stop_review', 'mergeRequest', [true, 'manual', 1], RULES_WHEN],
    ['staging', 'defaultBranch', [true, 'on_success', 1], `${RULES}#common-if-clauses-with-predefined-variables`],
    ['staging', 'feature', [false], `${RULES}#common-if-clauses-with-predefined-variables`],
    ['staging', 'tag', [false], `${RULES}#run-jobs-only-in-specific-pipeline-types (no CI_COMMIT_BRANCH in tag pipelines)`],
    ['production', 'defaultBranch', [true, 'manual', 1], RULES_WHEN],
    ['production', 'tag', [true, 'manual', 2], `${RULES}#cicd-variable-expressions`],
    ['production', 'schedule', [true, 'manual', 1], `${RULES}#run-jobs-only-in-specific-pipeline-types (CI_COMMIT_BRANCH is set in scheduled pipelines)`],
    ['production', 'mergeRequest', [false], `${RULES}#run-jobs-only-in-specific-pipeline-types`],
  ]);
});

describe('extends', () => {
  check(loadFixture('extends-chain'), [
    ['deploy_app', 'defaultBranch', [true, 'on_success', 1], 'https://docs.gitlab.com/ci/yaml/#extends (rules inherited)'],
    ['deploy_app', 'feature', [false], 'https://docs.gitlab.com/ci/yaml/#extends'],
    // The job's when is the default of its rules' when (lib/gitlab/ci/build/rules.rb: default_when).
    ['deploy_manual', 'tag', [true, 'manual', 1], 'https://docs.gitlab.com/ci/yaml/#rules (a rule without when takes the job when)'],
    ['deploy_manual', 'defaultBranch', [false], 'https://docs.gitlab.com/ci/yaml/#extends (lists are replaced)'],
    ['anchored', 'mergeRequest', [false], `${RULES}#avoid-duplicate-pipelines`],
  ]);
});

describe('only/except', () => {
  check(loadFixture('legacy-only-except'), [
    ['build', 'feature', [true, 'on_success'], ONLY],
    ['build', 'mergeRequest', [false], ONLY],
    ['mr_only', 'mergeRequest', [true], `${ONLY} (merge_requests: the source merge_request_event)`],
    ['mr_only', 'feature', [false], ONLY],
    ['release', 'release', [true], `${ONLY} (/regex/ on the ref)`],
    ['release', 'tag', [true], `${ONLY} (tags)`],
    ['release', 'feature', [false], ONLY],
    ['not_tags', 'tag', [false], `${ONLY} (except wins)`],
    ['not_tags', 'feature', [true], `${ONLY} (except alone keeps the default only: branches, tags)`],
    ['not_tags', 'mergeRequest', [false], `${ONLY} (default only: branches, tags)`],
    ['deploy_main', 'defaultBranch', [false], 'https://docs.gitlab.com/ci/yaml/deprecated_keywords/#onlyvariables--exceptvariables (all parts of only must match)'],
    ['deploy_main', 'defaultBranch', [true, 'manual'], 'https://docs.gitlab.com/ci/yaml/deprecated_keywords/#onlyvariables--exceptvariables', { DEPLOY_ENABLED: 'true' }],
    ['deploy_main', 'feature', [false], ONLY, { DEPLOY_ENABLED: 'true' }],
    ['schedules_only', 'schedule', [true], `${ONLY} (schedules)`],
    ['schedules_only', 'defaultBranch', [false], ONLY],
    ['docs_changes', 'feature', ['depends'], 'https://docs.gitlab.com/ci/yaml/deprecated_keywords/#onlychanges--exceptchanges'],
  ]);

  test('branches@project matches only in that project (https://docs.gitlab.com/ci/yaml/deprecated_keywords/#onlyrefs--exceptrefs)', () => {
    const pipeline = loadFixture('legacy-only-except');
    const release = job(pipeline, 'release');
    const fork = new Map(variablesOf('release'));
    fork.set('CI_PROJECT_PATH', 'acme/forks/storefront');
    assert.equal(jobDecision(pipeline, release, fork).runs, false);
    fork.delete('CI_PROJECT_PATH');
    assert.equal(jobDecision(pipeline, release, fork).runs, 'depends');
  });
});

describe('workflow:rules (https://docs.gitlab.com/ci/yaml/workflow/)', () => {
  const pipeline = loadFixture('workflow-mr');

  const workflows: Array<[ScenarioName, Record<string, string>, true | false, number | undefined]> = [
    ['mergeRequest', {}, true, 1],
    ['feature', { CI_OPEN_MERGE_REQUESTS: 'acme/shop/storefront!1' }, false, 2],
    ['feature', {}, true, 3],
    ['tag', {}, true, 4],
  ];
  for (const [scenario, extra, runs, rule] of workflows) {
    test(`the pipeline in ${scenario} ${JSON.stringify(extra)}: ${runs} by rule ${rule} (https://docs.gitlab.com/ci/yaml/workflow/#switch-between-branch-pipelines-and-merge-request-pipelines)`, () => {
      const decision = workflowDecision(pipeline, variablesOf(scenario, extra));
      assert.equal(decision.runs, runs, decision.reason);
      assert.equal(decision.rule, rule);
    });
  }

  check(pipeline, [
    // With workflow:rules, jobs without rules get no default only, so they run in merge request pipelines too (lib/gitlab/ci/config/entry/processable.rb).
    ['test', 'mergeRequest', [true, 'on_success'], 'https://docs.gitlab.com/ci/yaml/workflow/#switch-between-branch-pipelines-and-merge-request-pipelines'],
    ['test', 'feature', [false], 'https://docs.gitlab.com/ci/yaml/workflow/ (no pipeline)', { CI_OPEN_MERGE_REQUESTS: 'acme/shop/storefront!1' }],
    // workflow:rules:variables apply to every job and override global variables (https://docs.gitlab.com/ci/yaml/#workflowrulesvariables).
    ['review', 'mergeRequest', [true, 'on_success', 1], 'https://docs.gitlab.com/ci/yaml/#workflowrulesvariables'],
    ['review', 'feature', ['depends', 'manual', 2], 'https://docs.gitlab.com/ci/yaml/#ruleschanges'],
    // exists + when: never, then when: on_success: depends on the file (https://docs.gitlab.com/ci/yaml/#rulesexists).
    ['docs', 'feature', ['depends', 'never', 1], 'https://docs.gitlab.com/ci/yaml/#rulesexists'],
  ]);
});

describe('rules details', () => {
  const rows: Array<[string, string, ScenarioName, true | false | 'depends', string]> = [
    // A matching rule with when: never excludes the job (https://docs.gitlab.com/ci/yaml/#rulesif).
    ['when never', '  rules:\n    - if: $CI_COMMIT_TAG\n      when: never\n    - when: always\n', 'tag', false, 'https://docs.gitlab.com/ci/yaml/#rulesif'],
    ['when never, later rule', '  rules:\n    - if: $CI_COMMIT_TAG\n      when: never\n    - when: always\n', 'feature', true, `${RULES}#avoid-duplicate-pipelines`],
    // A rule whose if is false is skipped even when it has changes (all clauses must hold, https://docs.gitlab.com/ci/jobs/job_rules/#complex-rules).
    ['if false with changes', '  rules:\n    - if: $CI_COMMIT_TAG\n      changes: [a]\n', 'feature', false, `${RULES}#complex-rules`],
    ['if true with changes', '  rules:\n    - if: $CI_COMMIT_BRANCH\n      changes: [a]\n', 'feature', 'depends', `${RULES}#complex-rules`],
    // changes either way to the same outcome decides nothing: the next rule would add the job the same way.
    ['changes, same outcome either way', '  rules:\n    - changes: [a]\n    - when: on_success\n', 'feature', true, 'https://docs.gitlab.com/ci/yaml/#ruleschanges'],
    // Without a push or merge request there are no changed files: changes is true (https://docs.gitlab.com/ci/yaml/#ruleschanges).
    ['changes in a tag pipeline', '  rules:\n    - changes: [a]\n', 'tag', true, 'https://docs.gitlab.com/ci/yaml/#ruleschanges'],
    ['changes in a scheduled pipeline', '  rules:\n    - changes: [a]\n      when: manual\n', 'schedule', true, 'https://docs.gitlab.com/ci/yaml/#ruleschanges'],
    ['changes in a merge request pipeline', '  rules:\n    - changes: [a]\n', 'mergeRequest', 'depends', 'https://docs.gitlab.com/ci/yaml/#ruleschanges'],
    ['changes:compare_to is compared in every pipeline', '  rules:\n    - changes:\n        paths: [a]\n        compare_to: refs/heads/main\n', 'schedule', 'depends', 'https://docs.gitlab.com/ci/yaml/#ruleschangescompare_to'],
    ['exists depends on the files in every pipeline', '  rules:\n    - exists: [Dockerfile]\n', 'tag', 'depends', 'https://docs.gitlab.com/ci/yaml/#rulesexists'],
    ['only:changes in a scheduled pipeline', '  only:\n    refs: [schedules]\n    changes: [a]\n', 'schedule', true, 'https://docs.gitlab.com/ci/yaml/deprecated_keywords/#onlychanges--exceptchanges'],
    ['only:kubernetes active', '  only:\n    kubernetes: active\n', 'feature', 'depends', 'https://docs.gitlab.com/ci/yaml/deprecated_keywords/#onlykubernetes--exceptkubernetes'],
    // An invalid expression does not match (GitLab's Statement#truthful? rescues the error).
    ['invalid expression (also reported)', '  rules:\n    - if: $A ==\n', 'feature', false, 'https://docs.gitlab.com/ci/jobs/job_rules/#cicd-variable-expressions'],
    // Job variables are in scope for the job's rules:if (lib/gitlab/ci/build/context/build.rb).
    ['job variable in rules:if', '  variables:\n    DEPLOY: "yes"\n  rules:\n    - if: $DEPLOY == "yes"\n', 'feature', true, 'https://docs.gitlab.com/ci/yaml/#variables'],
    ['job when never without rules', '  when: never\n', 'feature', false, 'https://docs.gitlab.com/ci/yaml/#when'],
  ];
  for (const [what, jobYaml, scenario, runs, source] of rows) {
    test(`${what}: ${runs} — ${source}`, () => {
      const pipeline = readPipeline(`job:\n  script: x\n${jobYaml}`, () => null);
      assert.deepEqual(pipeline.problems.map((p) => p.code), what.includes('invalid') ? ['pipeline.invalidExpression'] : []);
      const decision = jobDecision(pipeline, pipeline.jobs[0], variablesOf(scenario));
      assert.equal(decision.runs, runs, decision.reason);
    });
  }

  test('global variables are visible to workflow:rules, and pipeline variables override them (https://docs.gitlab.com/ci/variables/#cicd-variable-precedence)', () => {
    const pipeline = readPipeline('variables:\n  RUN: "no"\nworkflow:\n  rules:\n    - if: $RUN == "yes"\njob:\n  script: x\n', () => null);
    assert.equal(workflowDecision(pipeline, variablesOf('feature')).runs, false);
    assert.equal(workflowDecision(pipeline, variablesOf('feature', { RUN: 'yes' })).runs, true);
  });

  test('inherit:variables false hides global variables from the job rules (https://docs.gitlab.com/ci/yaml/#inheritvariables)', () => {
    const pipeline = readPipeline('variables:\n  RUN: "yes"\njob:\n  script: x\n  inherit:\n    variables: false\n  rules:\n    - if: $RUN\n', () => null);
    assert.equal(jobDecision(pipeline, pipeline.jobs[0], variablesOf('feature')).runs, false);
  });

  test('rules with only: GitLab rejects the job; rules decide here (https://docs.gitlab.com/ci/yaml/#rules)', () => {
    const pipeline = readPipeline('job:\n  script: x\n  only: [tags]\n  rules:\n    - if: $CI_COMMIT_BRANCH\n', () => null);
    assert.deepEqual(pipeline.problems.map((p) => [p.code, p.location.range.start.line]), [['pipeline.rulesWithOnly', 2]]);
    assert.equal(jobDecision(pipeline, pipeline.jobs[0], variablesOf('feature')).runs, true);
  });

  test('the reason names the rule and its condition', () => {
    const pipeline = loadFixture('review-apps');
    const decision = jobDecision(pipeline, job(pipeline, 'production'), variablesOf('defaultBranch'));
    assert.equal(decision.reason, 'rule 1 matches ($CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH): when manual');
    assert.equal(decision.location?.range.start.line, job(pipeline, 'production').rules![0].location.range.start.line);
  });
});
