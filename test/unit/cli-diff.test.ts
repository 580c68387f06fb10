/**
 * `agentcfg diff` on real temporary git repositories: the base read with git, the head
 * from the work tree, agents added and deleted, the three formats and the exit statuses.
 * What each change means follows GitLab's authorization (docs/gitlab-behaviour.md, sections cited below).
 */
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from './../support/lspClient';

const CLI = path.join(repoRoot, 'dist', 'cli.js');
const GOLDEN = path.join(repoRoot, 'test', 'fixtures', 'diff', 'access-diff.md');

/** Runs the built CLI in `cwd` (a temporary repository), as a CI job would. */
function agentcfgIn(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
}

function write(root: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

const PROD = '.gitlab/agents/prod/config.yaml';
const BASE_CONFIG = `ci_access:
  projects:
    - id: acme/shop/web
      default_namespace: web
      environments: ["review/*"]
    - id: acme/shop/api
      default_namespace: api
`;

/** A repository whose first commit holds the `prod` agent; its remote names the agent configuration project. */
function repository(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'agentcfg-diff-'));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'test@example.com');
  git(root, 'config', 'user.name', 'test');
  git(root, 'remote', 'add', 'origin', 'git@gitlab.example.com:acme/infra/agents.git');
  write(root, PROD, BASE_CONFIG);
  write(root, 'README.md', 'agents\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'agents');
  return root;
}

