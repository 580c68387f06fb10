/**
 * `agentcfg pipeline`: the access map of examples/.gitlab-ci.yml (the pipeline of acme/shop/storefront)
 * against the example agents, in the JSON shape docs/user-guide/simulation.md documents, and its diagnostics on stderr.
 * Jobs run as GitLab decides (docs.gitlab.com/ci/jobs/job_rules/); contexts are named
 * `<agent configuration project path>:<agent name>` (docs/gitlab-behaviour.md#job-kubeconfig).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentcfg } from '../support/cli';

interface Row {
  job: string;
  scenario: string;
  runs: boolean | 'depends';
  when: string;
  environment: { name: string; action: string; agent: string | null } | null;
  contexts: { context: string; authorized: boolean; namespace: string | null; identity: string | null; reason?: string; managedEnvironment: boolean }[];
}

const run = (...extra: string[]) => agentcfg('pipeline', 'examples/.gitlab-ci.yml', '--project', 'acme/shop/storefront', '--agent-project', 'acme/infra/agents', ...extra);

describe('agentcfg pipeline', () => {
  test('--format json: one object per job and situation, with runs, environment and every context', () => {
    const { code, stdout, stderr } = run('--format', 'json');
    assert.equal(code, 0, stderr);
    const rows = JSON.parse(stdout) as Row[];
    const at = (job: string, scenario: string) => rows.find((r) => r.job === job && r.scenario === scenario)!;
    for (const row of rows) assert.deepEqual(Object.keys(row).slice(0, 6), ['job', 'scenario', 'runs', 'when', 'reason', 'environment']);

    const review = at('review', 'merge request from feature/login');
    assert.equal(review.runs, true);
    assert.equal(review.environment?.name, 'review/feature-login');
    const production = review.contexts.find((c) => c.context === 'acme/infra/agents:production-agent')!;
    assert.deepEqual([production.authorized, production.namespace, production.identity, production.managedEnvironment], [true, 'storefront', 'gitlab:ci_job:<job id>', true]);
    assert.equal(at('review', 'push to main').runs, false);

    const deploy = at('deploy_production', 'push to main');
    assert.deepEqual([deploy.runs, deploy.when, deploy.environment?.name], [true, 'manual', 'production']);
    // The build job has no environment: the agent's entry allows only production and review/*.
    const build = at('build', 'push to main').contexts.find((c) => c.context === 'acme/infra/agents:production-agent')!;
    assert.equal(build.authorized, false);
    assert.match(build.reason!, /no environment/);
  });

  test('the typo in a kubectl --context is reported on stderr at its line, with the right name', () => {
    const { stderr } = run();
    // At the path relative to the working directory (the repository root here), as given.
    assert.match(stderr, /^examples\/\.gitlab-ci\.yml:\d+:\d+: warning: kubectl would fail: the job's KUBECONFIG has no context "acme\/infra\/agents:prodution-agent".*did you mean "acme\/infra\/agents:production-agent"/m);
  });

  test('scenario flags map one situation', () => {
    const rows = JSON.parse(run('--ref', 'v2.0.0', '--tag', '--protected', '--format', 'json').stdout) as Row[];
    assert.deepEqual([...new Set(rows.map((r) => r.scenario))], ['tag v2.0.0']);
    assert.ok(rows.every((r) => r.runs === false || r.job === 'build'));
  });

  test('usage errors exit 2', () => {
    assert.equal(agentcfg('pipeline', 'no/such/.gitlab-ci.yml', '--project', 'a/b').code, 2);
  });

  test('without --project, the project of the git remote; without a remote, a usage error naming the flag', () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'agentcfg-pipeline-remote-'));
    writeFileSync(path.join(repo, '.gitlab-ci.yml'), 'deploy:\n  script: kubectl get pods\n  environment: production\n');
    const none = agentcfg('pipeline', path.join(repo, '.gitlab-ci.yml'));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /is in no git repository with a remote: name the project it runs in with --project <full\/path>/);
    mkdirSync(path.join(repo, '.git'));
    writeFileSync(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@gitlab.example.com:acme/shop/web.git\n');
    mkdirSync(path.join(repo, '.gitlab', 'agents', 'deployer'), { recursive: true });
    const mapped = agentcfg('pipeline', path.join(repo, '.gitlab-ci.yml'), '--format', 'json');
    assert.equal(mapped.code, 0, mapped.stderr);
    const context = (JSON.parse(mapped.stdout) as Row[])[0].contexts[0];
    // The agent of the project's own repository authorizes it implicitly: the remote named the project.
    assert.deepEqual([context.context, context.authorized], ['acme/shop/web:deployer', true]);

    // A custom CI file path (ci/pipeline.yml): its includes are read from the repository's root.
    mkdirSync(path.join(repo, 'ci'));
    writeFileSync(path.join(repo, 'ci', 'pipeline.yml'), 'include:\n  - local: ci/deploy.yml\n');
    writeFileSync(path.join(repo, 'ci', 'deploy.yml'), 'deploy:\n  script: kubectl get pods\n  environment: production\n');
    const custom = agentcfg('pipeline', path.join(repo, 'ci', 'pipeline.yml'), '--format', 'json');
    assert.equal(custom.code, 0, custom.stderr);
    assert.doesNotMatch(custom.stderr, /does not exist/);
    assert.deepEqual((JSON.parse(custom.stdout) as Row[]).map((r) => r.job), ['deploy', 'deploy', 'deploy', 'deploy', 'deploy']);
  });
});
