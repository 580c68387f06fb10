// environment:name and environment:kubernetes:agent as GitLab expands them when it creates the job
// (https://docs.gitlab.com/ci/variables/where_variables_can_be_used/#gitlab-ciyml-file; the expansion
// itself is docs/gitlab-behaviour.md#variable-expansion).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandAgentPath, expandEnvironmentName, readPipeline } from '../../../server/src/engine/pipeline/index';
import { job, loadFixture, variablesOf, type ScenarioName } from './pipelineFixtures';

describe('environment names of the fixtures', () => {
  const rows: Array<[folder: string, job: string, scenario: ScenarioName, expected: string, source: string]> = [
    // https://docs.gitlab.com/ci/environments/#create-a-dynamic-environment
    ['review-apps', 'review', 'mergeRequest', 'review/feature-login-page', 'https://docs.gitlab.com/ci/environments/#create-a-dynamic-environment'],
    // A job variable in the name is expanded (https://docs.gitlab.com/ci/yaml/#environmentname: CI/CD variables, including job variables).
    ['review-apps', 'production', 'defaultBranch', 'production', 'https://docs.gitlab.com/ci/yaml/#environmentname'],
    ['review-apps', 'staging', 'defaultBranch', 'staging', 'https://docs.gitlab.com/ci/yaml/#environmentname'],
    // workflow:rules:variables reach the job (https://docs.gitlab.com/ci/yaml/#workflowrulesvariables).
    ['workflow-mr', 'review', 'mergeRequest', 'review/feature-login-page-mr', 'https://docs.gitlab.com/ci/yaml/#workflowrulesvariables'],
    ['workflow-mr', 'review', 'feature', 'review/feature-login-page-branch', 'https://docs.gitlab.com/ci/yaml/#workflowrulesvariables'],
    // !reference'd variables are the job's variables (https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags).
    ['references', 'deploy', 'defaultBranch', 'production', 'https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags'],
  ];
  for (const [folder, name, scenario, expected, source] of rows) {
    test(`${folder} ${name} in ${scenario}: ${expected} — ${source}`, () => {
      const pipeline = loadFixture(folder);
      const result = expandEnvironmentName(job(pipeline, name), variablesOf(scenario), pipeline);
      assert.deepEqual(result, { name: expected, unresolved: [] });
    });
  }

  test('the agent path is expanded the same way, global variables included (https://docs.gitlab.com/ci/yaml/#environmentkubernetes)', () => {
    const pipeline = loadFixture('review-apps');
    const review = job(pipeline, 'review');
    assert.deepEqual(expandAgentPath(review, variablesOf('mergeRequest'), pipeline), { name: 'acme/infra/agents:production-agent', unresolved: [] });
    // Without the pipeline only the job's own variables are known.
    assert.deepEqual(expandAgentPath(review, variablesOf('mergeRequest')), { name: '', unresolved: ['KUBE_AGENT'] });
    assert.equal(expandAgentPath(job(pipeline, 'build'), variablesOf('mergeRequest'), pipeline), null);
  });
});

describe('expansion rules (docs/gitlab-behaviour.md#variable-expansion)', () => {
  const rows: Array<[what: string, variablesYaml: string, name: string, extra: Record<string, string>, expected: { name: string; unresolved: string[] }]> = [
    ['an unknown variable becomes empty', '', 'review/$UNKNOWN', {}, { name: 'review/', unresolved: ['UNKNOWN'] }],
    ['${VAR} and %VAR% forms', '    A: a\n', 'x-${A}-%A%', {}, { name: 'x-a-a', unresolved: [] }],
    // Job variables are expanded in one another first (https://docs.gitlab.com/ci/variables/where_variables_can_be_used/#gitlab-ciyml-file).
    ['a job variable holding another variable', '    ENV_NAME: review/$CI_COMMIT_REF_SLUG\n', '$ENV_NAME', {}, { name: 'review/feature-login-page', unresolved: [] }],
    // CI_ENVIRONMENT_* do not exist when the name is expanded (https://docs.gitlab.com/ci/yaml/#environmentname).
    ['CI_ENVIRONMENT_SLUG is not available', '', 'env-$CI_ENVIRONMENT_SLUG', { CI_ENVIRONMENT_SLUG: 'x' }, { name: 'env-', unresolved: ['CI_ENVIRONMENT_SLUG'] }],
    // Project and pipeline variables override YAML ones (https://docs.gitlab.com/ci/variables/#cicd-variable-precedence).
    ['a pipeline variable overrides the job variable', '    TARGET: yaml\n', '$TARGET', { TARGET: 'pipeline' }, { name: 'pipeline', unresolved: [] }],
    ['a reference cycle is left unexpanded', '    A: $B\n    B: $A\n', '$A', {}, { name: '$B', unresolved: [] }],
  ];
  for (const [what, variablesYaml, name, extra, expected] of rows) {
    test(what, () => {
      const vars = variablesYaml ? `  variables:\n${variablesYaml}` : '';
      const pipeline = readPipeline(`job:\n  script: x\n${vars}  environment:\n    name: "${name}"\n`, () => null);
      assert.deepEqual(pipeline.problems, []);
      assert.deepEqual(expandEnvironmentName(pipeline.jobs[0], variablesOf('feature', extra), pipeline), expected);
    });
  }
});
