/**
 * The server never falls behind the user: a burst of edits is validated once for its last version
 * (versions superseded while queued are skipped), and requests are answered right after. Before,
 * each edit queued behind a slow validation started a validation of its own as soon as it was read
 * (the debounce counted from the start of the previous validation), and a 3 KB config of nested flow
 * mappings took seconds per version: the server ran at 100% CPU for minutes after the user stopped.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CompletionList, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { nestedFlowKeysConfig } from '../unit/robustness/mutations';
import { agentConfigUri, LspTestClient } from '../support/lspClient';

const EDITS = 20;

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

/**
 * Opens `text`, then sends EDITS one-character edits after `anchor` at once (as an editor does while
 * the user types) and resolves with the last version's diagnostics and every version published.
 */
async function burst(uri: string, text: string, anchor: string): Promise<{ published: PublishDiagnosticsParams; versions: number[] }> {
  await client.open(uri, text);
  const offset = text.indexOf(anchor) + anchor.length;
  const line = text.slice(0, offset).split('\n').length - 1;
  const column = offset - (text.lastIndexOf('\n', offset - 1) + 1);
  const versions: number[] = [];
  const last = 1 + EDITS;
  const lastPublished = client.nextDiagnostics(uri, (p) => (versions.push(p.version ?? -1), p.version === last), 60_000);
  for (let i = 0; i < EDITS; i++) {
    const position = { line, character: column + i };
    void client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 + i }, contentChanges: [{ range: { start: position, end: position }, text: 'b' }] });
  }
  return { published: await lastPublished, versions };
}

test('20 edits of a 3 KB nested flow config at once: the last version is published, few others, then completion answers', { timeout: 120_000 }, async () => {
  const uri = agentConfigUri('burst-agent');
  const { published, versions } = await burst(uri, nestedFlowKeysConfig(3_000), 'id: a');
  assert.ok(versions.length <= 3, `published for versions ${versions.join(', ')}`);
  assert.deepEqual(
    published.diagnostics.map((d) => d.code),
    ['yaml.tooDeep'],
  );
  const completion = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 0, character: 0 } });
  assert.ok(Array.isArray(completion.items));
});

test('20 edits of a 100 KB flow-style config (validated whole each time) at once: versions read behind a validation are skipped', { timeout: 120_000 }, async () => {
  const uri = agentConfigUri('burst-large-agent');
  // Flow style: the editor's incremental model splits only block lists, so each version is validated whole.
  const entries = Array.from({ length: 1_500 }, (_, i) => `{id: acme/service-${i}, default_namespace: ns-${i}, access_as: {ci_job: {}}}`);
  const text = `ci_access: {projects: [${entries.join(', ')}]}\n`;
  const { published, versions } = await burst(uri, text, 'acme/service-0');
  // The first edit may be validated at once (a leading edge); the others are read while it runs.
  assert.ok(versions.length <= 3, `published for versions ${versions.join(', ')}`);
  assert.ok(published.diagnostics.some((d) => d.code === 'config.entryLimit'));
  const position = { line: 0, character: text.indexOf('default_namespace') };
  const completion = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position });
  assert.ok(Array.isArray(completion.items));
});
