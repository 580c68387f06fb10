/**
 * Each editor feature contains its own failure: a handler that throws or rejects answers
 * with its empty result, and each distinct failure is logged once, however many requests meet it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contained } from '../../server/src/lsp/containFailures';

test('a throwing handler answers empty and is logged once for many requests', () => {
  const logs: string[] = [];
  const logged = new Set<string>();
  const handler = contained('onFoldingRanges', () => {
    throw new RangeError('Maximum call stack size exceeded');
  }, () => [], (m) => logs.push(m), logged);
  for (let i = 0; i < 20; i++) assert.deepEqual(handler(), []);
  assert.equal(logs.length, 1);
  assert.match(logs[0], /^onFoldingRanges failed \(answered with no result; logged once\): RangeError: Maximum call stack size exceeded/);
});

test('a rejecting async handler answers empty; a working one is unchanged', async () => {
  const logs: string[] = [];
  const logged = new Set<string>();
  const failing = contained('onHover', async () => Promise.reject(new Error('boom')), () => null, (m) => logs.push(m), logged);
  assert.equal(await failing(), null);
  assert.equal(await failing(), null);
  const working = contained('onHover', (x: never) => ({ contents: String(x) }), () => null, (m) => logs.push(m), logged);
  assert.deepEqual(working('a' as never), { contents: 'a' });
  assert.equal(logs.length, 1);
});
