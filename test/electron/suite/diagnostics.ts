// In-editor version of test/e2e/diagnostics.test.ts: the broken example config gets the extension's
// diagnostics at the exact key or value, and an edit that fixes a mistake clears its diagnostic.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InEditorCase } from './index';

const BROKEN = '.gitlab/agents/broken-agent/config.yaml';

function brokenConfigUri(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'VS Code was launched on a copy of examples/');
  return vscode.Uri.joinPath(folder.uri, BROKEN);
}

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' ? d.code.value : d.code;
}

const unknownKey = (d: vscode.Diagnostic) => d.message.startsWith('Unknown key "defualt_namespace"');

/** Resolves with the document's diagnostics once `predicate` holds, on the diagnostics-changed event. */
function waitForDiagnostics(uri: vscode.Uri, predicate: (all: vscode.Diagnostic[]) => boolean, timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const current = vscode.languages.getDiagnostics(uri);
      if (!predicate(current)) return false;
      subscription.dispose();
      clearTimeout(timer);
      resolve(current);
      return true;
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      subscription.dispose();
      const shown = vscode.languages.getDiagnostics(uri).map((d) => `  ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
      reject(new Error(`diagnostics did not reach the expected state within ${timeoutMs} ms; now:\n${shown.join('\n') || '  (none)'}`));
    }, timeoutMs);
    check();
  });
}

export const diagnosticsCases: InEditorCase[] = [
  {
    name: 'the broken config gets diagnostics on the exact key and value',
    async run() {
      const uri = brokenConfigUri();
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const all = await waitForDiagnostics(uri, (ds) => ds.some(unknownKey));
      const typo = all.find(unknownKey);
      assert.ok(typo);
      assert.equal(typo.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(codeOf(typo), 'schema.unknownKey');
      assert.deepEqual([typo.range.start.line, typo.range.start.character, typo.range.end.character], [4, 6, 23]);
      const notBoolean = all.find((d) => d.message.includes('must be a boolean'));
      assert.ok(notBoolean, 'protected_branches_only: "yes please" is reported');
      assert.deepEqual([notBoolean.range.start.line, notBoolean.range.start.character], [5, 31]);
      assert.ok(all.some((d) => /duplicate/i.test(d.message)), 'the duplicate key is reported');
      assert.ok(all.some((d) => /gitops/.test(d.message) && /removed/.test(d.message)), 'gitops is reported as removed');
    },
  },
  {
    name: 'fixing the typo clears its diagnostic; the others stay',
    async run() {
      const uri = brokenConfigUri();
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(4, 9, 4, 11), 'au'); // defualt_namespace → default_namespace
      assert.ok(await vscode.workspace.applyEdit(edit));
      const remaining = await waitForDiagnostics(uri, (ds) => !ds.some(unknownKey));
      assert.ok(remaining.some((d) => d.message.includes('must be a boolean')), 'the other errors remain');
    },
  },
];
