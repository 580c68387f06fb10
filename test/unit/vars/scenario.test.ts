// docs/gitlab-behaviour.md#variables-available-to-job-rules, docs/gitlab-behaviour.md#predefined-variables: a scenario expands into the predefined variables GitLab would set, each marked with
// whether job `rules:if` may read it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allVariableValues,
  environmentSlug,
  guessEnvironmentTier,
  PREDEFINED_VARIABLES,
  predefinedVariable,
  rulesIfVariables,
  scenarioVariables,
  type Scenario,
} from '../../../server/src/engine/vars/index';
import { variableValuesByProject } from '../../../server/src/engine/vars/scenario';
import { evaluate } from '../../../server/src/engine/expr/index';

const BRANCH: Scenario = {
  projectPath: 'group/sub/project',
  projectId: 42,
  ref: 'main',
  defaultBranch: 'main',
  protectedRef: true,
  environmentName: 'production',
  userLogin: 'alice',
};

function values(scenario: Scenario): Record<string, string> {
  return Object.fromEntries(allVariableValues(scenarioVariables(scenario)));
}

// docs/gitlab-behaviour.md#predefined-variables
describe('predefined variables from a scenario', () => {
  test('project variables', () => {
    const v = values(BRANCH);
    assert.equal(v.CI_PROJECT_PATH, 'group/sub/project');
    assert.equal(v.CI_PROJECT_NAME, 'project');
    assert.equal(v.CI_PROJECT_NAMESPACE, 'group/sub');
    assert.equal(v.CI_PROJECT_ROOT_NAMESPACE, 'group');
    assert.equal(v.CI_PROJECT_PATH_SLUG, 'group-sub-project');
    assert.equal(v.CI_PROJECT_ID, '42');
  });
  test('branch pipeline: CI_COMMIT_BRANCH set, no CI_COMMIT_TAG', () => {
    const v = values(BRANCH);
    assert.equal(v.CI_COMMIT_BRANCH, 'main');
    assert.equal(v.CI_COMMIT_REF_NAME, 'main');
    assert.equal(v.CI_COMMIT_REF_SLUG, 'main');
    assert.equal(v.CI_COMMIT_REF_PROTECTED, 'true');
    assert.equal(v.CI_DEFAULT_BRANCH, 'main');
    assert.equal(v.CI_PIPELINE_SOURCE, 'push');
    assert.equal(v.GITLAB_USER_LOGIN, 'alice');
    assert.equal('CI_COMMIT_TAG' in v, false);
  });
  test('tag pipeline: CI_COMMIT_TAG set, no CI_COMMIT_BRANCH', () => {
    const v = values({ ...BRANCH, ref: 'v1.2.0', isTag: true });
    assert.equal(v.CI_COMMIT_TAG, 'v1.2.0');
    assert.equal(v.CI_COMMIT_REF_SLUG, 'v1-2-0');
    assert.equal('CI_COMMIT_BRANCH' in v, false);
  });
  test('merge request pipeline: no CI_COMMIT_BRANCH; MR variables; source merge_request_event', () => {
    const v = values({ ...BRANCH, ref: 'feature/x', isMergeRequest: true, protectedRef: false });
    assert.equal('CI_COMMIT_BRANCH' in v, false);
    assert.equal(v.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME, 'feature/x');
    assert.equal(v.CI_MERGE_REQUEST_TARGET_BRANCH_NAME, 'main');
    assert.equal(v.CI_PIPELINE_SOURCE, 'merge_request_event');
    assert.equal(v.CI_COMMIT_REF_PROTECTED, 'false');
  });
  // docs/gitlab-behaviour.md#predefined-variables, docs/gitlab-behaviour.md#ref-and-environment-slugs
  test('environment variables are computed (slug, tier guess, action)', () => {
    const v = values({ ...BRANCH, environmentName: 'review/feature-x' });
    assert.equal(v.CI_ENVIRONMENT_NAME, 'review/feature-x');
    assert.equal(v.CI_ENVIRONMENT_SLUG, environmentSlug('review/feature-x'));
    assert.equal(v.CI_ENVIRONMENT_TIER, 'development');
    assert.equal(v.CI_ENVIRONMENT_ACTION, 'start');
  });
  test('an explicit tier wins over the guess', () => {
    assert.equal(values({ ...BRANCH, environmentTier: 'staging' }).CI_ENVIRONMENT_TIER, 'staging');
  });
  test('no environment → no CI_ENVIRONMENT_*', () => {
    const { environmentName: _unused, ...noEnv } = BRANCH;
    assert.equal(Object.keys(values(noEnv)).some((k) => k.startsWith('CI_ENVIRONMENT_')), false);
  });
  test('user variables override predefined ones and are visible to rules:if', () => {
    const vars = scenarioVariables({ ...BRANCH, variables: { CI_DEFAULT_BRANCH: 'develop', DEPLOY: 'yes' } });
    assert.equal(vars.get('CI_DEFAULT_BRANCH')?.value, 'develop');
    assert.equal(vars.get('DEPLOY')?.source, 'user');
    assert.equal(vars.get('DEPLOY')?.availableInRulesIf, true);
  });
});

