// docs/gitlab-behaviour.md#gitlab-versions: the editor reads gitlabAgentConfig.gitlabVersion over
// workspace/configuration — diagnostics, hover, completion and quick fixes follow the release chosen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompletionItem, CompletionList, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';

const TEXT = 'ci_access:\n  projects:\n    - id: acme/app\n      protected_branches_only: true\n      environments: [review/*]\n';

for (const [version, expectedCodes, hoverText, offersKey] of [
  ['17.2', ['schema.notInVersion'], /Not in GitLab 17\.2: `protected_branches_only` was added in 17\.3/, false],
  ['17.3', [], /Since GitLab 17\.3/, true],
] as const) {
  describe(`LSP over stdio: gitlabVersion ${version}`, () => {
    let client: LspTestClient;
    before(async () => {
      client = await LspTestClient.start({ settings: { gitlabVersion: version } });
    });
    after(async () => {
      await client.stop();
    });

    test('diagnostics, hover and completion of protected_branches_only', async () => {
      const uri = agentConfigUri(`version-${version.replace('.', '-')}`);
      const { diagnostics } = await client.open(uri, TEXT);
      assert.deepEqual(diagnostics.map((d) => d.code), expectedCodes);
      const hover = (await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 10 } })) as Hover | null;
      assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', hoverText);
      const keysUri = agentConfigUri(`version-keys-${version.replace('.', '-')}`);
      await client.open(keysUri, 'ci_access:\n  projects:\n    - id: acme/app\n      \n');
      const completion = (await client.request('textDocument/completion', { textDocument: { uri: keysUri }, position: { line: 3, character: 6 } })) as CompletionList | CompletionItem[] | null;
      const labels = (Array.isArray(completion) ? completion : (completion?.items ?? [])).map((item) => item.label);
      assert.ok(labels.includes('environments'), labels.join());
      assert.equal(labels.includes('protected_branches_only'), offersKey);
    });

    test('the did-you-mean fix of a misspelt key offers protected_branches_only only where the release has it', async () => {
      const uri = agentConfigUri(`version-fix-${version.replace('.', '-')}`);
      const { diagnostics } = await client.open(uri, 'ci_access:\n  projects:\n    - id: acme/app\n      protected_branch_only: true\n');
      const unknown = diagnostics.find((d) => d.code === 'schema.unknownKey');
      assert.ok(unknown, JSON.stringify(diagnostics));
      const titles = (await client.codeActions(uri, unknown)).map((action) => action.title);
      assert.deepEqual(titles, offersKey ? ['Change to "protected_branches_only"'] : []);
    });
  });
}
