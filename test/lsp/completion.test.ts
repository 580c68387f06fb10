/** Completion over stdio: keys with skeletons, values, rules:if, namespaces, templates, workspace ids. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CompletionItemKind, InsertTextFormat, InsertTextMode, type CompletionItem, type CompletionList, type TextEdit } from 'vscode-languageserver-protocol';
import { caret, expandSnippet } from '../unit/completion/caret';
import { agentConfigUri, LspTestClient } from '../support/lspClient';

let client: LspTestClient;
let workspace: string;
let documentCount = 0;

const SETTINGS = {
  scenarios: [
    { name: 'nightly', ref: 'main', variables: { DEPLOY_TARGET: 'eu', NIGHTLY: 'true' } },
    { name: 'hotfix', ref: 'hotfix/x', variables: { DEPLOY_TARGET: 'us' } },
  ],
};

before(async () => {
  // A workspace with a second agent on disk, whose ids completion offers in the first agent's config.
  workspace = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-completion-'));
  mkdirSync(path.join(workspace, '.gitlab', 'agents', 'staging', 'environment_templates'), { recursive: true });
  writeFileSync(
    path.join(workspace, '.gitlab', 'agents', 'staging', 'config.yaml'),
    'ci_access:\n  projects:\n    - id: acme/shop/web\n    - id: acme/shop/api\n  groups:\n    - id: acme/platform\nuser_access:\n  projects:\n    - id: acme/shop/web\n',
  );
  client = await LspTestClient.start({ settings: SETTINGS, workspaceFolder: workspace });
});

after(async () => {
  await client.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** Opens `source` (cursor marked with ‸) as a new document and asks for completion at the cursor. */
async function complete(source: string, file = 'config.yaml'): Promise<{ items: CompletionItem[]; text: string }> {
  const { text, offset } = caret(source);
  documentCount += 1;
  const uri = file === 'config.yaml' ? pathToFileURL(path.join(workspace, '.gitlab', 'agents', `agent-${documentCount}`, 'config.yaml')).href : agentConfigUri(`tpl-${documentCount}`, file);
  await client.open(uri, text);
  const before = text.slice(0, offset);
  const position = { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
  const list = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position });
  client.close(uri); // the next test's workspace ids come from its own document only
  return { items: list.items, text };
}

/** Labels in the editor's order (sortText, then label). */
function labels(items: CompletionItem[]): string[] {
  return [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label) || a.label.localeCompare(b.label)).map((i) => i.label);
}

function item(items: CompletionItem[], label: string): CompletionItem {
  const found = items.find((i) => i.label === label);
  assert.ok(found, `no "${label}" among ${JSON.stringify(labels(items))}`);
  return found;
}

/** The document after accepting `label` (snippet placeholders replaced by their defaults). */
function accept(text: string, items: CompletionItem[], label: string): string {
  const edit = item(items, label).textEdit as TextEdit;
  const lines = text.split('\n');
  const offsetOf = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const inserted = item(items, label).insertTextFormat === InsertTextFormat.Snippet ? expandSnippet(edit.newText) : edit.newText;
  return text.slice(0, offsetOf(edit.range.start)) + inserted + text.slice(offsetOf(edit.range.end));
}

