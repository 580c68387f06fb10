// docs/gitlab-behaviour.md#template-variables-and-functions (template variables and where Rails takes them from) and docs/gitlab-behaviour.md#legacy-namespace (`.legacy_namespace`, the
// certificate-based integration's per-environment namespace).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildTemplateData,
  legacyNamespace,
  sanitizeNamespace,
  TEMPLATE_FUNCTION_NAMES,
  TEMPLATE_VARIABLE_PATHS,
  TEMPLATE_VARIABLES,
  type EnvironmentTemplateData,
} from '../../../server/src/engine/template/templateVariables';
import { renderGoTemplate } from '../../../server/src/engine/template/render/index';
import type { Scenario } from '../../../server/src/engine/vars/index';

const REVIEW: Scenario = {
  projectPath: 'group/My_App',
  projectId: 42,
  ref: 'feature-x',
  defaultBranch: 'main',
  environmentName: 'review/feature-x',
  userLogin: 'alice',
};

function data(scenario: Scenario = REVIEW, ids: Partial<Parameters<typeof buildTemplateData>[1]> = {}): EnvironmentTemplateData {
  const result = buildTemplateData(scenario, { agentId: 7, agentName: 'review-agent', agentProjectPath: 'group/agents', ...ids });
  if (!result.ok) assert.fail(result.message);
  return result.data;
}

// docs/gitlab-behaviour.md#legacy-namespace
describe('legacy_namespace', () => {
  test('worked example: project path My_App, id 42, env review/feature-x → my-app-42-review-feature-x-bjrazc', () => {
    assert.equal(data().legacy_namespace, 'my-app-42-review-feature-x-bjrazc');
    assert.equal(legacyNamespace('My_App', 42, 'review-feature-x-bjrazc'), 'my-app-42-review-feature-x-bjrazc');
  });
  test('the prefix is cut to 63 - suffix length, so the name fits a namespace', () => {
    const ns = legacyNamespace('a'.repeat(80), 42, 'production');
    assert.equal(ns, `${'a'.repeat(63 - '-42-production'.length)}-42-production`);
    assert.equal(ns.length, 63);
  });
  const rows: Array<[string, string]> = [
    ['my_app', 'my-app'],
    ['-_lead', 'lead'],
    ['a.b-c', 'a-b-c'],
    // Capitals are not lowered here (Rails lowers the path first), so they all become dashes.
    ['UPPER', ''],
  ];
  for (const [input, expected] of rows) {
    test(`NamespaceSanitizer ${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(sanitizeNamespace(input), expected);
    });
  }
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('template data from a scenario', () => {
  test('every variable, with its Rails source', () => {
    assert.deepEqual(data(REVIEW, { environmentId: 9, pipelineId: 100, jobId: 200, userId: 5, gitlabUrl: 'https://gitlab.example.com/' }), {
      agent: { id: 7, name: 'review-agent', url: 'https://gitlab.example.com/group/agents/-/cluster_agents/review-agent' },
      environment: {
        id: 9,
        name: 'review/feature-x',
        slug: 'review-feature-x-bjrazc',
        url: '',
        page_url: 'https://gitlab.example.com/group/My_App/-/environments/9',
        tier: 'development',
      },
      project: { id: 42, slug: 'My_App', path: 'group/My_App', url: 'https://gitlab.example.com/group/My_App' },
      ci_pipeline: { id: 100 },
      ci_job: { id: 200 },
      user: { id: 5, username: 'alice' },
      legacy_namespace: 'my-app-42-review-feature-x-bjrazc',
    });
  });
  test('.project.slug is the last path component unmodified (may be an invalid namespace)', () => {
    assert.equal(data().project.slug, 'My_App');
  });
  test('unset pipeline and job ids default to 0; environment url to ""', () => {
    const d = data();
    assert.equal(d.ci_pipeline.id, 0);
    assert.equal(d.ci_job.id, 0);
    assert.equal(d.environment.url, '');
  });
  test('the scenario tier and url win over the guess', () => {
    const d = data({ ...REVIEW, environmentTier: 'staging', environmentUrl: 'https://x.example' });
    assert.equal(d.environment.tier, 'staging');
    assert.equal(d.environment.url, 'https://x.example');
  });
  test('ids passed explicitly override the scenario project id; a numeric string id is accepted', () => {
    assert.equal(data(REVIEW, { projectId: 99 }).project.id, 99);
    assert.equal(data({ ...REVIEW, projectId: '77' }).project.id, 77);
  });
  // docs/gitlab-behaviour.md#opting-in-to-managed-resources
  test('no environment → no template data (GitLab renders only for jobs with an environment)', () => {
    const { environmentName: _, ...noEnv } = REVIEW;
    const result = buildTemplateData(noEnv, { agentId: 1, agentName: 'a' });
    assert.equal(result.ok, false);
    assert.equal(result.ok ? '' : result.reason, 'noEnvironment');
  });
  test('no project id → an explicit failure, not a made-up id', () => {
    const { projectId: _, ...noId } = REVIEW;
    const result = buildTemplateData(noId, { agentId: 1, agentName: 'a' });
    assert.equal(result.ok ? '' : result.reason, 'noProjectId');
  });
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('known variables and functions (for completion and checks)', () => {
  test('the 18 documented variable paths', () => {
    assert.equal(TEMPLATE_VARIABLE_PATHS.length, 18);
    assert.equal(new Set(TEMPLATE_VARIABLE_PATHS).size, 18);
    assert.ok(TEMPLATE_VARIABLES.every((v) => v.description.length > 0));
  });
  for (const path of TEMPLATE_VARIABLE_PATHS) {
    test(`${path} is present in built data and has its documented type`, () => {
      const result = renderGoTemplate(`{{ printf "%T" ${path} }}`, data());
      assert.ok(result.ok);
      const type = TEMPLATE_VARIABLES.find((v) => v.path === path)?.type;
      assert.equal(result.text, type);
    });
  }
  test('function names: GitLab\'s six plus Go\'s builtins', () => {
    for (const name of ['lower', 'substr', 'replace', 'trimPrefix', 'trimSuffix', 'slugify', 'printf', 'eq', 'and', 'or', 'not', 'index', 'len']) {
      assert.ok(TEMPLATE_FUNCTION_NAMES.includes(name), name);
    }
  });
});
