/** GitLab's shipped ci_access authorization (docs/gitlab-behaviour.md#authorization-order). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { matchEnvironment } from '../../../server/src/engine/access/environmentMatcher';
import { UntrustedRegexp } from '../../../server/src/engine/expr/regexp/re2';
import { seededRandom } from '../../support/generateConfig';
import { simulateAccess } from '../../../server/src/engine/access/simulate';
import type { Scenario } from '../../../server/src/engine/vars/scenario';

const agent = { configProjectPath: 'acme/infra/agents', name: 'prod' };
const run = (config: string, scenario: Partial<Scenario> & { projectPath: string }, options = {}) =>
  simulateAccess(readCiAccess(parseYaml(config).value), agent, { ref: 'main', defaultBranch: 'main', ...scenario }, options);

// docs/gitlab-behaviour.md#authorization-order
describe('order of candidates, first per agent wins', () => {
  const config = `ci_access:
  projects:
    - id: acme/shop/app
      default_namespace: from-project
      environments: [production]
  groups:
    - id: acme
      default_namespace: from-top-group
    - id: acme/shop
      default_namespace: from-subgroup
`;
  test('an explicit project entry wins over groups', () => {
    const o = run(config, { projectPath: 'acme/shop/app', environmentName: 'production' });
    assert.deepEqual([o.authorized, o.via, o.entry, o.namespace], [true, 'project', 'acme/shop/app', 'from-project']);
  });
  test('filters apply after the winner is chosen: the project entry limited to production denies staging, groups do not help', () => {
    const o = run(config, { projectPath: 'acme/shop/app', environmentName: 'staging' });
    assert.deepEqual([o.authorized, o.via], [false, 'project']);
  });
  test('groups from the closest ancestor outward', () => {
    const o = run(config, { projectPath: 'acme/shop/other' });
    assert.deepEqual([o.via, o.entry, o.namespace], ['group', 'acme/shop', 'from-subgroup']);
    assert.equal(run(config, { projectPath: 'acme/web/site' }).entry, 'acme');
  });
  test('ids match case-insensitively', () => {
    assert.equal(run(config, { projectPath: 'ACME/Shop/App', environmentName: 'production' }).via, 'project');
  });
  test('the implicit authorization of the agent\'s own project comes after explicit project entries and before groups', () => {
    const o = run(config, { projectPath: 'acme/infra/agents' });
    assert.deepEqual([o.authorized, o.via, o.entry, o.access_as, o.namespace], [true, 'implicit', null, 'agent', null]);
  });
  test('projects outside the agent\'s top-level group need instance-level authorization', () => {
    const outside = `ci_access:\n  projects:\n    - id: other/app\n`;
    assert.equal(run(outside, { projectPath: 'other/app' }).authorized, false);
    assert.equal(run(outside, { projectPath: 'other/app' }, { instanceLevel: true }).authorized, true);
  });
  test('the instance entry comes last', () => {
    const o = run(`ci_access:\n  instance:\n    default_namespace: everyone\n`, { projectPath: 'anyone/app' });
    assert.deepEqual([o.via, o.namespace], ['instance', 'everyone']);
  });
  test('a later duplicate id replaces the earlier one', () => {
    const o = run(`ci_access:\n  projects:\n    - id: acme/app\n      default_namespace: first\n    - id: ACME/app\n      default_namespace: second\n`, { projectPath: 'acme/app' });
    assert.equal(o.namespace, 'second');
  });
  // docs/gitlab-behaviour.md#top-level-keys-and-list-limits
  test('only the first 500 entries count', () => {
    const entries = Array.from({ length: 501 }, (_, i) => `    - id: acme/p${i}`).join('\n');
    const config501 = `ci_access:\n  projects:\n${entries}\n`;
    assert.equal(run(config501, { projectPath: 'acme/p499' }).via, 'project');
    assert.equal(run(config501, { projectPath: 'acme/p500' }).via, null);
  });
});

// docs/gitlab-behaviour.md#environment-filter
describe('environments', () => {
  const cases: [string, string, boolean][] = [
    ['production', 'production', true],
    ['production', 'Production', false],
    ['review/*', 'review/feature-x', true],
    ['review/*', 'x-review/y', true], // unanchored
    ['review/*', 'review', false],
    ['*', 'anything', true],
    ['prod.*', 'prodXion', true], // "." is not escaped
    ['', 'production', false],
    ['  ', 'production', false],
  ];
  for (const [pattern, env, expected] of cases) {
    test(`"${pattern}" vs "${env}" → ${expected}`, () => assert.equal(matchEnvironment(pattern, env).matches, expected));
  }
  // matchEnvironment remembers wildcard results by pattern and environment: a key that dropped either would answer from the other.
  test('a remembered wildcard result answers only the same pattern and environment', () => {
    assert.equal(matchEnvironment('review/*', 'review/a').matches, true);
    assert.equal(matchEnvironment('review/*', 'production').matches, false);
    assert.equal(matchEnvironment('staging/*', 'review/a').matches, false);
    assert.equal(matchEnvironment('review/*', 'review/a').matches, true);
    assert.equal(matchEnvironment('review/*', 'production').matches, false);
  });
  test('an invalid wildcard pattern reports its problem every time it is matched', () => {
    const first = matchEnvironment('(*', 'production');
    assert.match(first.problem ?? '', /environment pattern "\(\*" is not a valid regular expression/);
    assert.deepEqual(matchEnvironment('(*', 'production'), first);
    assert.deepEqual(matchEnvironment('(*', 'review/a'), first);
  });
  // Plain wildcard patterns are matched without RE2: the same answers as RE2 on random patterns and names.
  test('wildcard patterns agree with RE2 on random patterns and names (newlines, dots and brackets included)', () => {
    const random = seededRandom(16);
    const text = (alphabet: string, max: number) => Array.from({ length: Math.floor(random() * max) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const pattern = `${text('ab/-* .[', 5)}*${text('ab/-* .[', 4)}`;
      const name = text('ab/-\n.', 8);
      const compiled = UntrustedRegexp.compile(pattern.replaceAll('*', '.*'), '');
      const expected = pattern.trim() === '' ? false : pattern === name || (compiled.ok && compiled.regexp.matches(name));
      assert.equal(matchEnvironment(pattern, name).matches, expected, JSON.stringify({ pattern, name }));
    }
  });
  test('a job without an environment fails a non-empty environments list', () => {
    assert.equal(run(`ci_access:\n  projects:\n    - id: acme/app\n      environments: ["*"]\n`, { projectPath: 'acme/app' }).authorized, false);
  });
});

// docs/gitlab-behaviour.md#protected-branches-filter
describe('protected_branches_only', () => {
  const config = `ci_access:\n  projects:\n    - id: acme/app\n      protected_branches_only: true\n`;
  test('protected ref passes', () => assert.equal(run(config, { projectPath: 'acme/app', protectedRef: true }).authorized, true));
  test('unprotected ref is denied', () => assert.equal(run(config, { projectPath: 'acme/app', protectedRef: false }).authorized, false));
});

// docs/gitlab-behaviour.md#access_as-identities, docs/gitlab-behaviour.md#job-kubeconfig
describe('access_as identity and the kubeconfig context', () => {
  test('ci_job: user and groups with the environment and tier', () => {
    const o = run(`ci_access:\n  projects:\n    - id: acme/shop/app\n      access_as:\n        ci_job: {}\n`, { projectPath: 'acme/shop/app', projectId: 42, environmentName: 'production' });
    assert.equal(o.identity?.username, 'gitlab:ci_job:<job id>');
    assert.deepEqual(o.identity?.groups, [
      'gitlab:ci_job',
      'gitlab:group:<id of acme>',
      'gitlab:group_env_tier:<id of acme>:production',
      'gitlab:group:<id of acme/shop>',
      'gitlab:group_env_tier:<id of acme/shop>:production',
      'gitlab:project:42',
      'gitlab:project_env:42:production',
      'gitlab:project_env_tier:42:production',
    ]);
    assert.deepEqual(o.identity?.extra['agent.gitlab.com/environment_slug'], ['production']);
    assert.equal(o.context, 'acme/infra/agents:prod');
  });
  test('impersonate: the configured identity', () => {
    const o = run(`ci_access:\n  projects:\n    - id: acme/app\n      access_as:\n        impersonate:\n          username: deployer\n          groups: [ops]\n`, { projectPath: 'acme/app' });
    assert.deepEqual([o.access_as, o.identity?.username, o.identity?.groups], ['impersonate', 'deployer', ['ops']]);
  });
  test('resource_management is reported from the winning entry', () => {
    assert.equal(run(`ci_access:\n  projects:\n    - id: acme/app\n      resource_management:\n        enabled: true\n`, { projectPath: 'acme/app' }).resource_management, true);
  });
});

describe('namespace length policy', () => {
  const long = 'x'.repeat(70);
  const config = `ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: ${long}\n`;
  test('error (default): the job would be aborted', () => {
    const o = run(config, { projectPath: 'acme/app' });
    assert.equal(o.authorized, false);
    assert.ok(o.problems.some((p) => p.code === 'namespace.invalid' && /63/.test(p.message)));
  });
  test('truncate: cut with a hash suffix, shown explicitly', () => {
    const o = run(config, { projectPath: 'acme/app' }, { overlongNamespace: 'truncate' });
    assert.equal(o.authorized, true);
    assert.equal(o.namespace!.length, 63);
    assert.match(o.namespace!, /^x{56}-[a-z0-9]{6}$/);
    assert.ok(o.problems.some((p) => p.code === 'namespace.truncated'));
  });
  test('target gitlab ignores rules and uses default_namespace literally', () => {
    const o = run(`ci_access:\n  projects:\n    - id: acme/app\n      default_namespace: base\n      rules:\n        - when: never\n`, { projectPath: 'acme/app' }, { target: 'gitlab' });
    assert.deepEqual([o.authorized, o.namespace, o.rule], [true, 'base', null]);
  });
});
