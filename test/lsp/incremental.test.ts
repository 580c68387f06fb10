import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { checkAgentFile, NO_SIBLINGS } from '../../server/src/engine/api';
import { toLspDiagnostic } from '../../server/src/lsp/convert';
import { DEFAULT_SETTINGS } from '../../server/src/protocol';
import { projectSettings } from '../../server/src/lsp/simulationContext';
import { documentPath } from '../../server/src/lsp/uriPaths';
import { generateVariedAgentConfig, seededRandom } from '../support/generateConfig';
import { agentConfigUri, LspTestClient } from '../support/lspClient';

/** The diagnostics a from-scratch check (the front door, on the whole text) gives for `text`, as the server publishes them. */
function fromScratch(uri: string, text: string): Diagnostic[] {
  return checkAgentFile({ path: documentPath(uri), content: text }, projectSettings(uri, DEFAULT_SETTINGS), NO_SIBLINGS).map(toLspDiagnostic) as Diagnostic[];
}

function offsetToPosition(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

describe('LSP over stdio: incremental validation of a large config', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('after each one-character edit, the published diagnostics equal a from-scratch validation', async () => {
    const agent = 'incremental-agent';
    const uri = agentConfigUri(agent);
    let text = generateVariedAgentConfig(600, 11);
    const opened = await client.open(uri, text);
    assert.deepEqual(opened.diagnostics, fromScratch(uri, text));
    assert.ok(opened.diagnostics.length > 100, 'the generated file has problems in many entries');
    const random = seededRandom(11);
    for (let step = 0; step < 25; step++) {
      // Type or delete one character somewhere in an entry's value, as a user fixing names would.
      const lines = text.split('\n');
      const candidates = lines.flatMap((l, i) => (/^ {6}default_namespace: /.test(l) ? [i] : []));
      const line = candidates[Math.floor(random() * candidates.length)];
      const character = lines[line].length;
      const typing = step % 3 !== 2;
      const offset = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
      const range = typing ? { start: { line, character }, end: { line, character } } : { start: offsetToPosition(text, offset - 1), end: { line, character } };
      text = typing ? text.slice(0, offset) + 'x' + text.slice(offset) : text.slice(0, offset - 1) + text.slice(offset);
      const published = await client.edit(uri, range, typing ? 'x' : '');
      assert.deepEqual(published.diagnostics, fromScratch(uri, text), `after edit ${step} at line ${line}`);
    }
  });

  test('hover answers from the cached model while the file is being edited', async () => {
    const uri = agentConfigUri('incremental-hover');
    const text = generateVariedAgentConfig(50, 3);
    await client.open(uri, text);
    const line = text.split('\n').findIndex((l) => l.startsWith('    - id: '));
    const edit = client.edit(uri, { start: { line, character: 10 }, end: { line, character: 10 } }, 'z');
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line, character: 6 } });
    assert.match(hover?.contents.value ?? '', /id/);
    await edit;
  });
});
