// A validation gives way between its steps to an edit that arrived meanwhile: the
// last key of a burst on a big file waited for the whole validation of an earlier version, then for
// its own. Here the edit "arrives" while the first step (joining the text) runs, as it does when a
// key comes in during a 30 ms validation at 50,000 entries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Connection, PublishDiagnosticsParams, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AgentSiblingFinder } from '../../../server/src/lsp/agentSiblings';
import { DiagnosticsFeature } from '../../../server/src/lsp/diagnostics';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { EditedDocument } from '../../../server/src/lsp/editedDocument';
import type { SettingsStore } from '../../../server/src/lsp/settings';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';

const URI = 'file:///project/.gitlab/agents/give-way/config.yaml';

/** An open document whose first read of its text lets `duringRead` edit it (the edit arriving while a validation reads). */
class ReadThenEdited extends EditedDocument {
  duringRead: (() => void) | null = null;

  override getText(...args: Parameters<EditedDocument['getText']>): string {
    const edit = this.duringRead;
    this.duringRead = null;
    const text = super.getText(...args);
    edit?.();
    return text;
  }
}

/** The server's open documents and connection, reduced to what DiagnosticsFeature uses; `change` plays a didChange. */
function fakeServer(document: ReadThenEdited) {
  const changed: ((e: { document: TextDocument }) => void)[] = [];
  const documents = {
    get: (uri: string) => (uri === document.uri ? document : undefined),
    all: () => [document],
    onDidOpen: () => undefined,
    onDidClose: () => undefined,
    onDidChangeContent: (listener: (e: { document: TextDocument }) => void) => changed.push(listener),
  } as unknown as TextDocuments<TextDocument>;
  const published: PublishDiagnosticsParams[] = [];
  const connection = {
    onDidChangeWatchedFiles: () => undefined,
    sendDiagnostics: (params: PublishDiagnosticsParams) => (published.push(params), Promise.resolve()),
    console: { log: () => undefined, error: (message: string) => assert.fail(message) },
  } as unknown as Connection;
  const settings = { get: () => Promise.resolve(DEFAULT_SETTINGS) } as unknown as SettingsStore;
  const models = new DocumentModels(documents);
  new DiagnosticsFeature(connection, documents, settings, models, new AgentSiblingFinder(documents, models));
  const change = () => changed.forEach((listener) => listener({ document }));
  return { change, published };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test('an edit that arrives while a validation joins the text: that version is not published, the new one is', { timeout: 30_000 }, async () => {
  const text = 'ci_access:\n  projects:\n    - id: group/project\n      default_namespace: ns\n';
  const document = new ReadThenEdited(URI, 'yaml', 1, text);
  const { change, published } = fakeServer(document);
  const at = { line: 3, character: 'ns'.length + '      default_namespace: '.length };
  document.duringRead = () => {
    document.update([{ range: { start: at, end: at }, text: 'x' }], 2);
    change();
  };
  change(); // the open: version 1 is validated at once
  await until(() => published.some((p) => p.version === 2));
  assert.deepEqual(
    published.map((p) => p.version),
    [2],
  );
});

test('a validation that no edit overtakes is published', { timeout: 30_000 }, async () => {
  const document = new ReadThenEdited(URI, 'yaml', 1, 'ci_access:\n  projects:\n    - id: group/project\n');
  const { change, published } = fakeServer(document);
  change();
  await until(() => published.length > 0);
  assert.deepEqual(
    published.map((p) => p.version),
    [1],
  );
});
