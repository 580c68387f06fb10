/** docs/gitlab-behaviour.md#expression-regular-expressions: RE2 semantics — a catastrophic pattern runs in linear time and the server keeps answering. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Hover } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const LONG = 'a'.repeat(100_000) + 'b';
const CONFIG = `ci_access:
  projects:
    - id: acme/app
      rules:
        - if: $PAYLOAD =~ /(a+)+$/
          namespace: never-here
`;

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({
    settings: { usePresetScenarios: false, scenarios: [{ name: 'hostile input', ref: 'main', variables: { PAYLOAD: LONG } }] },
  });
});
after(async () => {
  await client.stop();
});

test('/(a+)+$/ against 100,000 "a" + "b" is evaluated (no match) and other requests are answered meanwhile', async () => {
  const uri = agentConfigUri('regex-agent');
  const other = agentConfigUri('other-agent');
  await client.open(uri, CONFIG);
  const at = rangeOf(CONFIG, '$PAYLOAD').start;
  const [hover, otherDiagnostics] = await Promise.all([
    client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: at }),
    client.open(other, 'ci_access: {}\n'),
  ]);
  assert.match((hover.contents as { value: string }).value, /\| hostile input \| `false` \| ✗ no match \|/);
  assert.deepEqual(otherDiagnostics.diagnostics, []);
});
