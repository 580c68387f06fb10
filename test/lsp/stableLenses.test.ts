/**
 * Stable lenses and hints while typing: a half-typed line makes the YAML unreadable, and
 * the lenses and inlay hints used to vanish on each such keystroke (the text jumped 3–4 lines).
 * Now the entries the edit did not touch keep their last good lens and hints, on their lines; the
 * entry being edited says it is invalid. An entry with errors never claims access.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CodeLens, InlayHint } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/payments
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: payments-$CI_ENVIRONMENT_SLUG
    - id: acme/web
      default_namespace: web
      access_as:
        ci_job: {}
`;

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({ settings: { configProjectPath: 'acme/infra', defaultBranch: 'main' } });
});
after(async () => {
  await client.stop();
});

const lenses = (uri: string) => client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
const hints = (uri: string) => client.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } } });
const summary = (ls: CodeLens[]) => ls.map((l) => [l.range.start.line, l.command?.title]);

test('a half-typed line: the untouched entry keeps its lens and hint on its line; the edited one says invalid', async () => {
  const uri = agentConfigUri('stable-agent');
  await client.open(uri, CONFIG);
  const good = await lenses(uri);
  assert.deepEqual(summary(good), [
    [2, 'CI access: 1/4 scenarios authorized · payments-production'],
    [6, 'CI access: 4/4 scenarios authorized · web'],
  ]);
  const goodHints = await hints(uri);
  assert.deepEqual(goodHints.map((h) => [h.position, h.label]), [[rangeOf(CONFIG, 'payments-$CI_ENVIRONMENT_SLUG').end, '→ payments-production']]);

  // The user starts a quoted value on a new line of the first entry: the file cannot be read.
  const typing = CONFIG.replace('    - id: acme/web', '      default_namespace: "pay\n    - id: acme/web');
  const published = await client.change(uri, typing);
  assert.ok(published.diagnostics.some((d) => d.code === 'yaml.syntax'));
  assert.deepEqual(summary(await lenses(uri)), [
    [2, 'CI access: invalid: GitLab would reject this file · YAML syntax error on line 7'],
    [7, 'CI access: 4/4 scenarios authorized · web'],
  ]);
  assert.deepEqual((await hints(uri)).map((h) => [h.position, h.label]), [[rangeOf(typing, 'payments-$CI_ENVIRONMENT_SLUG').end, '→ payments-production']]);

  // The value is finished: fresh results again.
  const done = CONFIG.replace('    - id: acme/web', '      default_namespace: "payments"\n    - id: acme/web');
  await client.change(uri, done);
  assert.deepEqual(summary(await lenses(uri)), [
    [2, 'CI access: 1/4 scenarios authorized · payments-production'],
    [7, 'CI access: 4/4 scenarios authorized · web'],
  ]);
});

test('an entry with errors says GitLab would reject the file instead of claiming access', async () => {
  const uri = agentConfigUri('invalid-entry-agent');
  const text = CONFIG.replace('        ci_job: {}', '        ci_jobs: {}');
  const { diagnostics } = await client.open(uri, text);
  assert.ok(diagnostics.some((d) => d.severity === 1 && d.range.start.line === 9), JSON.stringify(diagnostics.map((d) => [d.code, d.range.start.line])));
  const [first, second] = summary(await lenses(uri));
  assert.deepEqual(first, [2, 'CI access: 1/4 scenarios authorized · payments-production']);
  assert.equal(second[0], 6);
  assert.match(String(second[1]), /^CI access: invalid: GitLab would reject this file · \d+ errors? in this entry$/);
});
