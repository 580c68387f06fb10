import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateAgentConfigOfSize } from '../support/generateConfig';
import { agentConfigUri, LspTestClient, repoRoot } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

describe('LSP over stdio: diagnostics', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('the broken example: codes and exact ranges', async () => {
    const text = readFileSync(path.join(repoRoot, 'examples/.gitlab/agents/broken-agent/config.yaml'), 'utf8');
    const { diagnostics } = await client.open(agentConfigUri('broken-agent'), text);
    const byCode = (code: string) => diagnostics.filter((d) => d.code === code);
    assert.deepEqual(byCode('schema.unknownKey').map((d) => d.range), [rangeOf(text, 'defualt_namespace')]);
    assert.deepEqual(byCode('schema.type').map((d) => d.range), [rangeOf(text, '"yes please"'), rangeOf(text, 'production')]);
    assert.deepEqual(byCode('schema.oneOf').map((d) => d.range), [rangeOf(text, 'access_as')]);
    assert.deepEqual(byCode('yaml.duplicateKey').map((d) => d.range), [rangeOf(text, 'level', 1)]);
    assert.deepEqual(byCode('schema.removedKey').map((d) => d.range), [rangeOf(text, 'gitops')]);
    // Errors, but the duplicate key: GitLab keeps its last value (docs/gitlab-behaviour.md#duplicate-keys), a warning.
    assert.ok(diagnostics.every((d) => d.source === 'gitlab-agent' && d.severity === (d.code === 'yaml.duplicateKey' || String(d.code).startsWith('security.') ? 2 : 1)));
    // Six mistakes and one security lint (docs/gitlab-behaviour.md#security-lints).
    assert.equal(diagnostics.length, 7);
  });

  test('fixing the text clears the diagnostic (incremental edit)', async () => {
    const uri = agentConfigUri('typing-agent');
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      defualt_namespace: apps\n';
    const first = await client.open(uri, text);
    assert.deepEqual(first.diagnostics.map((d) => d.code), ['schema.unknownKey']);
    const fixed = await client.edit(uri, rangeOf(text, 'defualt'), 'default');
    assert.deepEqual(fixed.diagnostics, []);
  });

  test('the valid example has no problems, only the note that GitLab would reject its rules (proposal target)', async () => {
    const text = readFileSync(path.join(repoRoot, 'examples/.gitlab/agents/production-agent/config.yaml'), 'utf8');
    const { diagnostics } = await client.open(agentConfigUri('production-agent'), text);
    // docs/gitlab-behaviour.md#ci_access-rules-design: the default target accepts rules, which no GitLab release ships.
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range]), [['target.proposalOnly', 3, rangeOf(text, 'rules')]]);
  });

  test('files outside .gitlab/agents/<agent>/ are left alone', async () => {
    const uri = agentConfigUri('x', 'not-config.yaml');
    void client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: 'nonsense: [' } });
    // The hover round trip proves the notification was processed; nothing may be published for it.
    await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.equal(client.published.has(uri), false);
  });

  test('hover documents a key from the schema', async () => {
    const uri = agentConfigUri('hover-agent');
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      protected_branches_only: true\n';
    await client.open(uri, text);
    const at = rangeOf(text, 'protected_branches_only').start;
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line: at.line, character: at.character + 3 } });
    assert.ok(hover);
    assert.match(hover.contents.value, /\*\*protected_branches_only\*\*/);
    assert.match(hover.contents.value, /Since GitLab 17\.3/);
  });

  describe('bad input: no crash, the server keeps answering', () => {
    async function stillAnswers(uri: string) {
      const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
      assert.ok(hover === null || typeof hover === 'object');
      assert.equal(client.process.exitCode, null, 'server process still running');
    }

    test('empty file', async () => {
      const uri = agentConfigUri('empty-agent');
      const { diagnostics } = await client.open(uri, '');
      assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [['config.empty', 3]]);
      await stillAnswers(uri);
    });

    test('only ---', async () => {
      const uri = agentConfigUri('dashes-agent');
      const { diagnostics } = await client.open(uri, '---\n');
      assert.deepEqual(diagnostics.map((d) => d.code), ['config.empty']);
      await stillAnswers(uri);
    });

    test('random bytes', async () => {
      const uri = agentConfigUri('random-agent');
      let seed = 7;
      const bytes = Buffer.from(Array.from({ length: 256 * 1024 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256));
      const { diagnostics } = await client.open(uri, bytes.toString('utf8'));
      assert.ok(diagnostics.length > 0 && diagnostics.length <= 501, `got ${diagnostics.length}`);
      assert.ok(diagnostics.some((d) => String(d.code).startsWith('yaml.')));
      await stillAnswers(uri);
    });

    test('a 5 MB configuration', async () => {
      const uri = agentConfigUri('huge-agent');
      const text = generateAgentConfigOfSize(5 * 1024 * 1024);
      assert.ok(text.length >= 5 * 1024 * 1024);
      const { diagnostics } = await client.open(uri, text);
      assert.deepEqual(diagnostics.map((d) => d.code).sort(), ['config.entryLimit', 'config.tooLarge', 'target.proposalOnly']);
      await stillAnswers(uri);
      client.close(uri);
    });
  });
});
