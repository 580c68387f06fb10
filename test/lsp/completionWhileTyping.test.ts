/**
 * Completion that comes to you: the manifest turns VS Code's quick suggestions on in
 * agent files' keys and strings and its word list off, so typing `prot` or `ru` shows our keys with
 * no Ctrl+Space; an entry skeleton is offered at the list's indentation before `- ` is typed; and
 * values are offered right after `key: ` (the space is a trigger character, and accepting a key
 * with values asks the editor to suggest again).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { InsertTextFormat, type CompletionItem, type CompletionList, type TextEdit } from 'vscode-languageserver-protocol';
import { caret, expandSnippet } from '../unit/completion/caret';
import { agentConfigUri, LspTestClient, repoRoot } from '../support/lspClient';

let client: LspTestClient;
let count = 0;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

async function complete(source: string): Promise<{ items: CompletionItem[]; text: string }> {
  const { text, offset } = caret(source);
  const uri = agentConfigUri(`typing-${++count}`);
  await client.open(uri, text);
  const before = text.slice(0, offset);
  const position = { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
  const list = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position, context: { triggerKind: 1 } });
  client.close(uri);
  return { items: list.items, text };
}

function accept(text: string, items: CompletionItem[], label: string): string {
  const found = items.find((i) => i.label === label);
  assert.ok(found, `no "${label}" among ${items.map((i) => i.label).join(', ')}`);
  const edit = found.textEdit as TextEdit;
  const lines = text.split('\n');
  const offsetOf = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const inserted = found.insertTextFormat === InsertTextFormat.Snippet ? expandSnippet(edit.newText) : edit.newText;
  return text.slice(0, offsetOf(edit.range.start)) + inserted + text.slice(offsetOf(edit.range.end));
}

test('the manifest: quick suggestions on for keys and strings, word-based suggestions off, in agent files', () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { configurationDefaults: Record<string, Record<string, unknown>> } };
  const defaults = manifest.contributes.configurationDefaults['[gitlab-agent-yaml]'];
  assert.deepEqual(defaults['editor.quickSuggestions'], { other: 'on', strings: 'on', comments: 'off' });
  assert.equal(defaults['editor.wordBasedSuggestions'], 'off');
});

test('typing `prot` in an entry offers protected_branches_only, replacing the word', async () => {
  const { items, text } = await complete('ci_access:\n  projects:\n    - id: acme/app\n      prot‸\n');
  assert.match(accept(text, items, 'protected_branches_only').split('\n')[3], /^ {6}protected_branches_only: (true|false)$/);
});

test('at the list indentation, before `- ` is typed: the entry skeleton, with its dash', async () => {
  const { items, text } = await complete('ci_access:\n  projects:\n    - id: acme/app\n    ‸\n');
  const accepted = accept(text, items, 'project authorization');
  assert.equal(accepted, 'ci_access:\n  projects:\n    - id: acme/app\n    - id: group/project\n      default_namespace: namespace\n      access_as:\n        agent: {}\n');
});

test('right after `key: `: the values', async () => {
  const { items } = await complete('ci_access:\n  projects:\n    - id: acme/app\n      protected_branches_only: ‸\n');
  assert.deepEqual(items.map((i) => i.label).sort(), ['false', 'true']);
});
