// The simulation view's HTML (client/src/simulationMatrix/render.ts): what comes from the user's
// files is escaped, cells carry the line the view reveals, and an unknown context says how to set it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderView, type ClusterAnswers } from '../../client/src/simulationMatrix/render';
import type { PipelineJobsResult, SimulateResult, SimulationRow } from '../../server/src/protocol';

const row = (over: Partial<SimulationRow>): SimulationRow => ({
  scenario: 'tag release',
  project: 'acme/web',
  line: 2,
  authorized: true,
  via: 'project acme/web',
  rule: null,
  namespace: 'web',
  identity: 'gitlab:ci_job:<job id>',
  problems: [],
  denial: null,
  explanation: [],
  entry: 'project acme/web',
  decidedLine: 2,
  accessAs: 'ci_job',
  accessKey: 'k1',
  ...over,
});
const result = (over: Partial<SimulateResult>): SimulateResult => ({
  agent: 'deployer',
  context: 'acme/infra:deployer',
  contextSource: 'setting',
  cluster: { context: null },
  scenarios: ['tag release'],
  rows: [row({})],
  ...over,
});
const NO_JOBS: PipelineJobsResult = { pipeline: null, project: 'acme/web', rows: [] };
const NOT_CHECKED: ClusterAnswers = { byKey: new Map(), status: null, checking: false };

test('names from the file are escaped wherever they appear', () => {
  const hostile = '<img src=x onerror=alert(1)>';
  const html = renderView(result({ scenarios: [hostile], rows: [row({ scenario: hostile, namespace: hostile, denial: hostile, problems: [hostile], entry: `project ${hostile}` })] }), NO_JOBS, 'config.yaml', NOT_CHECKED);
  for (const part of Object.values(html)) assert.doesNotMatch(part, /<img/);
  assert.match(html.matrix, /&#60;img src=x onerror=alert\(1\)&#62;/);
});

test('a cell reveals the line that decided it, its entry header the entry line', () => {
  const { matrix } = renderView(result({ rows: [row({ line: 4, decidedLine: 9, rule: 2 })] }), NO_JOBS, 'config.yaml', NOT_CHECKED);
  assert.match(matrix, /<th class="entry"[^>]*data-line="4"/);
  assert.match(matrix, /<td class="cell yes"[^>]*data-line="9"[^>]*data-key="k1"/);
  assert.match(matrix, /rule 2 · ci_job/);
});

test('an unknown configuration project is said, with the way to set it', () => {
  const { head } = renderView(result({ contextSource: null, context: '<agent configuration project>:deployer' }), NO_JOBS, 'config.yaml', NOT_CHECKED);
  assert.match(head, /configuration project is unknown/);
  assert.match(head, /gitlabAgentConfig\.configProjectPath/);
  assert.match(head, /data-action="setProject"/);
});

test('without a cluster there is no check button, only why', () => {
  const { head } = renderView(result({ cluster: { unavailable: 'no cluster is selected' } }), NO_JOBS, 'config.yaml', NOT_CHECKED);
  assert.doesNotMatch(head, /data-action="check"/);
  assert.match(head, /not asked — no cluster is selected/);
});

test("the cluster's answer: compact in the cell, whole below the matrix, a failure said as such", () => {
  const byKey = new Map([
    ['k1', { key: 'k1', ok: true, text: 'in web as ci_job: can deploy, cannot read secrets', capabilities: [{ text: 'can deploy', allowed: true }, { text: 'cannot read secrets', allowed: false }] }],
    ['k2', { key: 'k2', ok: false, text: 'forbidden', capabilities: [] }],
  ]);
  const rows = [row({}), row({ scenario: 'other', accessKey: 'k2' })];
  const { matrix } = renderView(result({ scenarios: ['tag release', 'other'], rows }), NO_JOBS, 'config.yaml', { byKey, status: 'asked', checking: false });
  assert.match(matrix, /☸ can deploy · 1 refused/);
  assert.match(matrix, /☸ the cluster cannot answer/);
  assert.match(matrix, /project acme\/web × tag release<\/span><br>in web as ci_job: can deploy, cannot read secrets/);
  assert.match(matrix, /the cluster cannot answer: forbidden/);
});
