import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { projectPathFromRemoteUrl } from '../../server/src/repository/gitRemote';
import { agentcfg } from '../support/cli';

const CONFIG = 'examples/.gitlab/agents/production-agent/config.yaml';

describe('agentcfg simulate', () => {
  test('--json prints the documented shape', () => {
    const { code, stdout } = agentcfg('simulate', CONFIG, '--project', 'acme/shop/payments', '--environment', 'production', '--protected', '--agent-project', 'acme/infra/agents', '--json');
    assert.equal(code, 0);
    const result = JSON.parse(stdout);
    assert.deepEqual(Object.keys(result), ['authorized', 'via', 'entry', 'rule', 'namespace', 'access_as', 'identity', 'context', 'resource_management', 'problems', 'denial', 'explanation']);
    assert.deepEqual([result.authorized, result.via, result.entry, result.rule, result.namespace, result.context], [true, 'project', 'acme/shop/payments', 1, 'payments-production', 'acme/infra/agents:production-agent']);
  });

  test('a feature branch of the protected-only project is denied', () => {
    const result = JSON.parse(agentcfg('simulate', CONFIG, '--project', 'acme/shop/payments', '--ref', 'feature/x', '--json').stdout);
    assert.equal(result.authorized, false);
    assert.match(result.denial, /protected_branches_only/);
    assert.equal(result.explanation.at(-1), `denied: ${result.denial}`);
  });

  test('--var values reach the rules', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-'));
    const file = path.join(dir, 'config.yaml');
    writeFileSync(file, 'ci_access:\n  projects:\n    - id: g/p\n      rules:\n        - if: $DEPLOY == "yes"\n          namespace: ns-$DEPLOY\n');
    assert.equal(JSON.parse(agentcfg('simulate', file, '--project', 'g/p', '--var', 'DEPLOY=yes', '--json').stdout).namespace, 'ns-yes');
    assert.equal(JSON.parse(agentcfg('simulate', file, '--project', 'g/p', '--json').stdout).authorized, false);
  });

  test('a scenarios file gives one NDJSON line per scenario', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-'));
    const scenarios = path.join(dir, 'scenarios.json');
    writeFileSync(scenarios, JSON.stringify([
      { projectPath: 'acme/shop/storefront', ref: 'main', defaultBranch: 'main', environmentName: 'production' },
      { projectPath: 'acme/shop/storefront', ref: 'main', defaultBranch: 'main', environmentName: 'staging' },
    ]));
    const lines = agentcfg('simulate', CONFIG, '--scenarios', scenarios, '--json').stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.authorized), [true, false]);
  });

  test('the human table', () => {
    const { stdout } = agentcfg('simulate', CONFIG, '--project', 'acme/shop/storefront', '--environment', 'production');
    assert.match(stdout, /^scenario\s+authorized\s+via\s+rule\s+namespace\s+identity\s+problems$/m);
    assert.match(stdout, /acme\/shop\/storefront @ main → production\s+yes\s+project acme\/shop\/storefront\s+-\s+storefront\s+gitlab:ci_job:<job id>/);
  });

  test('without --project or --scenarios: every entry × the active scenarios, as the editor\'s table', () => {
    const { code, stdout } = agentcfg('simulate', CONFIG, '--agent-project', 'acme/infra/agents', '--json');
    assert.equal(code, 0);
    const table = JSON.parse(stdout);
    assert.equal(table.context, 'acme/infra/agents:production-agent');
    assert.deepEqual(table.scenarios, ['default branch → production', 'feature branch → review app', 'tag release', 'merge request pipeline']);
    const payments = table.rows.filter((r: { project: string }) => r.project === 'acme/shop/payments');
    assert.deepEqual(payments.map((r: { authorized: boolean; denial: string | null }) => [r.authorized, r.denial]), [
      [true, null],
      [false, 'protected_branches_only is true and the ref is not protected'],
      [false, 'rule 3 has when: never'],
      [false, 'protected_branches_only is true and the ref is not protected'],
    ]);
    assert.match(agentcfg('simulate', CONFIG, '--no-preset-scenarios').stdout, /· 0 scenarios/);
  });

  test('--expect fails the run when a result differs, and says why on stderr', () => {
    const met = agentcfg('simulate', CONFIG, '--project', 'acme/shop/payments', '--protected', '--environment', 'production', '--expect', 'authorized');
    assert.equal(met.code, 0);
    const unmet = agentcfg('simulate', CONFIG, '--project', 'acme/shop/payments', '--ref', 'feature/x', '--expect', 'authorized');
    assert.equal(unmet.code, 1);
    assert.match(unmet.stderr, /expectation not met: acme\/shop\/payments @ feature\/x: expected access, but it is denied: protected_branches_only is true/);
  });

  test('a scenario\'s "expect" checks namespace and identity too', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-'));
    const scenarios = path.join(dir, 'scenarios.json');
    writeFileSync(scenarios, JSON.stringify([
      { name: 'prod deploy', projectPath: 'acme/shop/payments', ref: 'main', protectedRef: true, environmentName: 'production', expect: { authorized: true, namespace: 'payments-production' } },
      { name: 'review app', projectPath: 'acme/shop/storefront', ref: 'feature/x', environmentName: 'review/x', expect: { namespace: 'review' } },
    ]));
    const { code, stderr } = agentcfg('simulate', CONFIG, '--scenarios', scenarios);
    assert.equal(code, 1);
    assert.deepEqual(stderr.trim().split('\n'), ['expectation not met: review app: expected namespace "review", got "storefront"']);
    writeFileSync(scenarios, JSON.stringify([{ projectPath: 'a/b', ref: 'main', expect: { authorised: true } }]));
    assert.match(agentcfg('simulate', CONFIG, '--scenarios', scenarios).stderr, /scenario 1 must be .*unknown key "authorised"/);
  });

  test('usage errors exit 2', () => {
    assert.equal(agentcfg('simulate', CONFIG, '--ref', 'main').code, 2);
    assert.equal(agentcfg('simulate', CONFIG, '--project', 'a/b', '--tier', 'prod').code, 2);
  });
});

// docs/gitlab-behaviour.md#authorization-order
describe('configuration project from the git remote', () => {
  const cases: [string, string | null][] = [
    ['git@gitlab.com:acme/infra/agents.git', 'acme/infra/agents'],
    ['https://gitlab.example.com/acme/agents.git', 'acme/agents'],
    ['ssh://git@gitlab.example.com:2222/acme/sub/agents.git', 'acme/sub/agents'],
    ['https://gitlab.example.com/acme/agents', 'acme/agents'],
    ['/local/path/repo', null],
  ];
  for (const [url, expected] of cases) test(`${url} → ${expected}`, () => assert.equal(projectPathFromRemoteUrl(url), expected));
});