// docs/gitlab-behaviour.md#agent-configuration-file
describe('keys', () => {
  test('top-level keys on an empty document, removed keys hidden', async () => {
    const { items } = await complete('‸');
    assert.deepEqual(labels(items), ['ci_access', 'user_access', 'remote_development', 'observability', 'container_scanning', 'flux']);
    // docs/gitlab-behaviour.md#top-level-keys-and-list-limits
    for (const removed of ['gitops', 'starboard', 'cilium']) assert.ok(!items.some((i) => i.label === removed), `${removed} is removed`);
    const ciAccess = item(items, 'ci_access');
    assert.equal(ciAccess.kind, CompletionItemKind.Property);
    assert.equal(ciAccess.insertTextFormat, InsertTextFormat.Snippet);
    assert.match(String((ciAccess.documentation as { value: string }).value), /Authorize CI\/CD jobs/);
  });

  test('a partial key: the existing keys are left out and the edit replaces the typed word', async () => {
    const { items, text } = await complete('ci_access:\n  projects:\n    - id: acme/app\n      default_namespace: apps\n      re‸\n');
    assert.deepEqual(labels(items), ['access_as', 'environments', 'protected_branches_only', 'resource_management', 'rules']);
    assert.deepEqual((item(items, 'resource_management').textEdit as TextEdit).range, { start: { line: 4, character: 6 }, end: { line: 4, character: 8 } });
    assert.equal(accept(text, items, 'resource_management'), 'ci_access:\n  projects:\n    - id: acme/app\n      default_namespace: apps\n      resource_management:\n        enabled: true\n');
    const docs = String((item(items, 'resource_management').documentation as { value: string }).value);
    assert.match(docs, /Since GitLab 17\.9/, 'documentation says since which version');
    assert.match(item(items, 'rules').detail ?? '', /not shipped by GitLab/);
  });

  test('a new projects entry: a skeleton first, then the keys, required id first', async () => {
    const { items, text } = await complete('ci_access:\n  projects:\n    - ‸\n');
    assert.deepEqual(labels(items).slice(0, 3), ['project authorization', 'id', 'default_namespace']);
    const skeleton = item(items, 'project authorization');
    assert.equal(skeleton.preselect, true);
    assert.equal(skeleton.kind, CompletionItemKind.Snippet);
    assert.equal(skeleton.insertTextMode, InsertTextMode.asIs);
    assert.equal((skeleton.textEdit as TextEdit).newText, 'id: ${1:group/project}\n      default_namespace: ${2:namespace}\n      access_as:\n        ${3|agent,ci_job|}: {}');
    assert.equal(accept(text, items, 'project authorization'), 'ci_access:\n  projects:\n    - id: group/project\n      default_namespace: namespace\n      access_as:\n        agent: {}\n');
    assert.equal(item(items, 'id').detail, 'string · required');
  });

  test('the projects key inserts a list with a first entry', async () => {
    const { items, text } = await complete('ci_access:\n  gr‸');
    assert.equal((item(items, 'projects').textEdit as TextEdit).newText, 'projects:\n    - id: ${1:group/project}');
    assert.equal(accept(text, items, 'groups'), 'ci_access:\n  groups:\n    - id: group');
  });

  // docs/gitlab-behaviour.md#ci_access-rules-design
  test('a new rules item: if and namespace', async () => {
    const { items, text } = await complete('ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - ‸');
    assert.deepEqual(labels(items), ['rule (if, namespace)', 'if', 'namespace', 'when']);
    assert.equal(
      accept(text, items, 'rule (if, namespace)'),
      'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n          namespace: app-$CI_ENVIRONMENT_SLUG',
    );
  });

  test('a section key leaves the cursor on its first nested line and asks the editor to suggest again', async () => {
    const { items } = await complete('observability:\n  ‸');
    assert.equal((item(items, 'logging').textEdit as TextEdit).newText, 'logging:\n    $1');
    assert.deepEqual(item(items, 'logging').command, { title: 'Suggest', command: 'editor.action.triggerSuggest' });
  });

  test('access_as is a oneof: its alternatives, and nothing once one is there', async () => {
    const empty = await complete('ci_access:\n  projects:\n    - id: a\n      access_as:\n        ‸');
    assert.deepEqual(labels(empty.items), ['agent', 'ci_job', 'impersonate']);
    assert.equal((item(empty.items, 'impersonate').textEdit as TextEdit).newText, 'impersonate:\n          username: ${1:username}');
    const chosen = await complete('ci_access:\n  projects:\n    - id: a\n      access_as:\n        ci_job: {}\n        ‸');
    assert.deepEqual(chosen.items, []);
  });
});

describe('values', () => {
  test('enum values with the default first and preselected', async () => {
    const { items } = await complete('observability:\n  logging:\n    grpc_level: ‸');
    assert.deepEqual(labels(items), ['error', 'info', 'debug', 'warn']);
    assert.equal(item(items, 'error').preselect, true);
    assert.equal(item(items, 'error').detail, 'default');
  });

  test('booleans: the default first; when: never', async () => {
    const flag = await complete('ci_access:\n  projects:\n    - id: a\n      protected_branches_only: ‸');
    assert.deepEqual(labels(flag.items), ['false', 'true']);
    const when = await complete('ci_access:\n  projects:\n    - id: a\n      rules:\n        - when: n‸');
    assert.deepEqual(labels(when.items), ['never']);
    assert.deepEqual((item(when.items, 'never').textEdit as TextEdit).range, { start: { line: 4, character: 16 }, end: { line: 4, character: 17 } });
  });
});