// docs/gitlab-behaviour.md#variables-available-to-job-rules
describe('which variables rules:if sees', () => {
  test('CI_ENVIRONMENT_* have values but are not available to rules:if', () => {
    const vars = scenarioVariables(BRANCH);
    const slug = vars.get('CI_ENVIRONMENT_SLUG');
    assert.equal(slug?.value, 'production');
    assert.equal(slug?.availableInRulesIf, false);
    assert.equal(rulesIfVariables(vars).has('CI_ENVIRONMENT_SLUG'), false);
    assert.equal(rulesIfVariables(vars).get('CI_COMMIT_BRANCH'), 'main');
  });
  // docs/gitlab-behaviour.md#variables-available-to-job-rules, docs/gitlab-behaviour.md#ci_access-rules-design
  test('a job rule on CI_ENVIRONMENT_SLUG is false in GitLab, true with all values (design)', () => {
    const vars = scenarioVariables(BRANCH);
    assert.equal(evaluate('$CI_ENVIRONMENT_SLUG == "production"', rulesIfVariables(vars)).truthy, false);
    assert.equal(evaluate('$CI_ENVIRONMENT_SLUG == "production"', allVariableValues(vars)).truthy, true);
  });
  const table: Array<[string, boolean]> = [
    ['CI_COMMIT_BRANCH', true],
    ['CI_DEFAULT_BRANCH', true],
    ['CI_PIPELINE_SOURCE', true],
    ['CI_PIPELINE_IID', true],
    ['GITLAB_USER_LOGIN', true],
    ['CI_PIPELINE_ID', false],
    ['CI_JOB_ID', false],
    ['CI_JOB_TOKEN', false],
    ['CI_REGISTRY_PASSWORD', false],
    ['CI_ENVIRONMENT_NAME', false],
    ['CI_ENVIRONMENT_URL', false],
  ];
  for (const [name, available] of table) {
    test(`${name} availableInRulesIf = ${available}`, () => assert.equal(predefinedVariable(name)?.availableInRulesIf, available));
  }
  // docs/gitlab-behaviour.md#predefined-variables
  test('the table has unique names and rules:if visibility follows availability', () => {
    const names = PREDEFINED_VARIABLES.map((v) => v.name);
    assert.equal(new Set(names).size, names.length);
    for (const v of PREDEFINED_VARIABLES) {
      assert.equal(v.availableInRulesIf, v.availability === 'pre-pipeline' || v.availability === 'pipeline', v.name);
    }
  });
});

describe('Environment#guess_tier (deployment tier when not set)', () => {
  const rows: Array<[string, string]> = [
    ['production', 'production'],
    ['prod', 'production'],
    ['live', 'production'],
    ['staging', 'staging'],
    ['stg', 'staging'],
    ['pre-prod', 'staging'],
    ['test', 'testing'],
    ['qa', 'testing'],
    ['review/feature-x', 'development'],
    ['dev', 'development'],
    ['review/production-fix', 'development'],
    ['sandbox', 'other'],
  ];
  for (const [name, tier] of rows) test(`guess_tier ${name} → ${tier}`, () => assert.equal(guessEnvironmentTier(name), tier));
});

// The rule checks derive a scenario's variables once and move them to each entry's project.
describe('variableValuesByProject', () => {
  const sorted = (values: ReadonlyMap<string, string>) => [...values].sort(([a], [b]) => a.localeCompare(b));
  const situations: [string, Scenario][] = [
    ['a branch', BRANCH],
    ['a tag with an environment', { projectPath: 'x/y', ref: 'v1.0.0', isTag: true, defaultBranch: 'main', environmentName: 'review/Feature_1' }],
    ['a merge request', { projectPath: 'x/y', ref: 'feature/login', isMergeRequest: true, defaultBranch: 'main' }],
    ['a user variable named like a project variable', { projectPath: 'x/y', ref: 'main', defaultBranch: 'main', variables: { CI_PROJECT_NAME: 'mine', DEPLOY: 'yes' } }],
  ];
  for (const [name, scenario] of situations) {
    test(`${name}: the same values as deriving the scenario in each project`, () => {
      const inProject = variableValuesByProject(scenario);
      for (const projectPath of ['acme/app', 'acme/team-1/Service_2', 'solo', 'a/b/c/d']) {
        const expected = allVariableValues(scenarioVariables({ ...scenario, projectPath }));
        // Looked up name by name (what the checks do, without making the whole map), then whole.
        const values = inProject(projectPath);
        for (const [variable, value] of expected) assert.equal(values.get(variable), value, `${variable} in ${projectPath}`);
        assert.equal(values.get('NOT_A_VARIABLE'), undefined);
        assert.equal(values.has('NOT_A_VARIABLE') || ![...expected.keys()].every((variable) => values.has(variable)), false);
        assert.deepEqual(sorted(values), sorted(expected), projectPath);
        assert.equal(values.size, expected.size);
      }
    });
  }
});
