// One merge request situation, three faces, one answer: the config's simulation table (its preset
// "merge request pipeline"), `agentcfg simulate --merge-request` and the pipeline map of
// `agentcfg pipeline` all read the variables GitLab sets in every merge request pipeline
// (docs/gitlab-behaviour.md#merge-request-pipeline-variables), so a rule on CI_MERGE_REQUEST_ID
// authorizes, in the namespace the IID names, everywhere.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { agentcfg } from '../support/cli';

const root = mkdtempSync(path.join(tmpdir(), 'agentcfg-mr-parity-'));
const config = path.join(root, '.gitlab', 'agents', 'review', 'config.yaml');
mkdirSync(path.dirname(config), { recursive: true });
writeFileSync(config, 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: $CI_MERGE_REQUEST_ID && $CI_MERGE_REQUEST_SOURCE_PROJECT_PATH == $CI_PROJECT_PATH\n          namespace: review-mr-$CI_MERGE_REQUEST_IID\n');
const pipeline = path.join(root, '.gitlab-ci.yml');
writeFileSync(pipeline, 'review:\n  script: kubectl --context acme/agents:review get pods\n  rules:\n    - if: $CI_MERGE_REQUEST_IID\n');

const json = (...args: string[]) => {
  const r = agentcfg(...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('the simulation table, agentcfg simulate --merge-request and the pipeline map agree on a merge request', () => {
  const table = json('simulate', config, '--json');
  const preset = table.rows.find((r: { scenario: string }) => r.scenario === 'merge request pipeline');
  const one = json('simulate', config, '--project', 'acme/app', '--ref', 'feature/login', '--merge-request', '--json');
  const map = json('pipeline', pipeline, '--project', 'acme/app', '--agent-project', 'acme/agents', '--format', 'json');
  const review = map.find((r: { job: string; scenario: string }) => r.job === 'review' && r.scenario === 'merge request from feature/login');
  const context = review.contexts.find((c: { context: string }) => c.context === 'acme/agents:review');
  assert.deepEqual(
    [preset.authorized, preset.namespace, one.authorized, one.namespace, review.runs, context.authorized, context.namespace],
    [true, 'review-mr-1', true, 'review-mr-1', true, true, 'review-mr-1'],
  );
  // Outside a merge request none of them authorizes.
  assert.equal(table.rows.find((r: { scenario: string }) => r.scenario === 'feature branch → review app').authorized, false);
  assert.equal(map.find((r: { job: string; scenario: string }) => r.job === 'review' && r.scenario === 'push to feature/login').runs, false);
});
