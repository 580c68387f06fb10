/**
 * After an edit, the access map takes from the previous map (`previous`) every job whose entry and
 * whose dependencies — `extends` ancestors, `!reference` targets, anchors, `default:`, global
 * `variables:`, `workflow:`, included files, agents and settings — are unchanged, moved to where it now
 * is. Whatever it takes, the result must be exactly the map built from scratch of the new text: each
 * test below edits something a job depends on and checks the dependent's rows against a fresh map
 * (stale rows differ from them), and that rows of jobs the edit does not reach are the previous map's
 * very objects (so reuse does happen).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import type { MappedAgent } from '../../../server/src/engine/pipeline/accessMap';
import { readTree } from '../../../server/src/engine/pipeline/tree';
import { DEFAULT_PROJECT_SETTINGS, pipelineAccess, type PipelineAccess, type PipelineAccessInput } from '../../../server/src/engine/api';
import { FIXTURES, fixtureReader } from './pipelineFixtures';
import { benchPipeline, edit, random } from './randomEdits';

function agent(name: string, namespace: string, environments = '[production, staging, "review/*"]'): MappedAgent {
  const config = `ci_access:\n  projects:\n    - id: acme/shop\n      default_namespace: ${namespace}\n      environments: ${environments}\n`;
  return { agent: { configProjectPath: 'acme/agents', name }, ciAccess: readCiAccess(parseYaml(config).value) };
}

const AGENTS = [agent('prod', 'shop-prod'), agent('review', 'shop-review')];
const BASE: Omit<PipelineAccessInput, 'text'> = { file: '.gitlab-ci.yml', read: () => null, projectPath: 'acme/shop', settings: DEFAULT_PROJECT_SETTINGS, agents: AGENTS };

/** Maps `text` with `previous` and checks the result is the map built from scratch. */
function remap(text: string, previous: PipelineAccess, input: Partial<PipelineAccessInput> = {}): PipelineAccess {
  const reused = pipelineAccess({ ...BASE, ...input, text, previous });
  assert.deepEqual(reused, pipelineAccess({ ...BASE, ...input, text }), 'the map after the edit equals the map of the new text built from scratch');
  return reused;
}

const rowsOf = (access: PipelineAccess, job: string) => access.map.filter((r) => r.job === job);

/** The rows of `job` are the previous map's own objects: taken, not mapped again. */
function kept(after: PipelineAccess, before: PipelineAccess, job: string): void {
  const now = rowsOf(after, job);
  assert.ok(now.length > 0, `${job} has rows`);
  now.forEach((row, i) => assert.equal(row, rowsOf(before, job)[i], `${job} keeps its rows`));
}

/** The rows of `job` were mapped again and differ from the previous ones (stale rows would fail the scratch comparison). */
function redone(after: PipelineAccess, before: PipelineAccess, job: string): void {
  assert.notDeepEqual(rowsOf(after, job), rowsOf(before, job), `${job}'s rows change with the edit`);
}

const deployJob = (name: string, extra = '') => `${name}:\n  extends: .deploy\n  script:\n    - kubectl --context acme/agents:prod get pods\n${extra}`;
const TEMPLATE = `.deploy:\n  stage: deploy\n  environment:\n    name: production\n    kubernetes:\n      agent: acme/agents:prod\n  rules:\n    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n`;

