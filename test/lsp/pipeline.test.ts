/**
 * The pipeline's access map over stdio, on `.gitlab-ci.yml`: the lens above each job, the hover
 * with the per-situation table, and the three diagnostics where the pipeline and the agent
 * configurations disagree (an agent that does not authorize the job, an invalid namespace, a
 * `kubectl --context` no authorized agent provides). Contexts are named
 * `<agent configuration project path>:<agent name>` (docs/gitlab-behaviour.md#job-kubeconfig).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { CodeLens, Hover } from 'vscode-languageserver-protocol';
import { PIPELINE_JOBS_REQUEST, type PipelineJobsResult } from '../../server/src/protocol';
import { LspTestClient, repoRoot } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/shop
      default_namespace: shop
      access_as:
        ci_job: {}
      environments: [production, review/*]
      protected_branches_only: true
    - id: acme/other
`;

const PIPELINE = `variables:
  AGENT: acme/agents:prod

review:
  script:
    - kubectl --context acme/agents:prod get pods
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    kubernetes:
      agent: acme/agents:prod
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"

deploy:
  script:
    - kubectl --context acme/agents:prod apply -f k8s/
    - kubectl --context acme/agents:prd rollout status deploy/app
  environment:
    name: production
    kubernetes:
      agent: acme/agents:prod
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`;

describe('LSP over stdio: the access map on .gitlab-ci.yml', () => {
  let client: LspTestClient;
  let workspace: string;
  let uri: string;
  let configFile: string;
  before(async () => {
    // Two repositories, as on GitLab: the project acme/shop with its pipeline, and acme/agents
    // holding the agent's configuration, which the setting agentConfigs points at.
    workspace = mkdtempSync(path.join(tmpdir(), 'agentcfg-pipeline-'));
    const shop = path.join(workspace, 'shop');
    const agents = path.join(workspace, 'agents');
    for (const [repo, remote] of [[shop, 'git@gitlab.example.com:acme/shop.git'], [agents, 'https://gitlab.example.com/acme/agents.git']]) {
      mkdirSync(repo, { recursive: true });
      execFileSync('git', ['init', '-q', repo]);
      execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', remote]);
    }
    configFile = path.join(agents, '.gitlab', 'agents', 'prod', 'config.yaml');
    mkdirSync(path.dirname(configFile), { recursive: true });
    writeFileSync(configFile, CONFIG);
    writeFileSync(path.join(shop, '.gitlab-ci.yml'), PIPELINE);
    uri = pathToFileURL(path.join(shop, '.gitlab-ci.yml')).href;
    client = await LspTestClient.start({ settings: { agentConfigs: ['../agents/.gitlab/agents/prod/config.yaml'] }, workspaceFolder: workspace });
  });
  after(async () => {
    await client.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('diagnostics: the agent denies the review job (protected_branches_only), and a context no agent provides', async () => {
    const published = await client.open(uri, PIPELINE);
    const byCode = new Map(published.diagnostics.map((d) => [d.code, d]));
    assert.deepEqual([...byCode.keys()].sort(), ['pipeline.agentDenied', 'pipeline.unknownContext'], JSON.stringify(published.diagnostics, null, 2));
    const denied = byCode.get('pipeline.agentDenied')!;
    assert.match(denied.message, /Agent "acme\/agents:prod" does not authorize job "review" in "merge request from feature\/login": .*protected_branches_only/);
    assert.deepEqual(denied.range.start, rangeOf(PIPELINE, 'agent: acme/agents:prod\n  rules').start);
    const unknown = byCode.get('pipeline.unknownContext')!;
    assert.deepEqual(unknown.range.start, rangeOf(PIPELINE, 'acme/agents:prd').start);
    assert.match(unknown.message, /no context "acme\/agents:prd".*did you mean "acme\/agents:prod"/);
  });

  test('an invalid namespace for a job is flagged at its environment', async () => {
    const config = CONFIG.replace('default_namespace: shop', 'default_namespace: Shop_NS');
    const configUri = pathToFileURL(configFile).href;
    // The pipeline is mapped again when an agent's configuration changes in the editor.
    const waiting = client.nextDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'pipeline.invalidNamespace'));
    await client.open(configUri, config);
    const republished = await waiting;
    const invalid = republished.diagnostics.find((d) => d.code === 'pipeline.invalidNamespace')!;
    assert.match(invalid.message, /Job "deploy" would get an invalid namespace in "push to main" \(acme\/agents:prod\)/);
    // Closed without saving: the file on disk counts again.
    const reverted = client.nextDiagnostics(uri, (p) => !p.diagnostics.some((d) => d.code === 'pipeline.invalidNamespace'));
    client.close(configUri);
    await reverted;
  });

  test('a lens above each job says what it gets, where and as whom', async () => {
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const titles = Object.fromEntries(lenses.map((l) => [l.range.start.line, l.command?.title]));
    assert.equal(titles[rangeOf(PIPELINE, 'deploy:').start.line], '☸ prod → shop as ci_job · runs in 2/5 situations');
    assert.equal(titles[rangeOf(PIPELINE, 'review:').start.line], '☸ no cluster access · runs in 1/5 situations');
  });

  test('the hover on a job shows every situation with its contexts', async () => {
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: rangeOf(PIPELINE, 'deploy:').start });
    const text = (hover.contents as { value: string }).value;
    assert.match(text, /\| push to main \| ✓ runs \| production \| `acme\/agents:prod` → `shop` as gitlab:ci\\_job:<job id> \|/);
    assert.match(text, /\| tag v1\.2\.0 \| ✗ no \|/);
  });

  test('other features stay with the user\'s YAML extension: no completion, symbols or folding from us', async () => {
    const symbols = await client.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols, []);
  });
});

describe('LSP over stdio: the results view of an agent lists the jobs of the pipeline beside it', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start({ settings: { configProjectPath: 'acme/infra/agents', pipelineProjectPath: 'acme/shop/storefront' }, workspaceFolder: path.join(repoRoot, 'examples') });
  });
  after(async () => {
    await client.stop();
  });

  test('examples: the jobs that run, per situation, with the context production-agent gives them', async () => {
    const config = path.join(repoRoot, 'examples', '.gitlab', 'agents', 'production-agent', 'config.yaml');
    const uri = pathToFileURL(config).href;
    await client.open(uri, readFileSync(config, 'utf8'));
    const jobs = await client.request<PipelineJobsResult>(PIPELINE_JOBS_REQUEST, { uri });
    assert.equal(jobs.pipeline, '.gitlab-ci.yml');
    assert.equal(jobs.project, 'acme/shop/storefront');
    const row = (job: string, scenario: string) => jobs.rows.find((r) => r.job === job && r.scenario === scenario);
    assert.deepEqual(row('review', 'merge request from feature/login'), { job: 'review', scenario: 'merge request from feature/login', runs: true, when: 'on_success', environment: 'review/feature-login', authorized: true, namespace: 'storefront', identity: 'gitlab:ci_job:<job id>', reason: null, managedEnvironment: true, line: row('review', 'merge request from feature/login')?.line });
    assert.equal(row('deploy_production', 'push to main')?.when, 'manual');
    // Jobs that do not run in a situation are not listed; a job without environment is refused by the entry's filter.
    assert.equal(row('review', 'push to main'), undefined);
    assert.match(row('build', 'push to main')?.reason ?? '', /no environment/);
    client.close(uri);
  });
});

describe('LSP over stdio: several checkouts in one opened folder, each its own project', () => {
  // The opened folder holds a checkout of acme/shop next to the settings' project: the checkout's
  // agent and pipeline are acme/shop's (its git remote), not the settings' other/platform.
  let client: LspTestClient;
  let workspace: string;
  const CHECKOUT_CONFIG = 'ci_access:\n  projects:\n    - id: acme/shop/web\n';
  const CHECKOUT_PIPELINE = 'deploy:\n  script:\n    - kubectl --context acme/shop:deployer get pods\n  environment: production\n';
  before(async () => {
    workspace = mkdtempSync(path.join(tmpdir(), 'agentcfg-checkouts-'));
    const shop = path.join(workspace, 'shop');
    mkdirSync(path.join(shop, '.gitlab', 'agents', 'deployer'), { recursive: true });
    execFileSync('git', ['init', '-q', shop]);
    execFileSync('git', ['-C', shop, 'remote', 'add', 'origin', 'git@gitlab.example.com:acme/shop.git']);
    writeFileSync(path.join(shop, '.gitlab', 'agents', 'deployer', 'config.yaml'), CHECKOUT_CONFIG);
    writeFileSync(path.join(shop, '.gitlab-ci.yml'), CHECKOUT_PIPELINE);
    client = await LspTestClient.start({ settings: { configProjectPath: 'other/platform', pipelineProjectPath: 'other/platform' }, workspaceFolder: workspace });
  });
  after(async () => {
    await client.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('the checkout\'s pipeline gets its own agent\'s context, and its config is not outside its top-level group', async () => {
    const pipeline = await client.open(pathToFileURL(path.join(workspace, 'shop', '.gitlab-ci.yml')).href, CHECKOUT_PIPELINE);
    assert.deepEqual(pipeline.diagnostics, [], 'no "kubectl would fail": the context is acme/shop:deployer');
    const config = await client.open(pathToFileURL(path.join(workspace, 'shop', '.gitlab', 'agents', 'deployer', 'config.yaml')).href, CHECKOUT_CONFIG);
    assert.deepEqual(config.diagnostics.filter((d) => String(d.code).startsWith('authorization.crossTopLevel')), []);
  });

  test('a trigger job: its lens says it gets no KUBECONFIG, its hover lists its child pipeline\'s jobs', async () => {
    const shop = path.join(workspace, 'shop');
    mkdirSync(path.join(shop, 'ci'), { recursive: true });
    writeFileSync(path.join(shop, 'ci', 'child.yml'), 'rollout:\n  script:\n    - kubectl --context acme/shop:deployer rollout status deploy/web\n  environment: production\n');
    const text = 'child:\n  trigger:\n    include: ci/child.yml\n';
    const uri = pathToFileURL(path.join(shop, '.gitlab-ci.yml')).href;
    await client.change(uri, text);
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.deepEqual(lenses.map((l) => l.command?.title), ['☸ trigger job: no KUBECONFIG · runs in 4/5 situations']);
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } });
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /trigger job: it starts a downstream pipeline and runs on no runner, so it gets no KUBECONFIG/);
    assert.match(value, /\*\*Its child pipeline\*\*/);
    assert.match(value, /\| child ▸ rollout · push to main \| ✓ runs \| production \| `acme\/shop:deployer` → /);
  });
});