// docs/gitlab-behaviour.md#environment-filter
describe('environments', () => {
  test('the environments of the preset scenarios, and the review/* folder wildcard', async () => {
    const { items, text } = await complete('ci_access:\n  projects:\n    - id: a\n      environments:\n        - ‸\n');
    assert.deepEqual(labels(items), ['production', 'review/feature-login', 'review/*']);
    assert.equal(accept(text, items, 'review/*'), 'ci_access:\n  projects:\n    - id: a\n      environments:\n        - review/*\n');
  });
});

// docs/gitlab-behaviour.md#expression-lexer, docs/gitlab-behaviour.md#predefined-variables
describe('rules:if', () => {
  const rule = (expression: string) => `ci_access:\n  projects:\n    - id: a\n      rules:\n        - if: ${expression}\n`;

  test('after $: the scenario variables first, then the predefined ones; job-only variables are not offered', async () => {
    const { items, text } = await complete(rule('$CI_COMMIT_BRANCH == $‸'));
    const order = labels(items);
    assert.deepEqual(order.slice(0, 2), ['$DEPLOY_TARGET', '$NIGHTLY']);
    assert.ok(order.includes('$CI_DEFAULT_BRANCH'));
    assert.ok(order.includes('$CI_ENVIRONMENT_SLUG'), 'the rules design reads environment variables (docs/user-guide/editor.md, "Choices in completion")');
    // docs/gitlab-behaviour.md#variables-available-to-job-rules
    assert.ok(!order.includes('$CI_JOB_ID'), 'job-only variables are not set when rules are evaluated');
    assert.equal(item(items, '$DEPLOY_TARGET').detail, 'your scenarios: nightly, hotfix');
    assert.deepEqual((item(items, '$CI_DEFAULT_BRANCH').textEdit as TextEdit).range, { start: { line: 4, character: 35 }, end: { line: 4, character: 36 } });
    assert.equal(accept(text, items, '$CI_DEFAULT_BRANCH'), rule('$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH'));
  });

  test('after an operand: the six operators; a partial operator is replaced', async () => {
    const spaced = await complete(rule('$CI_COMMIT_BRANCH ‸'));
    assert.deepEqual(labels(spaced.items), ['==', '!=', '=~', '!~', '&&', '||']);
    assert.equal(item(spaced.items, '==').kind, CompletionItemKind.Operator);
    const partial = await complete(rule('$CI_COMMIT_TAG =‸'));
    assert.equal(accept(partial.text, partial.items, '=~'), rule('$CI_COMMIT_TAG =~ '));
  });

  test('inside a quoted expression the edit stays inside the quotes; known values after ==', async () => {
    const { items, text } = await complete(rule(`'$CI_PIPELINE_SOURCE == ‸'`));
    assert.equal(labels(items)[0], '"push"');
    assert.equal(accept(text, items, '"merge_request_event"'), rule(`'$CI_PIPELINE_SOURCE == "merge_request_event"'`));
    assert.deepEqual((item(items, '"push"').textEdit as TextEdit).range, { start: { line: 4, character: 38 }, end: { line: 4, character: 38 } });
  });

  test('a regular expression after =~, nothing inside a string literal', async () => {
    const regex = await complete(rule('$CI_COMMIT_REF_NAME =~ ‸'));
    assert.equal(labels(regex.items)[0], '/regex/');
    const inString = await complete(rule('$CI_COMMIT_BRANCH == "release-$‸"'));
    assert.deepEqual(inString.items, []);
  });
});

// docs/gitlab-behaviour.md#variable-expansion
describe('namespaces', () => {
  test('$ and ${ forms; slugs first', async () => {
    const dollar = await complete('ci_access:\n  projects:\n    - id: a\n      rules:\n        - namespace: app-$‸\n');
    assert.deepEqual(labels(dollar.items).slice(0, 4), ['$DEPLOY_TARGET', '$NIGHTLY', '$CI_ENVIRONMENT_SLUG', '$CI_PROJECT_PATH_SLUG']);
    const braces = await complete('ci_access:\n  projects:\n    - id: a\n      rules:\n        - namespace: app-${CI_ENV‸}\n');
    assert.equal(accept(braces.text, braces.items, '${CI_ENVIRONMENT_SLUG}'), 'ci_access:\n  projects:\n    - id: a\n      rules:\n        - namespace: app-${CI_ENVIRONMENT_SLUG}\n');
  });
});

