// docs/gitlab-behaviour.md#top-level-keys-and-list-limits: GitLab reads 100 entries of each
// `ci_access`/`user_access` `projects` and `groups` list before 17.0 and 500 from 17.0, and drops
// the rest silently. Sources: https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/ and
// https://docs.gitlab.com/user/clusters/agent/user_access/ (history: "limit raised from 100 to 500
// in GitLab 17.0", https://gitlab.com/gitlab-org/gitlab/-/merge_requests/149844), Rails
// `app/services/clusters/agents/authorizations/ci_access/refresh_service.rb` (`AUTHORIZED_ENTITY_LIMIT`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { simulateAccess } from '../../../server/src/engine/access/simulate';
import { authorizedEntityLimit, VERSIONED_BEHAVIOURS } from '../../../server/src/engine/gitlab/gitlabVersions';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import { agentConfigSchemaFor } from '../../../server/src/engine/config/versionedSchema';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, scenarioContext, simulateEntries } from '../../../server/src/engine/api';

const AGENT = { configProjectPath: 'acme/infra', name: 'prod' };
const PATH = '/repo/.gitlab/agents/prod/config.yaml';

/** `count` project entries `acme/p0`…; `extra(i)` adds lines to entry i. */
function config(count: number, extra: (i: number) => string = () => ''): string {
  const entries = Array.from({ length: count }, (_, i) => `    - id: acme/p${i}\n${extra(i)}`).join('');
  return `ci_access:\n  projects:\n${entries}`;
}

const codes = (text: string, version: string, code: string) => validateAgentConfig(text, { gitlabVersion: version }).filter((d) => d.code === code);

describe('the list limit follows the GitLab version', () => {
  test('the table row: 100 before 17.0, 500 from 17.0, with its sources', () => {
    assert.deepEqual(['16.0', '16.11', '17.0', '19.5'].map(authorizedEntityLimit), [100, 100, 500, 500]);
    assert.equal(VERSIONED_BEHAVIOURS.authorizedEntities500.added, '17.0');
    assert.ok(VERSIONED_BEHAVIOURS.authorizedEntities500.sources.includes('https://gitlab.com/gitlab-org/gitlab/-/merge_requests/149844'));
  });

  for (const [version, warned, at] of [
    ['16.11', true, 100],
    ['17.0', false, -1],
  ] as const) {
    test(`102 entries in ${version}: ${warned ? `config.entryLimit on entry ${at + 1}` : 'no warning'}`, () => {
      const text = config(102);
      const found = codes(text, version, 'config.entryLimit');
      assert.equal(found.length, warned ? 1 : 0);
      if (!warned) return;
      assert.equal(found[0].range.start.line, 2 + at);
      assert.match(found[0].message, /102 entries; GitLab honours only the first 100 \(GitLab 16\.11; 17\.0 raised the limit to 500\), so this entry and the 1 after it are ignored/);
    });
  }

  test('user_access lists have the same limit', () => {
    const entries = Array.from({ length: 101 }, (_, i) => `    - id: acme/u${i}\n`).join('');
    const text = `user_access:\n  access_as:\n    agent: {}\n  groups:\n${entries}`;
    assert.equal(codes(text, '16.11', 'config.entryLimit').length, 1);
    assert.equal(codes(text, '17.0', 'config.entryLimit').length, 0);
  });

  test('entries past the limit are not linted: a wildcard environment in entry 101', () => {
    const text = config(101, (i) => (i === 100 ? '      environments: ["*"]\n' : ''));
    assert.equal(codes(text, '16.11', 'security.wildcardEnvironment').length, 0);
    assert.equal(codes(text, '17.0', 'security.wildcardEnvironment').length, 1);
  });

  test('a duplicate id past the limit replaces nothing, so it is no duplicate', () => {
    const text = config(106).replace('- id: acme/p105', '- id: acme/p5');
    assert.equal(codes(text, '16.11', 'config.duplicateId').length, 0);
    assert.equal(codes(text, '17.0', 'config.duplicateId').length, 1);
  });

  test('the rules checks stop at the limit too (a namespace invalid in every scenario in entry 101)', () => {
    const text = config(101, (i) => (i === 100 ? '      rules:\n        - namespace: Bad_$CI_COMMIT_REF_SLUG\n' : ''));
    const settings = (gitlabVersion: string) => ({ ...DEFAULT_PROJECT_SETTINGS, gitlabVersion, configProjectPath: AGENT.configProjectPath });
    const found = (version: string) => checkAgentFile({ path: PATH, content: text }, settings(version), NO_SIBLINGS).filter((d) => d.code.startsWith('namespace.'));
    assert.equal(found('16.11').length, 0);
    assert.ok(found('17.0').length > 0);
  });

  test('the simulation leaves out entries past the limit, and says why a job they alone would serve is denied', () => {
    const model = readCiAccess(parseYaml(config(101)).value);
    const job = { projectPath: 'acme/p100', ref: 'main', defaultBranch: 'main' };
    const old = simulateAccess(model, AGENT, job, { gitlabVersion: '16.11' });
    assert.equal(old.authorized, false);
    assert.equal(old.denial, 'project entry "acme/p100" is entry 101 of ci_access.projects: GitLab 16.11 reads only the first 100');
    assert.equal(simulateAccess(model, AGENT, job, { gitlabVersion: '17.0' }).authorized, true);
  });

  test('a later duplicate past the limit does not win in the simulation', () => {
    // Entry 3 limits acme/app to production; entry 102 (read from 17.0 only) lets every job through.
    const text = config(101, (i) => (i === 2 ? '      environments: [production]\n' : '')).replace('- id: acme/p2\n', '- id: acme/app\n') + '    - id: acme/app\n';
    const model = readCiAccess(parseYaml(text).value);
    const staging = { projectPath: 'acme/app', ref: 'main', defaultBranch: 'main', environmentName: 'staging' };
    assert.equal(simulateAccess(model, AGENT, staging, { gitlabVersion: '16.11' }).authorized, false);
    assert.equal(simulateAccess(model, AGENT, staging, { gitlabVersion: '17.0' }).authorized, true);
  });

  test('the simulation table has rows for the entries the version reads', () => {
    const model = readCiAccess(parseYaml(config(103)).value);
    const rows = (gitlabVersion: string) => simulateEntries(model, scenarioContext({ ...DEFAULT_PROJECT_SETTINGS, gitlabVersion }, 'prod')).entries.length;
    assert.equal(rows('16.11'), 100);
    assert.equal(rows('17.0'), 103);
  });

  test('hover says how many entries the version reads', () => {
    const projects = (version: string) => ((agentConfigSchemaFor(version).properties as Record<string, { properties: Record<string, { description: string }> }>).ci_access.properties.projects.description);
    assert.match(projects('16.11'), /first 100 entries.*GitLab 16\.11; 500 from 17\.0/);
    assert.match(projects('17.0'), /first 500 entries/);
  });
});
