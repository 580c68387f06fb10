/**
 * The editor re-maps a pipeline on every edit with the previous map's rows at hand: a job whose
 * definition is unchanged keeps its row (with its new location), an edited job is mapped again, and
 * a change to what every row depends on (the agents, the global variables) redoes all of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { parseYaml } from '../../../server/src/engine/config/yamlDocument';
import { AccessMapCache, accessMap } from '../../../server/src/engine/pipeline/accessMap';
import { readPipeline } from '../../../server/src/engine/pipeline/readPipeline';
import { presetPipelineScenarios } from '../../../server/src/engine/pipeline/scenarios';

const agent = (namespace: string) => ({ agent: { configProjectPath: 'acme/agents', name: 'prod' }, ciAccess: readCiAccess(parseYaml(`ci_access:\n  projects:\n    - id: acme/shop\n      default_namespace: ${namespace}\n`).value) });
const job = (name: string, environment: string) => `${name}:\n  script: [kubectl --context acme/agents:prod get pods]\n  environment: ${environment}\n`;
const map = (text: string, agents: ReturnType<typeof agent>[], cache?: AccessMapCache) => accessMap({ pipeline: readPipeline(text, () => null), projectPath: 'acme/shop', defaultBranch: 'main', scenarios: presetPipelineScenarios('main'), agents, options: {} }, cache);

test('with the cache, every edit gives exactly the map built from scratch', () => {
  const agents = [agent('shop')];
  const cache = new AccessMapCache();
  const versions = [
    job('a', 'production') + job('b', 'staging'),
    `# a line above moves every job\n${job('a', 'production')}${job('b', 'staging')}`,
    `# a line above moves every job\n${job('a', 'production')}${job('b', 'review/$CI_COMMIT_REF_SLUG')}`,
    `variables:\n  X: "1"\n${job('a', 'production')}${job('b', 'review/$CI_COMMIT_REF_SLUG')}`,
  ];
  for (const text of versions) assert.deepEqual(map(text, agents, cache), map(text, agents), text);
});

test('an unchanged job keeps its row; an edited one, or new agents, are mapped again', () => {
  const cache = new AccessMapCache();
  const agents = [agent('shop')];
  const first = map(job('a', 'production') + job('b', 'staging'), agents, cache);
  const second = map(job('a', 'production') + job('b', 'production'), agents, cache);
  const row = (rows: typeof first, name: string) => rows.find((r) => r.job === name && r.scenario === 'push to main')!;
  assert.deepEqual(row(second, 'a'), row(first, 'a'));
  assert.equal(row(second, 'b').environment?.name, 'production');
  const third = map(job('a', 'production') + job('b', 'production'), [agent('other')], cache);
  assert.equal(row(third, 'a').contexts[0].namespace, 'other');
});
