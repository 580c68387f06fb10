// When the server validates a document after an edit (server/src/lsp/diagnostics.ts,
// validationDelay): at once after a quiet spell, else when the quiet spell since
// the last validation ends — a moment the edits that follow do not push back, so the last key of a
// burst waits at most one quiet spell, never a quiet spell after itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validationDelay } from '../../../server/src/lsp/diagnostics';

test('the first edit, and an edit a quiet spell after the last validation, are validated at once', () => {
  assert.equal(validationDelay(5, undefined, false), 0);
  // The last validation took 40 ms: the quiet spell is 20 ms.
  assert.equal(validationDelay(120, { at: 100, took: 40 }, false), 0);
  assert.equal(validationDelay(500, { at: 100, took: 40 }, false), 0);
});

test('an edit sooner waits for the rest of the quiet spell; half the last validation, from 10 to 75 ms', () => {
  assert.equal(validationDelay(110, { at: 100, took: 40 }, false), 10);
  assert.equal(validationDelay(100, { at: 100, took: 4 }, false), 10, 'a 4 ms validation: the 10 ms floor');
  assert.equal(validationDelay(105, { at: 100, took: 1000 }, false), 70, 'a second-long validation: the 75 ms ceiling');
});

test('keys every 3 ms after a validation: the first sets the moment, the others leave it, so the last waits less than a quiet spell', () => {
  const last = { at: 1000, took: 17 }; // 50,000 entries: a 17 ms validation, a 10 ms quiet spell
  const keys = [1001, 1004, 1007, 1010];
  let runAt: number | null = null;
  for (const at of keys) {
    const delay = validationDelay(at, last, runAt !== null);
    if (runAt === null) {
      assert.notEqual(delay, null);
      runAt = at + delay!;
    } else {
      assert.equal(delay, null, `the key at ${at} leaves the timer as it is`);
    }
  }
  assert.equal(runAt, 1010);
  assert.ok(runAt - keys.at(-1)! < 10, 'the last key waits less than a quiet spell');
});
