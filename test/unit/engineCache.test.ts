// The engine's caches (server/src/engine/cache.ts): bounded, least recently used first, and
// invisible in results — a check or a simulation gives the same answer from cold caches as from
// caches warmed by other files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BoundedCache, clearEngineCaches } from '../../server/src/engine/cache';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, readAgentConfig, scenarioContext, simulateEntries, simulationTable } from '../../server/src/engine/api';

const root = path.resolve(import.meta.dirname, '..', '..');

test('a full cache lets the least recently used entry go', () => {
  const cache = new BoundedCache<string, number>(2);
  let computed = 0;
  const get = (key: string) => cache.get(key, () => ++computed);
  assert.equal(get('a'), 1);
  assert.equal(get('b'), 2);
  assert.equal(get('a'), 1, 'a hit is not computed again');
  assert.equal(get('c'), 3, 'b, the least recently used, goes');
  assert.equal(get('a'), 1);
  assert.equal(get('b'), 4, 'b was computed again');
});

test('a cache bounded by a measure of its own keeps at least the newest entry', () => {
  const cache = new BoundedCache<string, string>(10, (key) => key.length);
  cache.get('12345', (k) => k);
  cache.get('678', (k) => k);
  let computed = 0;
  cache.get('12345', () => `${++computed}`);
  assert.equal(computed, 0, 'both fit in 10 characters');
  const long = 'x'.repeat(20);
  assert.equal(cache.get(long, (k) => k), long, 'an entry larger than the bound is still answered');
  cache.get('12345', () => `${++computed}`);
  assert.equal(computed, 1, 'the older entries went to make room');
});

test('undefined and null values are kept like any other', () => {
  const cache = new BoundedCache<string, null | undefined>(4);
  let computed = 0;
  cache.get('none', () => (computed++, undefined));
  cache.get('none', () => (computed++, undefined));
  assert.equal(computed, 1);
});

test('clearEngineCaches empties every registered cache', () => {
  const cache = new BoundedCache<string, number>(4);
  let computed = 0;
  cache.get('a', () => ++computed);
  clearEngineCaches();
  cache.get('a', () => ++computed);
  assert.equal(computed, 2);
});

test('checks and simulations answer the same from cold caches and from warm ones', () => {
  const file = (agent: string) => path.join(root, 'examples', '.gitlab', 'agents', agent, 'config.yaml');
  const answer = (agent: string) => {
    const text = readFileSync(file(agent), 'utf8');
    const config = readAgentConfig(text);
    const context = scenarioContext(DEFAULT_PROJECT_SETTINGS, agent);
    return {
      diagnostics: checkAgentFile({ path: file(agent), content: text }, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS),
      table: simulationTable(config, simulateEntries(config.ciAccess, context)),
    };
  };
  clearEngineCaches();
  const cold = answer('production-agent');
  answer('broken-agent');
  const warm = answer('production-agent');
  assert.deepEqual(warm, cold);
  assert.ok(cold.diagnostics.length + cold.table.rows.length > 0, 'the example gives something to compare');
});
