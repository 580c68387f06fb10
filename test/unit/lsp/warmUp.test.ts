// The warm-up runs while the server is idle (for a fast first open): each step in its own turn of the
// event loop, all of them with nothing else pending, and none after a document arrived.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { WarmUp, type WarmUpEnd } from '../../../server/src/lsp/warmUp';

const WARM_UP_MODULE = path.resolve(import.meta.dirname, '../../../server/src/lsp/warmUp.ts');

test('the warm-up runs all its steps in a process with nothing else pending (its immediates keep the event loop turning)', () => {
  // A process of its own: in the test runner, the runner's own handles keep the loop turning. With
  // unref'd immediates and nothing else to wait for, the process exits before the steps have run
  // and prints nothing.
  const code = `const { WarmUp } = require(${JSON.stringify(WARM_UP_MODULE)});\nvoid new WarmUp().start().then((end) => console.log(JSON.stringify(end)));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--eval', code], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(child.status, 0, child.stderr);
  assert.notEqual(child.stdout.trim(), '', 'the warm-up never finished: the process left its event loop first');
  const end = JSON.parse(child.stdout) as WarmUpEnd;
  assert.ok(end.of > 10, `a warm-up of ${end.of} steps`);
  assert.equal(end.ran, end.of);
});

test('stop() ends the warm-up before its next step', async () => {
  const warmUp = new WarmUp();
  const started = warmUp.start();
  warmUp.stop();
  const end = await started;
  assert.equal(end.ran, 0, `${end.ran} of ${end.of} steps ran after stop()`);
  assert.deepEqual(await warmUp.start(), { ran: 0, of: 0 }, 'a stopped warm-up does not start again');
});

test('stopped after two turns of the event loop, the warm-up has run one or two of its steps', async () => {
  const warmUp = new WarmUp();
  const started = warmUp.start();
  // Two turns of the event loop: at most two steps run before the stop.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  warmUp.stop();
  const end = await started;
  assert.ok(end.ran >= 1 && end.ran <= 2 && end.ran < end.of, `${end.ran} of ${end.of} steps ran`);
});