describe('agentcfg diff --base', () => {
  test('two commits: production added to an entry\'s environments gains access in the production situations (exit 1, JSON)', () => {
    const root = repository();
    // docs/gitlab-behaviour.md#environment-filter: the entry's environments filter the job's environment.
    write(root, PROD, BASE_CONFIG.replace('["review/*"]', '["review/*", production]'));
    git(root, 'commit', '-q', '-am', 'web deploys to production');
    const { code, stdout, stderr } = agentcfgIn(root, 'diff', '--base', 'HEAD~1', '--format', 'json');
    assert.equal(stderr, '');
    assert.equal(code, 1);
    const changes = JSON.parse(stdout);
    assert.deepEqual(changes.map((c: { project: string; scenario: string; kind: string }) => [c.project, c.scenario, c.kind]), [
      ['acme/shop/web', 'default branch → production', 'gained'],
      ['acme/shop/web', 'tag release', 'gained'],
    ]);
    const [first] = changes;
    assert.deepEqual(first.before, { authorized: false, namespace: null, identity: null, access_as: null, via: 'project acme/shop/web', rule: null, objects: null, denial: 'environment "production" matches none of review/*' });
    assert.deepEqual([first.after.authorized, first.after.namespace, first.after.identity], [true, 'web', "the agent's ServiceAccount (agentk)"]);
    // The kubeconfig context is named from the git remote (docs/gitlab-behaviour.md#job-kubeconfig).
    assert.deepEqual([first.severity, first.production, first.context], ['critical', true, 'acme/infra/agents:prod']);
    assert.deepEqual(first.lines, [{ file: PROD, version: 'after', line: 3 }]);
    rmSync(root, { recursive: true, force: true });
  });

  test('the work tree against HEAD: an edited, an added and a deleted agent', () => {
    const root = repository();
    write(root, '.gitlab/agents/legacy/config.yaml', 'ci_access:\n  groups:\n    - id: acme/legacy\n');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'legacy agent');
    rmSync(path.join(root, '.gitlab/agents/legacy'), { recursive: true });
    write(root, '.gitlab/agents/new/config.yaml', 'ci_access:\n  projects:\n    - id: acme/shop/web\n      protected_branches_only: true\n');
    write(root, PROD, BASE_CONFIG.replace('default_namespace: api', 'default_namespace: api-v2'));
    const changes = JSON.parse(agentcfgIn(root, 'diff', '--base', 'HEAD', '--format', 'json').stdout) as { agent: string; project: string; scenario: string; kind: string }[];
    const summary = [...new Set(changes.map((c) => `${c.agent} ${c.project} ${c.kind}`))];
    // A deleted config.yaml leaves an empty configuration (docs/gitlab-behaviour.md#config-file-location-and-parsing);
    // protected_branches_only lets only protected refs through (docs/gitlab-behaviour.md#protected-branches-filter).
    assert.deepEqual(summary, ['new acme/shop/web gained', 'legacy acme/legacy/example-project lost', 'prod acme/shop/api namespace']);
    assert.deepEqual([...new Set(changes.filter((c) => c.agent === 'new').map((c) => c.scenario))], ['default branch → production', 'tag release']);
    rmSync(root, { recursive: true, force: true });
  });

  test('paths limit the agents compared', () => {
    const root = repository();
    write(root, PROD, BASE_CONFIG.replace('default_namespace: api', 'default_namespace: api-v2'));
    write(root, '.gitlab/agents/other/config.yaml', 'ci_access:\n  projects:\n    - id: acme/other\n');
    const other = JSON.parse(agentcfgIn(root, 'diff', '--base', 'HEAD', '.gitlab/agents/other', '--format', 'json').stdout);
    assert.deepEqual([...new Set(other.map((c: { agent: string }) => c.agent))], ['other']);
    const prod = JSON.parse(agentcfgIn(root, 'diff', '--base', 'HEAD', PROD, '--format', 'json').stdout);
    assert.deepEqual([...new Set(prod.map((c: { agent: string }) => c.agent))], ['prod']);
    rmSync(root, { recursive: true, force: true });
  });

  test('a template that renames the managed namespace: an objects change at the template line', () => {
    const root = repository();
    const managed = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      environments: ["review/*"]\n      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n';
    const template = (name: string) => `objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "${name}"\n`;
    write(root, PROD, managed);
    write(root, '.gitlab/agents/prod/environment_templates/default.yaml', template('{{ .environment.slug }}-{{ .project.id }}'));
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'managed');
    write(root, '.gitlab/agents/prod/environment_templates/default.yaml', template('web-{{ .environment.slug }}'));
    const changes = JSON.parse(agentcfgIn(root, 'diff', '--base', 'HEAD', '--format', 'json').stdout);
    // GitLab renders default.yaml for managed jobs with an environment (docs/gitlab-behaviour.md#managed-resources-flow);
    // the slug is cut to 24 characters with a suffix (docs/gitlab-behaviour.md#ref-and-environment-slugs).
    assert.deepEqual(changes.map((c: { scenario: string; kind: string }) => [c.scenario, c.kind]), [['feature branch → review app', 'objects']]);
    assert.deepEqual([changes[0].before.objects, changes[0].after.objects], [['Namespace review-feature-lo-qiv329-12345678'], ['Namespace web-review-feature-lo-qiv329']]);
    assert.deepEqual(changes[0].lines[1], { file: '.gitlab/agents/prod/environment_templates/default.yaml', version: 'after', line: 5 });
    rmSync(root, { recursive: true, force: true });
  });

  test('the editor\'s settings decide the situations: --settings with its own scenarios and no presets', () => {
    const root = repository();
    write(root, '.vscode/settings.json', JSON.stringify({ 'gitlabAgentConfig.usePresetScenarios': false, 'gitlabAgentConfig.scenarios': [{ name: 'hotfix to production', ref: 'hotfix/1', environmentName: 'production' }] }));
    write(root, PROD, BASE_CONFIG.replace('["review/*"]', '["review/*", production]'));
    const changes = JSON.parse(agentcfgIn(root, 'diff', '--base', 'HEAD', '--settings', '.vscode/settings.json', '--format', 'json').stdout);
    assert.deepEqual(changes.map((c: { scenario: string; severity: string }) => [c.scenario, c.severity]), [['hotfix to production', 'critical']]);
    rmSync(root, { recursive: true, force: true });
  });

  test('nothing changes: exit 0, an empty markdown output, one line of text, []', () => {
    const root = repository();
    write(root, PROD, `# reformatted, same meaning\n${BASE_CONFIG}`);
    write(root, 'README.md', 'changed, but not an agent file\n');
    const markdown = agentcfgIn(root, 'diff', '--base', 'HEAD', '--format', 'markdown');
    assert.deepEqual([markdown.code, markdown.stdout], [0, '']);
    assert.deepEqual([agentcfgIn(root, 'diff', '--base', 'HEAD').stdout], ['No CI/CD access changes compared with HEAD.\n']);
    assert.equal(agentcfgIn(root, 'diff', '--base', 'HEAD', '--format', 'json').stdout, '[]\n');
    rmSync(root, { recursive: true, force: true });
  });

  test('--pipeline: the jobs of .gitlab-ci.yml (both versions) as scenarios', () => {
    const root = repository();
    const ci = 'deploy:\n  script: kubectl apply -f k8s/\n  environment:\n    name: production\n  rules:\n    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n';
    write(root, '.gitlab-ci.yml', ci);
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'pipeline');
    write(root, PROD, BASE_CONFIG.replace('["review/*"]', '["review/*", production]'));
    const { code, stdout, stderr } = agentcfgIn(root, 'diff', '--base', 'HEAD', '--pipeline', '.gitlab-ci.yml', '--pipeline-project', 'acme/shop/web', '--format', 'json');
    assert.equal(code, 1, stderr);
    const jobs = JSON.parse(stdout).filter((c: { job?: string }) => c.job);
    // docs/gitlab-behaviour.md#environment-filter: the deploy job's environment is production.
    assert.deepEqual(jobs.map((c: { scenario: string; kind: string; lines: unknown[] }) => [c.scenario, c.kind, c.lines]), [
      ['deploy · push to main', 'gained', [{ file: '.gitlab-ci.yml', version: 'after', line: 1 }]],
      ['deploy · schedule on main', 'gained', [{ file: '.gitlab-ci.yml', version: 'after', line: 1 }]],
    ]);
    assert.equal(agentcfgIn(root, 'diff', '--base', 'HEAD', '--pipeline', 'missing.yml').code, 2);
    rmSync(root, { recursive: true, force: true });
  });

  test('the markdown for a merge request: a summary line and a table (golden file)', () => {
    const root = repository();
    const after = BASE_CONFIG.replace('["review/*"]', '["review/*", production]').replace('    - id: acme/shop/api\n      default_namespace: api\n', '    - id: acme/shop/api\n      default_namespace: api\n      access_as:\n        ci_job: {}\n      protected_branches_only: true\n');
    write(root, PROD, after);
    const { code, stdout } = agentcfgIn(root, 'diff', '--base', 'HEAD', '--format', 'markdown');
    assert.equal(code, 1);
    if (process.env.UPDATE_GOLDEN) write(path.dirname(GOLDEN), path.basename(GOLDEN), stdout);
    assert.equal(stdout, readFileSync(GOLDEN, 'utf8'));
    rmSync(root, { recursive: true, force: true });
  });
});

