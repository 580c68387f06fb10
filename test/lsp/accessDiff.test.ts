/**
 * The access diff in the editor, over stdio: "Compare CI Access with Branch…" sends both versions of the
 * agent files; the server answers with the same markdown as `agentcfg diff` and a lens per changed line.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ACCESS_DIFF_REQUEST, type AccessDiffParams, type AccessDiffResult } from '../../server/src/protocol';
import { LspTestClient } from '../support/lspClient';

const BASE = `ci_access:
  projects:
    - id: acme/shop/web
      default_namespace: web
      environments: ["review/*"]
    - id: acme/shop/api
`;

describe('LSP over stdio: the access diff against a branch', () => {
  let client: LspTestClient;
  // A folder without a git remote: the agent configuration project comes from the setting.
  const rootUri = pathToFileURL(mkdtempSync(path.join(tmpdir(), 'agentcfg-lsp-diff-'))).href;
  before(async () => {
    client = await LspTestClient.start({ settings: { configProjectPath: 'acme/infra/agents', defaultBranch: 'main' } });
  });
  after(async () => {
    await client.stop();
  });

  test('production added to an entry: the markdown view and a lens on the entry, production first', async () => {
    // docs/gitlab-behaviour.md#environment-filter
    const head = BASE.replace('["review/*"]', '["review/*", production]').replace('    - id: acme/shop/api\n', '');
    const params: AccessDiffParams = {
      base: 'main',
      rootUri,
      files: [
        { path: '.gitlab/agents/prod/config.yaml', before: BASE, after: head },
        { path: '.gitlab/agents/old/config.yaml', before: 'ci_access:\n  groups:\n    - id: acme/legacy\n', after: null },
      ],
    };
    const result = await client.request<AccessDiffResult>(ACCESS_DIFF_REQUEST, params);
    assert.equal(result.count, 10);
    assert.match(result.markdown, /^\*\*CI\/CD access diff\*\* \(compared with `main`\): 10 job situations change: 2 gain access \(2 in production\), 8 lose access \(4 in production\)\.\n/);
    assert.deepEqual(result.lenses, [{ path: '.gitlab/agents/prod/config.yaml', line: 2, title: '⚠ vs main: grants production access to default branch → production, tag release' }]);
  });

  test('nothing changes: no lens, an empty markdown', async () => {
    const result = await client.request<AccessDiffResult>(ACCESS_DIFF_REQUEST, { base: 'main', rootUri, files: [{ path: '.gitlab/agents/prod/config.yaml', before: BASE, after: `# comment\n${BASE}` }] });
    assert.deepEqual(result, { count: 0, markdown: '', lenses: [] });
  });

  test('malformed params are refused, not crashed on', async () => {
    await assert.rejects(client.request(ACCESS_DIFF_REQUEST, { base: 'main' }), /accessDiff needs/);
  });
});
