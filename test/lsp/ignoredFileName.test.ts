// docs/gitlab-behaviour.md#ignored-file-names: GitLab reads config.yaml and
// environment_templates/default.yaml only; the .yml spelling gets a warning whose quick fix renames
// the file (a WorkspaceEdit rename operation), over stdio as an editor asks for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { agentConfigUri, LspTestClient } from '../support/lspClient';

describe('LSP over stdio: a file GitLab ignores, renamed by the quick fix', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  for (const [file, renamed] of [
    ['config.yml', 'config.yaml'],
    ['environment_templates/default.yml', 'environment_templates/default.yaml'],
  ] as const) {
    test(`${file}: warned on its first line, "Rename the file to …" renames it`, async () => {
      const uri = agentConfigUri('fix-ignored-name', file);
      const text = file.startsWith('config') ? 'ci_access:\n  projects:\n    - id: acme/app\n' : 'objects: []\n';
      const { diagnostics } = await client.open(uri, text);
      const ignored = diagnostics.find((d) => d.code === 'file.ignoredName');
      assert.ok(ignored, JSON.stringify(diagnostics));
      assert.equal(ignored.severity, 2);
      assert.deepEqual(ignored.range.start, { line: 0, character: 0 });
      const [fix] = await client.codeActions(uri, ignored);
      assert.equal(fix.title, `Rename the file to ${renamed.split('/').pop()}`);
      assert.deepEqual(fix.edit?.documentChanges, [{ kind: 'rename', oldUri: uri, newUri: agentConfigUri('fix-ignored-name', renamed), options: { overwrite: false, ignoreIfExists: false } }]);
    });
  }
});
