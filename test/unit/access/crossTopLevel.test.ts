// docs/gitlab-behaviour.md#authorization-order, 3: entries outside the top-level group of the agent
// configuration project. GitLab drops them silently; `ci_access` may name them from 18.1 and
// `user_access` from 18.4, when an administrator enables instance-level authorization
// (`organization_cluster_agent_authorization_enabled`). Sources:
// https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/ (history, issue
// https://gitlab.com/gitlab-org/gitlab/-/issues/377932), https://gitlab.com/gitlab-org/gitlab/-/merge_requests/190769 ,
// https://docs.gitlab.com/user/clusters/agent/user_access/ (history, issue
// https://gitlab.com/gitlab-org/gitlab/-/issues/557818), https://gitlab.com/gitlab-org/gitlab/-/merge_requests/202853 .
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CROSS_TOP_LEVEL_IGNORED_CODE, CROSS_TOP_LEVEL_SETTING_CODE } from '../../../server/src/engine/access/crossTopLevel';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { simulateAccess } from '../../../server/src/engine/access/simulate';
import { VERSIONED_BEHAVIOURS } from '../../../server/src/engine/gitlab/gitlabVersions';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, scenarioContext, simulateEntries } from '../../../server/src/engine/api';

const PATH = '/repo/.gitlab/agents/prod/config.yaml';
const CONFIG = [
  'ci_access:',
  '  projects:',
  '    - id: acme/web',
  '    - id: Partners/shop',
  '  groups:',
  '    - id: partners/team',
  'user_access:',
  '  access_as:',
  '    agent: {}',
  '  projects:',
  '    - id: ACME/ops',
  '  groups:',
  '    - id: contractors/sre',
  '',
].join('\n');

const CROSS = [CROSS_TOP_LEVEL_IGNORED_CODE, CROSS_TOP_LEVEL_SETTING_CODE];

function notes(version: string, configProjectPath = 'acme/infra', text = CONFIG) {
  const settings = { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion: version, configProjectPath };
  return checkAgentFile({ path: PATH, content: text }, settings, NO_SIBLINGS)
    .filter((d) => CROSS.includes(d.code))
    .map((d) => ({ line: d.range.start.line, severity: d.severity, code: d.code, message: d.message }));
}

describe('entries outside the top-level group of the agent configuration project', () => {
  test('the table rows: ci_access 18.1, user_access 18.4, with their sources', () => {
    assert.equal(VERSIONED_BEHAVIOURS.crossTopLevelCiAccess.added, '18.1');
    assert.equal(VERSIONED_BEHAVIOURS.crossTopLevelUserAccess.added, '18.4');
    assert.ok(VERSIONED_BEHAVIOURS.crossTopLevelCiAccess.sources.includes('https://gitlab.com/gitlab-org/gitlab/-/merge_requests/190769'));
    assert.ok(VERSIONED_BEHAVIOURS.crossTopLevelUserAccess.sources.includes('https://gitlab.com/gitlab-org/gitlab/-/merge_requests/202853'));
  });

  // [version, severity per line: Partners/shop (3), partners/team (5), contractors/sre (12)]
  for (const [version, expected] of [
    ['17.11', [[3, 'warning'], [5, 'warning'], [12, 'warning']]],
    ['18.0', [[3, 'warning'], [5, 'warning'], [12, 'warning']]],
    ['18.1', [[3, 'information'], [5, 'information'], [12, 'warning']]],
    ['18.3', [[3, 'information'], [5, 'information'], [12, 'warning']]],
    ['18.4', [[3, 'information'], [5, 'information'], [12, 'information']]],
    ['19.5', [[3, 'information'], [5, 'information'], [12, 'information']]],
  ] as const) {
    test(`GitLab ${version}`, () => {
      const found = notes(version);
      assert.deepEqual(found.map((d) => [d.line, d.severity]), expected);
      for (const d of found) assert.equal(d.code, d.severity === 'warning' ? CROSS_TOP_LEVEL_IGNORED_CODE : CROSS_TOP_LEVEL_SETTING_CODE);
    });
  }

  test('the warning says GitLab ignores the entry, from which version it is allowed and that it needs the instance setting', () => {
    const [shop] = notes('18.0');
    assert.match(shop.message, /ci_access project "Partners\/shop" \(top-level group "Partners"\) is outside "acme", the top-level group of the agent configuration project acme\/infra/);
    assert.match(shop.message, /GitLab 18\.0 ignores the entry without a message\. From GitLab 18\.1, ci_access may name projects and groups of other top-level groups when an administrator enables instance-level authorization/);
    assert.match(shop.message, /organization_cluster_agent_authorization_enabled/);
    const sre = notes('18.3').find((d) => d.line === 12)!;
    assert.match(sre.message, /user_access group "contractors\/sre".*GitLab 18\.3 ignores the entry.*From GitLab 18\.4, user_access may name/);
  });

  test('from the version: a note that it needs the instance setting', () => {
    const [shop] = notes('18.1');
    assert.match(shop.message, /GitLab counts it only when an administrator enables instance-level authorization .*; otherwise it ignores the entry without a message\./);
  });

  test('nothing when the configuration project is unknown, or every entry shares its top-level group (case-insensitively)', () => {
    assert.deepEqual(notes('18.0', ''), []);
    assert.deepEqual(notes('18.0', 'ACME/infra', 'ci_access:\n  projects:\n    - id: acme/web\n  groups:\n    - id: Acme\n'), []);
  });

});