describe('ids used elsewhere in the workspace', () => {
  test('project ids from the other agent on disk and from this file, minus those already in the list', async () => {
    const { items } = await complete('ci_access:\n  projects:\n    - id: acme/shop/api\n    - id: ‸\nuser_access:\n  projects:\n    - id: acme/docs\n');
    assert.deepEqual(labels(items), ['acme/docs', 'acme/shop/web']);
    assert.equal(item(items, 'acme/shop/web').detail, 'used in agent staging');
    const groups = await complete('ci_access:\n  groups:\n    - id: ‸\n');
    assert.deepEqual(labels(groups.items), ['acme/platform']);
  });

  test('an agent open in the editor counts as edited, once, whatever the spelling of its URI', async () => {
    // The same file as on disk under another spelling of its URI: VS Code percent-encodes characters
    // (`@`, `(`…) that Node's pathToFileURL leaves as they are.
    const staging = pathToFileURL(path.join(workspace, '.gitlab', 'agents', 'staging', 'config.yaml')).href.replace('/staging/', '/st%61ging/');
    await client.open(staging, 'ci_access:\n  projects:\n    - id: acme/shop/api\n    - id: acme/shop/new\n');
    try {
      const { items } = await complete('ci_access:\n  projects:\n    - id: ‸\n');
      assert.deepEqual(labels(items), ['acme/shop/api', 'acme/shop/new'], 'the open text, not the file on disk (acme/shop/web)');
      assert.equal(item(items, 'acme/shop/api').detail, 'used in agent staging');
    } finally {
      client.close(staging);
    }
  });
});

// docs/gitlab-behaviour.md#gitlab-managed-resources
describe('environment templates', () => {
  test('template variables after {{ . and fields after {{ .project.', async () => {
    const variables = await complete('objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .‸ }}"\n', 'environment_templates/default.yaml');
    assert.equal(variables.items.length, 18);
    assert.equal(accept(variables.text, variables.items, '.environment.slug'), 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug }}"\n');
    const fields = await complete('objects:\n  - metadata:\n      name: "{{ .project.s‸ }}"\n', 'environment_templates/default.yaml');
    assert.deepEqual(labels(fields.items), ['id', 'slug', 'path', 'url']);
    assert.deepEqual((item(fields.items, 'slug').textEdit as TextEdit).range, { start: { line: 2, character: 25 }, end: { line: 2, character: 26 } });
  });

  test('functions after a pipe: GitLab’s first, with their documentation', async () => {
    const { items } = await complete('objects:\n  - metadata:\n      name: "{{ .project.slug | ‸ }}"\n', 'environment_templates/default.yaml');
    assert.deepEqual(labels(items).slice(0, 6), ['lower', 'substr', 'replace', 'trimPrefix', 'trimSuffix', 'slugify']);
    assert.ok(labels(items).includes('printf'));
    assert.match(String((item(items, 'slugify').documentation as { value: string }).value), /slugify "hello WORLD"/);
  });

  test('top-level keys and their values outside actions', async () => {
    const keys = await complete('objects: []\n‸', 'environment_templates/default.yaml');
    assert.deepEqual(labels(keys.items), ['apply_resources', 'delete_resources']);
    const values = await complete('delete_resources: ‸', 'environment_templates/default.yaml');
    assert.deepEqual(labels(values.items), ['on_stop', 'never']);
    const kinds = await complete('objects:\n  - kind: Helm‸', 'environment_templates/default.yaml');
    assert.ok(labels(kinds.items).includes('HelmRelease'));
    assert.equal((item(kinds.items, 'HelmRelease').documentation as { value: string }).value, 'Flux: installs a Helm release.');
    // docs/gitlab-behaviour.md#environment-template-file
    assert.equal(item(values.items, 'on_stop').detail, 'default', 'GitLab deletes on stop unless told otherwise');
  });
});

describe('bad input', () => {
  test('inside a flow collection or a comment: an empty list, and the server keeps answering', async () => {
    assert.deepEqual((await complete('ci_access: {projects: [‸\n')).items, []);
    assert.deepEqual((await complete('# ci_‸\n')).items, []);
    assert.ok((await complete('ci_access:\n  ‸')).items.length > 0);
  });
});
