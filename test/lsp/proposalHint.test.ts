// "Know where you stand" over stdio: with the default `proposal` target, a config with
// `rules` gets an information on its first `rules` key saying GitLab would reject the file (no
// release ships the rules design: docs/gitlab-behaviour.md#ci_access-rules-design,
// https://gitlab.com/gitlab-org/cluster-integration/gitlab-agent/-/merge_requests/714 ; an unknown key
// invalidates the file: docs/gitlab-behaviour.md#config-file-location-and-parsing). With the
// `gitlab` target the key is the error instead.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/web
      access_as:
        ci_job: {}
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: web-production
`;

describe('LSP over stdio: the proposal target says GitLab would reject rules', () => {
  const clients: LspTestClient[] = [];
  after(async () => {
    for (const client of clients) await client.stop();
  });

  test('proposal (the default): one information on rules, naming the release checked and the setting', async () => {
    const client = await LspTestClient.start({ settings: { gitlabVersion: '18.0' } });
    clients.push(client);
    const { diagnostics } = await client.open(agentConfigUri('hint-agent'), CONFIG);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range]), [['target.proposalOnly', DiagnosticSeverity.Information, rangeOf(CONFIG, 'rules')]]);
    assert.match(diagnostics[0].message, /^GitLab would reject this file: "rules" is the proposed rules design \(gitlab-agent MR !714\), which GitLab 18\.0 does not have/);
    assert.match(diagnostics[0].message, /set gitlabAgentConfig\.target \(--target on the command line\) to "gitlab"/);
  });

  test('gitlab: no note; the key is the error GitLab gives', async () => {
    const client = await LspTestClient.start({ settings: { target: 'gitlab' } });
    clients.push(client);
    const { diagnostics } = await client.open(agentConfigUri('hint-agent'), CONFIG);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range]), [['target.unsupportedKey', DiagnosticSeverity.Error, rangeOf(CONFIG, 'rules')]]);
  });
});
