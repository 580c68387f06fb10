// The settings are pulled from the client once per change, ahead of the first validation (a first
// open waited for the round trip), and a pull that a change overtook is not kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Connection } from 'vscode-languageserver';
import { SettingsStore } from '../../server/src/lsp/settings';

/** A client whose answers to workspace/configuration the test releases one by one, in order. */
function fakeClient() {
  const asked: ((raw: Record<string, unknown>) => void)[] = [];
  const connection = { workspace: { getConfiguration: () => new Promise((resolve) => asked.push(resolve)) } } as unknown as Connection;
  return { connection, asked };
}

test('prefetch asks the client once; the validations that follow share that answer', async () => {
  const { connection, asked } = fakeClient();
  const store = new SettingsStore(connection, () => true);
  store.prefetch();
  const first = store.get();
  const second = store.get();
  assert.equal(asked.length, 1);
  asked[0]({ gitlabVersion: '17.10' });
  assert.equal((await first).gitlabVersion, '17.10');
  assert.equal((await second).gitlabVersion, '17.10');
  assert.equal((await store.get()).gitlabVersion, '17.10');
  assert.equal(asked.length, 1);
});

test('a change pulls the settings again at once, and the answer of a pull it overtook is not kept', async () => {
  const { connection, asked } = fakeClient();
  const store = new SettingsStore(connection, () => true);
  const before = store.get();
  store.invalidate();
  assert.equal(asked.length, 2);
  asked[1]({ gitlabVersion: '18.0' });
  asked[0]({ gitlabVersion: '17.10' });
  assert.equal((await before).gitlabVersion, '17.10');
  assert.equal((await store.get()).gitlabVersion, '18.0');
  assert.equal(asked.length, 2);
});

test('a client without workspace/configuration is never asked', async () => {
  const { connection, asked } = fakeClient();
  const store = new SettingsStore(connection, () => false);
  store.prefetch();
  store.invalidate();
  await store.get();
  assert.equal(asked.length, 0);
});