describe('the simulation of an entry of another top-level group', () => {
  const model = readCiAccess(parseYaml(CONFIG).value);
  const agent = { configProjectPath: 'acme/infra', name: 'prod' };
  const job = { projectPath: 'partners/team/app', ref: 'main', defaultBranch: 'main' };

  test('before 18.1 it is denied even with instance-level authorization, saying why', () => {
    const outcome = simulateAccess(model, agent, job, { gitlabVersion: '18.0', instanceLevel: true });
    assert.equal(outcome.authorized, false);
    assert.equal(outcome.denial, 'group entry "partners/team" is outside "acme", the top-level group of the agent configuration project acme/infra: GitLab 18.0 ignores it (from 18.1, with instance-level authorization)');
  });

  test('from 18.1 it counts with instance-level authorization, and without it the denial names the setting', () => {
    assert.equal(simulateAccess(model, agent, job, { gitlabVersion: '18.1', instanceLevel: true }).authorized, true);
    const off = simulateAccess(model, agent, job, { gitlabVersion: '18.1' });
    assert.equal(off.authorized, false);
    assert.match(off.denial!, /GitLab 18\.1 counts it only with instance-level authorization, which is off here/);
  });

  test('a left-out entry shadows nothing: the instance entry serves the job before 18.1, the project entry from 18.1', () => {
    const text = 'ci_access:\n  projects:\n    - id: partners/team/app\n      environments: [production]\n  instance: {}\n';
    const both = readCiAccess(parseYaml(text).value);
    const staging = { ...job, environmentName: 'staging' };
    const old = simulateAccess(both, agent, staging, { gitlabVersion: '18.0', instanceLevel: true });
    assert.deepEqual([old.authorized, old.via], [true, 'instance']);
    assert.match(old.explanation[0], /project entry "partners\/team\/app" is outside "acme".*GitLab 18\.0 ignores it/);
    const now = simulateAccess(both, agent, staging, { gitlabVersion: '18.1', instanceLevel: true });
    assert.deepEqual([now.authorized, now.via], [false, 'project']);
  });

  test('the simulation table gives the reason in each row of the entry', () => {
    const settings = { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion: '18.0', configProjectPath: 'acme/infra' };
    const simulation = simulateEntries(model, scenarioContext(settings, 'prod'));
    const shop = simulation.entries.find((e) => e.entry.id === 'Partners/shop')!;
    for (const { outcome } of shop.outcomes) assert.match(outcome.denial!, /outside "acme".*GitLab 18\.0 ignores it/);
  });

  test("the checks of an entry's own namespaces still run on it (they exercise the entry, not GitLab's choice)", () => {
    const text = 'ci_access:\n  projects:\n    - id: partners/shop\n      rules:\n        - namespace: Bad_$CI_COMMIT_REF_SLUG\n';
    const settings = { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion: '18.0', configProjectPath: 'acme/infra' };
    const codes = checkAgentFile({ path: PATH, content: text }, settings, NO_SIBLINGS).map((d) => d.code);
    assert.ok(codes.includes('namespace.invalidForAll'), codes.join(', '));
  });
});