describe('agentcfg diff <old> <new>', () => {
  test('two config files of one agent, named by its folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'agentcfg-diff-'));
    write(root, 'old.yaml', BASE_CONFIG);
    write(root, '.gitlab/agents/prod/config.yaml', BASE_CONFIG.replace('    - id: acme/shop/api\n      default_namespace: api\n', ''));
    const { code, stdout } = agentcfgIn(root, 'diff', 'old.yaml', '.gitlab/agents/prod/config.yaml', '--agent-project', 'acme/infra/agents', '--format', 'json');
    assert.equal(code, 1);
    const changes = JSON.parse(stdout);
    assert.deepEqual([...new Set(changes.map((c: { agent: string; project: string; kind: string }) => `${c.agent} ${c.project} ${c.kind}`))], ['prod acme/shop/api lost']);
    // A removed entry's line is in the old file.
    assert.deepEqual(changes[0].lines, [{ file: 'old.yaml', version: 'before', line: 6 }]);
    rmSync(root, { recursive: true, force: true });
  });
});

describe('agentcfg diff <old template> <new template>', () => {
  test('two environment templates are compared with the config.yaml beside the new one', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'agentcfg-diff-'));
    write(root, '.gitlab/agents/prod/config.yaml', 'ci_access:\n  projects:\n    - id: acme/shop/web\n      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n');
    const template = (name: string) => `objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "${name}"\n`;
    write(root, 'old-default.yaml', template('{{ .environment.slug }}'));
    write(root, '.gitlab/agents/prod/environment_templates/default.yaml', template('shop-{{ .environment.slug }}'));
    const { code, stdout } = agentcfgIn(root, 'diff', 'old-default.yaml', '.gitlab/agents/prod/environment_templates/default.yaml', '--agent-project', 'acme/infra/agents', '--format', 'json');
    assert.equal(code, 1);
    // Only situations with an environment get a managed environment (docs/gitlab-behaviour.md#opting-in-to-managed-resources).
    const changes = JSON.parse(stdout);
    assert.deepEqual(changes.map((c: { scenario: string; kind: string }) => [c.scenario, c.kind]), [
      ['default branch → production', 'objects'],
      ['feature branch → review app', 'objects'],
      ['tag release', 'objects'],
    ]);
    assert.deepEqual(changes[0].after.objects, ['Namespace shop-production']);
    assert.deepEqual(changes[0].lines[1], { file: '.gitlab/agents/prod/environment_templates/default.yaml', version: 'after', line: 5 });
    rmSync(root, { recursive: true, force: true });
  });
});

describe('agentcfg diff usage errors (exit 2)', () => {
  const root = repository();
  for (const [why, args] of [
    ['neither --base nor two files', []],
    ['one file', ['a.yaml']],
    ['an unknown revision', ['--base', 'no-such-branch']],
    ['an unknown format', ['--base', 'HEAD', '--format', 'html']],
    ['a path outside the repository', ['--base', 'HEAD', '..']],
    ['a project that is not a full path', ['--base', 'HEAD', '--project', 'web']],
    ['a missing file', ['missing-old.yaml', 'missing-new.yaml']],
  ] as const) {
    test(why, () => {
      const { code, stderr } = agentcfgIn(root, 'diff', ...args);
      assert.equal(code, 2, stderr);
    });
  }
  test('--base outside a git repository', () => {
    const { code, stderr } = agentcfgIn(mkdtempSync(path.join(tmpdir(), 'agentcfg-nogit-')), 'diff', '--base', 'HEAD');
    assert.equal(code, 2);
    assert.match(stderr, /needs a git repository/);
  });
});
