/** Semantic tokens for rules:if expressions and namespace variables (docs/gitlab-behaviour.md#expression-lexer, docs/gitlab-behaviour.md#variable-expansion), over stdio. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InitializeResult, SemanticTokens } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';

const TEXT = `ci_access:
  projects:
    - id: acme/app
      default_namespace: apps-$CI_PROJECT_ID
      rules:
        - if: ($CI_COMMIT_BRANCH == "main" || $CI_COMMIT_TAG =~ /^v\\d+/i) && $X != null
          namespace: app-\${CI_ENVIRONMENT_SLUG}
        - if: '$CI_PIPELINE_SOURCE == "push"'
    - id: acme/no-rules
      default_namespace: plain-$CI_PROJECT_ID
  groups:
    - id: acme
      rules:
        - if: $A == true
`;

let client: LspTestClient;
let types: string[];
const uri = agentConfigUri('tokens-agent');

before(async () => {
  client = await LspTestClient.start();
  const capabilities = (client.initializeResult as InitializeResult).capabilities;
  types = capabilities.semanticTokensProvider?.legend.tokenTypes ?? [];
  await client.open(uri, TEXT);
});
after(async () => {
  await client.stop();
});

/** Decodes LSP's relative encoding into [line, character, text, type]. */
function decode(tokens: SemanticTokens): [number, number, string, string][] {
  const lines = TEXT.split('\n');
  const out: [number, number, string, string][] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < tokens.data.length; i += 5) {
    const [dLine, dChar, length, type] = tokens.data.slice(i, i + 4) as [number, number, number, number];
    line += dLine;
    character = dLine ? dChar : character + dChar;
    out.push([line, character, lines[line]!.slice(character, character + length), types[type]!]);
  }
  return out;
}

test('the legend uses standard token types; full and range requests are announced', () => {
  assert.deepEqual(types, ['variable', 'operator', 'string', 'regexp', 'keyword']);
  const provider = (client.initializeResult as InitializeResult).capabilities.semanticTokensProvider as { full?: unknown; range?: unknown };
  assert.equal(provider.full, true);
  assert.equal(provider.range, true);
});

test('full: every token of the if: expressions and namespace variables at its exact position', async () => {
  const tokens = await client.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri } });
  assert.deepEqual(decode(tokens), [
    [3, 30, '$CI_PROJECT_ID', 'variable'], // default_namespace of an entry with rules
    [5, 14, '(', 'operator'],
    [5, 15, '$CI_COMMIT_BRANCH', 'variable'],
    [5, 33, '==', 'operator'],
    [5, 36, '"main"', 'string'],
    [5, 43, '||', 'operator'],
    [5, 46, '$CI_COMMIT_TAG', 'variable'],
    [5, 61, '=~', 'operator'],
    [5, 64, '/^v\\d+/', 'regexp'],
    [5, 71, 'i', 'keyword'],
    [5, 72, ')', 'operator'],
    [5, 74, '&&', 'operator'],
    [5, 77, '$X', 'variable'],
    [5, 80, '!=', 'operator'],
    [5, 83, 'null', 'keyword'],
    [6, 25, '${CI_ENVIRONMENT_SLUG}', 'variable'],
    [7, 15, '$CI_PIPELINE_SOURCE', 'variable'],
    [7, 35, '==', 'operator'],
    [7, 38, '"push"', 'string'],
    [13, 14, '$A', 'variable'],
    [13, 17, '==', 'operator'],
    [13, 20, 'true', 'keyword'],
  ]);
});

test('range: only the tokens inside the range', async () => {
  const range = { start: { line: 7, character: 0 }, end: { line: 14, character: 0 } };
  const tokens = await client.request<SemanticTokens>('textDocument/semanticTokens/range', { textDocument: { uri }, range });
  assert.deepEqual(
    decode(tokens).map(([l, c, t]) => `${l}:${c}:${t}`),
    ['7:15:$CI_PIPELINE_SOURCE', '7:35:==', '7:38:"push"', '13:14:$A', '13:17:==', '13:20:true'],
  );
});

test('an invalid expression is coloured up to the first unreadable token', async () => {
  const bad = agentConfigUri('tokens-bad');
  await client.open(bad, 'ci_access:\n  projects:\n    - id: a\n      rules:\n        - if: $A == ${B}\n');
  const tokens = await client.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri: bad } });
  assert.deepEqual(tokens.data, [4, 14, 2, 0, 0, 0, 3, 2, 1, 0]);
});
