import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AgentSiblingFinder } from '../../../server/src/lsp/agentSiblings';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { EditedDocument } from '../../../server/src/lsp/editedDocument';
import { generateAgentConfig } from '../../support/generateConfig';

/** An open document that counts the reads of its whole text. */
class CountedReads extends EditedDocument {
  wholeReads = 0;
  override getText(range?: Parameters<EditedDocument['getText']>[0]): string {
    if (!range) this.wholeReads++;
    return super.getText(range);
  }
}

describe('AgentSiblingFinder', () => {
  it("gives a template the open config's model without reading the config's whole text (a keystroke in a big config re-checks its open template)", () => {
    const configUri = 'file:///w/.gitlab/agents/a/config.yaml';
    const templateUri = 'file:///w/.gitlab/agents/a/environment_templates/default.yaml';
    const config = new CountedReads(configUri, 'yaml', 1, generateAgentConfig(50));
    const template = new EditedDocument(templateUri, 'yaml', 1, 'objects: []\n');
    const open = new Map<string, TextDocument>([
      [configUri, config],
      [templateUri, template],
    ]);
    const documents = { get: (uri: string) => open.get(uri), all: () => [...open.values()] } as unknown as TextDocuments<TextDocument>;
    const models = new DocumentModels(documents);
    const siblings = new AgentSiblingFinder(documents, models).siblingsOf(templateUri);
    models.get(config); // the config was opened and validated: its model is cached
    config.wholeReads = 0;
    for (let version = 2; version < 6; version++) {
      config.update([{ range: { start: { line: 3, character: 25 }, end: { line: 3, character: 25 } }, text: 'x' }], version);
      const found = siblings.config();
      assert.ok(found?.ciAccess.projects.length === 50, 'the config model of this version');
      assert.equal(found.parsed, models.get(config));
    }
    assert.equal(config.wholeReads, 0, 'the config text was joined');
    assert.equal(new AgentSiblingFinder(documents, models).siblingsOf(configUri).defaultTemplate(), 'objects: []\n');
  });
});