describe('reusing the previous map after an edit', () => {
  test('editing a job changes only its rows', () => {
    const text = `${TEMPLATE}${deployJob('a')}${deployJob('b')}${deployJob('c')}`;
    const before = pipelineAccess({ ...BASE, text });
    const after = remap(text.replace('c:\n  extends: .deploy\n', 'c:\n  extends: .deploy\n  environment: staging\n'), before);
    kept(after, before, 'a');
    kept(after, before, 'b');
    redone(after, before, 'c');
  });

  test('editing a hidden job that others extend refreshes every job that extends it, directly or not', () => {
    const text = `${TEMPLATE}.review:\n  extends: .deploy\n  environment:\n    name: review/$CI_COMMIT_REF_SLUG\n${deployJob('a')}b:\n  extends: .review\n  script: [kubectl --context acme/agents:prod get pods]\nc:\n  script: [echo]\n`;
    const before = pipelineAccess({ ...BASE, text });
    const after = remap(text.replace('rules:\n    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n', 'rules:\n    - if: $CI_COMMIT_TAG\n'), before);
    redone(after, before, 'a');
    redone(after, before, 'b');
    kept(after, before, 'c');
  });

  test('adding the parent a job extends but that was missing refreshes the job', () => {
    const text = `a:\n  extends: .later\n  script: [echo]\nb:\n  script: [echo]\n`;
    const before = pipelineAccess({ ...BASE, text });
    const after = remap(`${text}.later:\n  environment: production\n`, before);
    redone(after, before, 'a');
    // Before, GitLab refused the whole pipeline (an unknown parent): b's rows change too.
    redone(after, before, 'b');
  });

  test('editing a !reference target refreshes the jobs that reference it', () => {
    const text = `.rules:\n  rules:\n    - if: $CI_COMMIT_TAG\n.other:\n  x: 1\na:\n  rules: !reference [.rules, rules]\n  environment: production\nb:\n  environment: production\n`;
    const before = pipelineAccess({ ...BASE, text });
    const after = remap(text.replace('if: $CI_COMMIT_TAG', 'if: $CI_COMMIT_BRANCH'), before);
    redone(after, before, 'a');
    kept(after, before, 'b');
    // A reference nested in a reference's target: the inner target is a dependency too.
    const nested = `.inner:\n  s: [kubectl --context acme/agents:prod get pods]\n.outer:\n  s: !reference [.inner, s]\na:\n  script: !reference [.outer, s]\n  environment: production\n`;
    const first = pipelineAccess({ ...BASE, text: nested });
    redone(remap(nested.replace('acme/agents:prod get', 'acme/agents:review get'), first), first, 'a');
    // Two jobs inheriting the same reference: the second finds it resolved already, and depends on its target all the same.
    const shared = `.s:\n  script: [kubectl --context acme/agents:prod get pods]\n.t:\n  script: !reference [.s, script]\na:\n  extends: .t\n  environment: production\nb:\n  extends: .t\n  environment: production\n`;
    const once = pipelineAccess({ ...BASE, text: shared });
    const twice = remap(shared.replace('acme/agents:prod get', 'acme/agents:review get'), once);
    redone(twice, once, 'a');
    redone(twice, once, 'b');
  });

  test('editing an anchor, or defining it again in between, refreshes the jobs whose aliases reach it', () => {
    const text = `.env: &env\n  name: production\na:\n  environment: *env\n  script: [echo]\nb:\n  environment: staging\n`;
    const before = pipelineAccess({ ...BASE, text });
    const edited = remap(text.replace('name: production', 'name: staging'), before);
    redone(edited, before, 'a');
    kept(edited, before, 'b');
    const redefined = remap(text.replace('a:\n', '.again: &env\n  name: review/x\na:\n'), before);
    redone(redefined, before, 'a');
  });

  test('editing default:, global variables: or workflow:rules refreshes every job', () => {
    const text = `default:\n  before_script:\n    - kubectl config use-context acme/agents:prod\nvariables:\n  ENV: production\nworkflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH\na:\n  environment: $ENV\n  script: [echo]\nb:\n  environment: staging\n  script: [echo]\n`;
    const before = pipelineAccess({ ...BASE, text });
    for (const edited of [text.replace('use-context acme/agents:prod', 'use-context acme/agents:review'), text.replace('ENV: production', 'ENV: review/x'), text.replace('if: $CI_COMMIT_BRANCH', 'if: $CI_COMMIT_TAG')]) {
      const after = remap(edited, before);
      assert.ok(rowsOf(after, 'a').some((row, i) => row !== rowsOf(before, 'a')[i]), 'a is mapped again');
      assert.ok(rowsOf(after, 'b').some((row, i) => row !== rowsOf(before, 'b')[i]), 'b is mapped again');
    }
    redone(remap(text.replace('ENV: production', 'ENV: review/x'), before), before, 'a');
    redone(remap(text.replace('if: $CI_COMMIT_BRANCH', 'if: $CI_COMMIT_TAG'), before), before, 'b');
  });

  test('editing an included file refreshes the jobs it defines or changes', () => {
    const main = `include:\n  - local: ci/deploy.yml\na:\n  extends: .deploy\n  script: [echo]\nb:\n  environment: staging\n`;
    const files = (env: string): PipelineAccessInput['read'] => (file) => (file === 'ci/deploy.yml' ? `.deploy:\n  environment: ${env}\n` : null);
    const before = pipelineAccess({ ...BASE, text: main, read: files('production') });
    const after = remap(main, before, { read: files('review/x') });
    redone(after, before, 'a');
    const again = remap(main, after, { read: files('review/x') });
    kept(again, after, 'a');
  });

  test('other agent configurations or settings refresh every job', () => {
    // Two entries at least: a file of one is read as a whole document, and nothing is reused.
    const text = `a:\n  environment: production\n  script: [echo]\nb:\n  script: [echo]\n`;
    const before = pipelineAccess({ ...BASE, text });
    redone(remap(text, before, { agents: [agent('prod', 'elsewhere'), AGENTS[1]] }), before, 'a');
    redone(remap(text, before, { settings: { ...DEFAULT_PROJECT_SETTINGS, defaultBranch: 'trunk' } }), before, 'a');
    redone(remap(text, before, { projectPath: 'acme/other' }), before, 'a');
    kept(remap(text, before), before, 'a');
  });

  test('jobs below an edit that adds or removes lines keep their rows, at their new lines', () => {
    const text = `${TEMPLATE}${deployJob('a')}${deployJob('b')}${deployJob('c')}`;
    const before = pipelineAccess({ ...BASE, text });
    const after = remap(text.replace('a:\n  extends: .deploy\n', 'a:\n  extends: .deploy\n  # two lines\n  # more\n'), before);
    const line = (access: PipelineAccess, job: string) => access.pipeline.jobs.find((j) => j.name === job)!.location.range.start.line;
    assert.equal(line(after, 'c'), line(before, 'c') + 2);
    assert.equal(rowsOf(after, 'c')[0].location.range.start.line, line(before, 'c') + 2);
    assert.equal(rowsOf(after, 'c')[0].usedContexts[0].location.range.start.line, rowsOf(before, 'c')[0].usedContexts[0].location.range.start.line + 2);
    // Their reading and outcome are the same: only the locations moved.
    assert.deepEqual({ ...rowsOf(after, 'c')[0], location: null, usedContexts: null }, { ...rowsOf(before, 'c')[0], location: null, usedContexts: null });
    const removed = remap(text.replace(deployJob('a'), ''), before);
    assert.equal(line(removed, 'c'), line(before, 'c') - deployJob('a').split('\n').length + 1);
  });

  test('the problems of a kept job move with it', () => {
    const text = `a:\n  environment: production\n  rules:\n    - if: $X ==\n  script: [echo]\nb:\n  environment:\n    action: start\n`;
    const before = pipelineAccess({ ...BASE, text });
    assert.ok(before.diagnostics.length >= 2);
    remap(`# a comment that moves everything\n${text}`, before);
    remap(text.replace('a:\n', 'a:\n  stage: x\n'), before);
  });
});

