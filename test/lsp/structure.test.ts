/** Outline, folding and selection ranges, over stdio. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DocumentSymbol, FoldingRange, SelectionRange } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const TEXT = `ci_access:
  projects:
    - id: acme/app
      default_namespace: apps
    - id: acme/web
observability:
  logging:
    level: info
`;

let client: LspTestClient;
const uri = agentConfigUri('outline-agent');
before(async () => {
  client = await LspTestClient.start();
  await client.open(uri, TEXT);
});
after(async () => {
  await client.stop();
});

test('document symbols: keys, and list items named by their id', async () => {
  const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  const names = (s: DocumentSymbol[]): unknown[] => s.map((x) => (x.children?.length ? [x.name, names(x.children)] : x.name));
  assert.deepEqual(names(symbols), [
    ['ci_access', [['projects', [['acme/app', ['id', 'default_namespace']], ['acme/web', ['id']]]]]],
    ['observability', [['logging', ['level']]]],
  ]);
  assert.deepEqual(symbols[0].selectionRange, rangeOf(TEXT, 'ci_access'));
});

test('folding ranges for every multi-line block', async () => {
  const ranges = await client.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
  const spans = ranges.map((r) => [r.startLine, r.endLine]);
  assert.ok(spans.some(([s, e]) => s === 0 && e === 4), JSON.stringify(spans));
  assert.ok(spans.some(([s, e]) => s === 5 && e === 7), JSON.stringify(spans));
  assert.ok(spans.some(([s, e]) => s === 2 && e === 3), JSON.stringify(spans));
});

test('selection ranges grow from the key to its entry and outward', async () => {
  const at = rangeOf(TEXT, 'default_namespace').start;
  const [selection] = await client.request<SelectionRange[]>('textDocument/selectionRange', { textDocument: { uri }, positions: [at] });
  const chain: SelectionRange['range'][] = [];
  for (let s: SelectionRange | undefined = selection; s; s = s.parent) chain.push(s.range);
  assert.deepEqual(chain[0], rangeOf(TEXT, 'default_namespace'));
  assert.deepEqual(chain[1], rangeOf(TEXT, 'default_namespace: apps'));
  assert.equal(chain.at(-1)!.start.line, 0);
  assert.ok(chain.length >= 5);
});
