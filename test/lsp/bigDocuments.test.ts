/**
 * Robustness at every size, over stdio: the server opens a reported document (the first
 * 50,000 lines of a 2 MB random YAML file plus a last line `x`) and generated documents up to 10 MB,
 * publishes positioned diagnostics with the 128 KiB warning, and answers every feature the editor
 * asks for on open — no request fails and nothing is logged as failed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bigYaml, truncatedWithX } from '../support/bigYaml';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { assertInside } from '../unit/robustness/harness';

let client: LspTestClient;
const logs: string[] = [];
before(async () => {
  client = await LspTestClient.start();
  client.connection.onNotification('window/logMessage', (p: { message: string }) => logs.push(p.message));
});
after(async () => {
  await client.stop();
});

/** Opens `text` and asks what an editor asks on open; every request must answer. */
async function openAndAskEverything(agent: string, text: string): Promise<void> {
  const uri = agentConfigUri(agent);
  const published = await client.open(uri, text);
  assert.ok(published.diagnostics.some((d) => d.code === 'config.tooLarge'), 'the 128 KiB warning');
  assert.ok(!published.diagnostics.some((d) => d.code === 'internal'), published.diagnostics.find((d) => d.code === 'internal')?.message);
  assertInside(text, published.diagnostics.map((d) => d.range), agent);
  const lines = text.split('\n').length;
  const whole = { start: { line: 0, character: 0 }, end: { line: lines - 1, character: 0 } };
  const requests: [string, unknown][] = [
    ['textDocument/inlayHint', { textDocument: { uri }, range: whole }],
    ['textDocument/documentLink', { textDocument: { uri } }],
    ['textDocument/semanticTokens/full', { textDocument: { uri } }],
    ['textDocument/foldingRange', { textDocument: { uri } }],
    ['textDocument/documentSymbol', { textDocument: { uri } }],
    ['textDocument/codeLens', { textDocument: { uri } }],
    ['textDocument/completion', { textDocument: { uri }, position: { line: lines - 2, character: 1 } }],
    ['textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 3 } }],
  ];
  for (const [method, params] of requests) await client.request(method, params);
  assert.deepEqual(logs.filter((l) => /failed|uncaught|unhandled/.test(l)), []);
  client.close(uri);
}

test('the reported case: 50,000 lines of a 2 MB random file and a last line `x`', { timeout: 300_000 }, async () => {
  await openAndAskEverything('issue-case-agent', truncatedWithX(50_000));
});

test('a 10 MB broken document', { timeout: 300_000 }, async () => {
  await openAndAskEverything('broken-10mb-agent', bigYaml('broken', 10_000 * 1024, 21));
});

test('a 10 MB deeply nested document', { timeout: 300_000 }, async () => {
  await openAndAskEverything('deep-10mb-agent', bigYaml('deep', 10_000 * 1024, 22));
});