describe('random edits: the map after each equals the map built from scratch', () => {
  const cases: { name: string; text: string; read: PipelineAccessInput['read'] }[] = [
    { name: 'the bench pipeline (40 jobs)', text: benchPipeline(40), read: () => null },
    ...readdirSync(FIXTURES).map((folder) => ({ name: `fixture ${folder}`, text: fixtureReader(folder)('.gitlab-ci.yml') ?? '', read: fixtureReader(folder) })),
    { name: 'examples/.gitlab-ci.yml', text: readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'examples', '.gitlab-ci.yml'), 'utf8'), read: () => null },
  ];
  for (const { name, text, read } of cases) {
    test(name, () => {
      const next = random(12);
      let reusedRows = 0;
      for (let round = 0; round < 8; round++) {
        let current = text;
        let previous = pipelineAccess({ ...BASE, read, text: current });
        for (let step = 0; step < 12; step++) {
          current = edit(current, next);
          const reused = pipelineAccess({ ...BASE, read, text: current, previous });
          assert.deepEqual(reused, pipelineAccess({ ...BASE, read, text: current }), `round ${round}, step ${step}:\n${current}`);
          const before = new Set(previous.map);
          reusedRows += reused.map.filter((row) => before.has(row)).length;
          previous = reused;
        }
      }
      // The edits leave most jobs alone: rows are taken, not only recomputed (where the file reads
      // entry by entry: one with a spec:inputs header is read whole).
      if (readTree(text, '.gitlab-ci.yml').blocks) assert.ok(reusedRows > 0, 'some rows are reused');
    });
  }
});
