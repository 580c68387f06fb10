/** Rules and namespaces in the editor, over stdio: expression diagnostics, namespace previews, inlay hints, code lenses, the simulate request. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CodeLens, Hover, InlayHint } from 'vscode-languageserver-protocol';
import { SCENARIOS_REQUEST, SIMULATE_REQUEST, type ScenariosResult, type SimulateResult } from '../../server/src/protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/payments
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: payments-$CI_ENVIRONMENT_SLUG
        - if: $CI_COMMIT_REF_NAME =~ /^feature\\//
          namespace: review-apps
        - when: never
    - id: acme/broken
      rules:
        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH
        - if: \${CI_COMMIT_BRANCH} == "main"
        - if: $CI_COMIT_BRANCH == "main"
        - namespace: x
        - namespace: y
`;

describe('LSP over stdio: CI access simulation in the editor', () => {
  let client: LspTestClient;
  const uri = agentConfigUri('sim-agent');
  before(async () => {
    client = await LspTestClient.start({ settings: { configProjectPath: 'acme/infra', defaultBranch: 'main' } });
  });
  after(async () => {
    await client.stop();
  });

  test('expression diagnostics point inside the if: value', async () => {
    const { diagnostics } = await client.open(uri, CONFIG);
    const byCode = (code: string) => diagnostics.filter((d) => d.code === code);
    assert.deepEqual(byCode('expr.missingDollar').map((d) => d.range), [rangeOf(CONFIG, 'CI_DEFAULT_BRANCH', 1)]);
    assert.deepEqual(byCode('expr.bracedVariable').map((d) => d.range), [rangeOf(CONFIG, '${CI_COMMIT_BRANCH}')]);
    assert.deepEqual(byCode('expr.unknownVariable').map((d) => [d.range, d.message]), [[rangeOf(CONFIG, '$CI_COMIT_BRANCH'), 'Unknown CI/CD variable $CI_COMIT_BRANCH. Did you mean $CI_COMMIT_BRANCH?']]);
    assert.deepEqual(byCode('rules.unreachable').map((d) => d.range.start.line), [rangeOf(CONFIG, 'namespace: y').start.line]);
  });

  test('hover on namespace: shows the resolved namespace per scenario', async () => {
    const at = rangeOf(CONFIG, 'namespace: payments').start;
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: at.line, character: at.character + 2 } });
    const text = (hover.contents as { value: string }).value;
    assert.match(text, /Resolved namespace per scenario/);
    assert.match(text, /\| default branch → production \| `payments-production` \| ✓ valid \|/);
    assert.match(text, /\| feature branch → review app \| — \| rule 2 decides \|/);
    // docs/gitlab-behaviour.md#predefined-variables: CI_COMMIT_BRANCH is not set in tag pipelines, so rule 1 cannot match a tag.
    assert.match(text, /\| tag release \| — \| rule 3 decides \|/);
  });

  test('hover on if: shows the value per scenario and the parsed structure', async () => {
    const at = rangeOf(CONFIG, '$CI_COMMIT_REF_NAME').start;
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: at });
    const text = (hover.contents as { value: string }).value;
    assert.match(text, /\*\*Rule 2\*\* — parsed as `\(\$CI_COMMIT_REF_NAME =~ \/\^feature\\\/\/\)`/);
    assert.match(text, /\| feature branch → review app \| `true` \| ✓ matches \|/);
    assert.match(text, /\| default branch → production \| `false` \| ✗ no match \|/);
  });

  test('hover on an entry id shows the outcome per scenario', async () => {
    const at = rangeOf(CONFIG, 'acme/payments').start;
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: at });
    const text = (hover.contents as { value: string }).value;
    assert.match(text, /\| tag release \| ✗ rule 3 has when: never \| project acme\/payments \| 3 \| — \|/);
    // docs/gitlab-behaviour.md#predefined-variables: merge request pipelines have no CI_COMMIT_BRANCH, but CI_COMMIT_REF_NAME is the source branch.
    assert.match(text, /\| merge request pipeline \| ✓ `review-apps` \| project acme\/payments \| 2 \|/);
  });

  test('inlay hints show resolved namespaces after namespace: values with variables', async () => {
    const hints = await client.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } } });
    const end = rangeOf(CONFIG, 'payments-$CI_ENVIRONMENT_SLUG').end;
    assert.deepEqual(hints.map((h) => [h.position, h.label]), [[end, '→ payments-production']]);
  });

  test('code lenses above each entry summarise the outcome and open the simulation', async () => {
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.equal(lenses.length, 2);
    assert.equal(lenses[0].range.start.line, rangeOf(CONFIG, '- id: acme/payments').start.line);
    assert.equal(lenses[0].command?.title, 'CI access: 3/4 scenarios authorized · payments-production, review-apps');
    assert.equal(lenses[0].command?.command, 'gitlabAgentConfig.simulate');
    // acme/broken has errors (if: without $, ...): GitLab would reject the file, so its lens claims no access.
    assert.equal(lenses[1].command!.title, 'CI access: invalid: GitLab would reject this file · 3 errors in this entry');
  });

  test('gitlabAgentConfig/simulate returns the scenario × entry table', async () => {
    const result = await client.request<{ context: string; rows: { scenario: string; project: string; authorized: boolean; namespace: string | null }[] }>('gitlabAgentConfig/simulate', { uri });
    assert.equal(result.context, 'acme/infra:sim-agent');
    assert.equal(result.rows.length, 8);
    assert.deepEqual(result.rows.slice(0, 4).map((r) => [r.scenario, r.authorized, r.namespace]), [
      ['default branch → production', true, 'payments-production'],
      ['feature branch → review app', true, 'review-apps'],
      ['tag release', false, null],
      ['merge request pipeline', true, 'review-apps'],
    ]);
  });

  test('the results follow edits', async () => {
    const edited = CONFIG.replace('namespace: review-apps', 'namespace: review-apps-2');
    await client.change(uri, edited);
    const result = await client.request<{ rows: { namespace: string | null }[] }>('gitlabAgentConfig/simulate', { uri });
    assert.equal(result.rows[1].namespace, 'review-apps-2');
  });

  test('gitlabAgentConfig/scenarios answers the active scenarios in the order the simulation uses (the client shows these)', async () => {
    const { scenarios } = await client.request<ScenariosResult>(SCENARIOS_REQUEST, null);
    assert.deepEqual(
      scenarios.map((s) => s.name),
      ['default branch → production', 'feature branch → review app', 'tag release', 'merge request pipeline'],
    );
    const table = await client.request<SimulateResult>(SIMULATE_REQUEST, { uri });
    assert.deepEqual(table.scenarios, scenarios.map((s) => s.name), 'the same order as the simulate table');
  });
});

describe('LSP over stdio: quick fixes', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('add the missing $, fix a misspelled variable and a misspelled key', async () => {
    const uri = agentConfigUri('fix-agent');
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      defualt_namespace: x\n      rules:\n        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH\n        - if: $CI_COMIT_BRANCH == "x"\n';
    const { diagnostics } = await client.open(uri, text);
    const actions = await client.request<{ title: string; edit: { changes: Record<string, { range: unknown; newText: string }[]> } }[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 7, character: 0 } },
      context: { diagnostics },
    });
    const edits = actions.map((a) => [a.title, a.edit.changes[uri][0].range, a.edit.changes[uri][0].newText]);
    assert.deepEqual(edits, [
      ['Change to "default_namespace"', rangeOf(text, 'defualt_namespace'), 'default_namespace'],
      ['Change to $CI_DEFAULT_BRANCH', rangeOf(text, 'CI_DEFAULT_BRANCH'), '$CI_DEFAULT_BRANCH'],
      ['Change to $CI_COMMIT_BRANCH', rangeOf(text, '$CI_COMIT_BRANCH'), '$CI_COMMIT_BRANCH'],
    ]);
  });

});
