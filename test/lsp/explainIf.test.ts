/**
 * Explain everything: the hover on an `if:` shows, per scenario, each variable's value
 * and what each part of the expression gave; a variable no scenario sets gets a note saying so.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Hover } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/app
      rules:
        - if: $CI_COMMIT_TAG =~ /^v/ && $DEPLOY_APPROVED == "yes"
          namespace: releases
`;

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({ settings: { configProjectPath: 'acme/infra', defaultBranch: 'main' } });
});
after(async () => {
  await client.stop();
});

test('hover on if: the variables per scenario, the parts, and a note on a variable no scenario sets', async () => {
  const uri = agentConfigUri('explain-agent');
  await client.open(uri, CONFIG);
  const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: rangeOf(CONFIG, '$CI_COMMIT_TAG').start });
  const text = (hover.contents as { value: string }).value;
  assert.match(text, /\| scenario \| value \| \| variables \| parts \|/);
  assert.match(text, /\| tag release \| `false` \| ✗ no match \| `\$CI_COMMIT_TAG` = `"v1\.2\.0"`<br>`\$DEPLOY_APPROVED` = \*unset\* \| `\(\$CI_COMMIT_TAG =~ \/\^v\/\)` → `true`<br>`\(\$DEPLOY_APPROVED == "yes"\)` → `false` \|/);
  assert.match(text, /\| default branch → production \| `false` \| ✗ no match \| `\$CI_COMMIT_TAG` = \*unset\*/);
  assert.match(text, /⚠ `\$DEPLOY_APPROVED` is set in no scenario, so every scenario reads it as unset \(null\)/);
  assert.doesNotMatch(text, /⚠ `\$CI_COMMIT_TAG`/);
});
