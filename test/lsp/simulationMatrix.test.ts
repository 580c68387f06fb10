/**
 * The simulation view over stdio: the data the matrix receives — which entry each cell
 * belongs to, the line that decided it (a click reveals it), the context name from the setting or
 * the git remote (and saying when it is unknown), and what the RBAC check answers when no cluster
 * can be asked.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { SIMULATE_REQUEST, SIMULATION_ACCESS_REQUEST, type SimulateResult, type SimulationAccessResult } from '../../server/src/protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/shop/payments
      protected_branches_only: true
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: payments-$CI_ENVIRONMENT_SLUG
        - when: never
    - id: acme/shop/web
      default_namespace: web
      access_as:
        ci_job: {}
  groups:
    - id: acme/platform
      access_as:
        impersonate:
          username: platform-deployer
`;

const lineOf = (text: string) => rangeOf(CONFIG, text).start.line;

describe('LSP over stdio: the simulation view’s data', () => {
  const clients: LspTestClient[] = [];
  const start = async (options: Parameters<typeof LspTestClient.start>[0]) => {
    const client = await LspTestClient.start(options);
    clients.push(client);
    return client;
  };
  const folders: string[] = [];
  after(async () => {
    for (const client of clients) await client.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  test('each cell names its entry and the line of what decided it', async () => {
    const client = await start({ settings: { configProjectPath: 'acme/infra' } });
    const uri = agentConfigUri('matrix-agent');
    await client.open(uri, CONFIG);
    const table = await client.request<SimulateResult>(SIMULATE_REQUEST, { uri });
    const cell = (entry: string, scenario: string) => {
      const row = table.rows.find((r) => r.entry === entry && r.scenario === scenario);
      assert.ok(row, `${entry} × ${scenario} in ${table.rows.map((r) => `${r.entry} × ${r.scenario}`).join(', ')}`);
      return row;
    };
    assert.deepEqual([...new Set(table.rows.map((r) => r.entry))], ['project acme/shop/payments', 'project acme/shop/web', 'group acme/platform']);
    // Rule 1 decides the default branch; rule 2 (when: never) refuses the tag; a plain entry decides at its id.
    assert.equal(cell('project acme/shop/payments', 'default branch → production').decidedLine, lineOf('- if: $CI_COMMIT_BRANCH'));
    assert.equal(cell('project acme/shop/payments', 'tag release').decidedLine, lineOf('- when: never'));
    assert.equal(cell('project acme/shop/payments', 'tag release').authorized, false);
    assert.equal(cell('project acme/shop/web', 'tag release').decidedLine, lineOf('- id: acme/shop/web'));
    assert.equal(cell('project acme/shop/web', 'tag release').line, lineOf('- id: acme/shop/web'));
  });

  test('the RBAC check keys name identity × namespace: equal for equal pairs, none for denied or agent cells', async () => {
    const client = await start({ settings: { configProjectPath: 'acme/infra' } });
    const uri = agentConfigUri('matrix-keys');
    await client.open(uri, CONFIG);
    const { rows } = await client.request<SimulateResult>(SIMULATE_REQUEST, { uri });
    // The agent's own ServiceAccount (payments, by default) depends on how the agent was installed: not asked.
    const asked = (r: (typeof rows)[number]) => r.authorized && r.entry !== 'project acme/shop/payments';
    for (const row of rows) assert.equal(row.accessKey !== null, asked(row), `${row.entry} × ${row.scenario}`);
    // web, namespace web in every scenario: the default branch and the tag both deploy to production
    // (one identity), the feature branch to a review app (its ci_job groups name that environment).
    const key = (scenario: string) => rows.find((r) => r.entry === 'project acme/shop/web' && r.scenario === scenario)?.accessKey;
    assert.ok(key('default branch → production'));
    assert.equal(key('tag release'), key('default branch → production'));
    assert.notEqual(key('feature branch → review app'), key('default branch → production'));
  });

  test('the context name comes from the setting, else the git remote, else the view is told it is unknown', async () => {
    const repository = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-lsp-matrix-'));
    folders.push(repository);
    mkdirSync(path.join(repository, '.git'));
    writeFileSync(path.join(repository, '.git', 'config'), '[remote "origin"]\n\turl = git@gitlab.example.com:acme/infra/agents.git\n');
    mkdirSync(path.join(repository, '.gitlab', 'agents', 'deployer'), { recursive: true });
    const inRepository = pathToFileURL(path.join(repository, '.gitlab', 'agents', 'deployer', 'config.yaml')).href;
    const outside = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-lsp-matrix-nogit-'));
    folders.push(outside);
    mkdirSync(path.join(outside, '.gitlab', 'agents', 'deployer'), { recursive: true });
    const noRemote = pathToFileURL(path.join(outside, '.gitlab', 'agents', 'deployer', 'config.yaml')).href;

    const fromGit = await start({});
    await fromGit.open(inRepository, CONFIG);
    await fromGit.open(noRemote, CONFIG);
    const git = await fromGit.request<SimulateResult>(SIMULATE_REQUEST, { uri: inRepository });
    assert.equal(git.context, 'acme/infra/agents:deployer');
    assert.equal(git.contextSource, 'git remote');
    const unknown = await fromGit.request<SimulateResult>(SIMULATE_REQUEST, { uri: noRemote });
    assert.equal(unknown.contextSource, null);
    assert.match(unknown.context, /:deployer$/);

    const fromSetting = await start({ settings: { configProjectPath: 'acme/other' } });
    await fromSetting.open(inRepository, CONFIG);
    const set = await fromSetting.request<SimulateResult>(SIMULATE_REQUEST, { uri: inRepository });
    assert.equal(set.context, 'acme/other:deployer');
    assert.equal(set.contextSource, 'setting');
  });

  test('no cluster is asked without trust or a selected cluster, and the view is told why', async () => {
    const untrusted = await start({ settings: { configProjectPath: 'acme/infra' } });
    const uri = agentConfigUri('matrix-cluster');
    await untrusted.open(uri, CONFIG);
    const table = await untrusted.request<SimulateResult>(SIMULATE_REQUEST, { uri });
    assert.ok('unavailable' in table.cluster && /not trusted/.test(table.cluster.unavailable), JSON.stringify(table.cluster));
    const keys = table.rows.flatMap((r) => (r.accessKey ? [r.accessKey] : []));
    const refused = await untrusted.request<SimulationAccessResult>(SIMULATION_ACCESS_REQUEST, { uri, keys });
    assert.deepEqual(refused.answers, []);
    assert.match(refused.unavailable ?? '', /not trusted/);

    const noCluster = await start({ settings: { configProjectPath: 'acme/infra' }, initializationOptions: { workspaceTrusted: true } });
    await noCluster.open(uri, CONFIG);
    const none = await noCluster.request<SimulateResult>(SIMULATE_REQUEST, { uri });
    assert.ok('unavailable' in none.cluster && /Select Cluster Context/.test(none.cluster.unavailable), JSON.stringify(none.cluster));
  });

  test('a cluster that cannot answer is said so per identity, never guessed', async () => {
    const missing = path.join(os.tmpdir(), `agentcfg-no-such-kubeconfig-${process.pid}`);
    const client = await start({ settings: { configProjectPath: 'acme/infra' }, initializationOptions: { workspaceTrusted: true, cluster: { kubeconfigPath: missing } } });
    const uri = agentConfigUri('matrix-unreachable');
    await client.open(uri, CONFIG);
    const table = await client.request<SimulateResult>(SIMULATE_REQUEST, { uri });
    assert.deepEqual(table.cluster, { context: null });
    const keys = [...new Set(table.rows.flatMap((r) => (r.accessKey ? [r.accessKey] : [])))];
    const result = await client.request<SimulationAccessResult>(SIMULATION_ACCESS_REQUEST, { uri, keys: [...keys, 'stale-key'] });
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.answers.map((a) => a.key).sort(), [...keys].sort(), 'one answer per key asked; the stale key is ignored');
    for (const answer of result.answers) {
      assert.equal(answer.ok, false);
      assert.ok(answer.text.length > 0);
      assert.deepEqual(answer.capabilities, []);
    }
  });
});
