// Environment templates over stdio (docs/gitlab-behaviour.md#gitlab-managed-resources): the diagnostics an editor receives for
// .gitlab/agents/<agent>/environment_templates/*.yaml and the quick fixes they carry.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const templateUri = (agent: string, name = 'default.yaml') => agentConfigUri(agent, `environment_templates/${name}`);

describe('LSP over stdio: environment template diagnostics and fixes', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('an unquoted {{ value: error on the value; the quick fix quotes it and the error goes away', async () => {
    const uri = templateUri('tpl-unquoted');
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: {{ .environment.slug }}-{{ .project.id }}\n';
    const { diagnostics } = await client.open(uri, text);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range]), [['template.unquotedAction', 1, rangeOf(text, '{{ .environment.slug }}-{{ .project.id }}')]]);
    const [fix] = await client.codeActions(uri, diagnostics[0]);
    assert.equal(fix.kind, 'quickfix');
    const edit = fix.edit!.changes![uri][0];
    assert.equal(edit.newText, '"{{ .environment.slug }}-{{ .project.id }}"');
    const fixed = await client.edit(uri, edit.range, edit.newText);
    assert.deepEqual(fixed.diagnostics.filter((d) => d.severity === 1), []);
  });

  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('an unknown variable: error on the segment, did-you-mean fix', async () => {
    const uri = templateUri('tpl-variable');
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slgu }}"\n';
    const { diagnostics } = await client.open(uri, text);
    const d = diagnostics.find((x) => x.code === 'template.unknownVariable');
    assert.ok(d, JSON.stringify(diagnostics));
    assert.deepEqual(d.range, rangeOf(text, 'slgu'));
    const [fix] = await client.codeActions(uri, d);
    assert.equal(fix.title, 'Change to "slug"');
    const fixed = await client.edit(uri, fix.edit!.changes![uri][0].range, 'slug');
    assert.equal(fixed.diagnostics.filter((x) => x.code === 'template.unknownVariable').length, 0);
  });

  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('an unknown function and a Go syntax error', async () => {
    const uri = templateUri('tpl-function');
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ slugfy .project.slug }}"\n';
    const { diagnostics } = await client.open(uri, text);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range]), [['template.unknownFunction', rangeOf(text, 'slugfy')]]);
    const broken = await client.change(uri, text.replace('"{{ slugfy .project.slug }}"', '"{{ if .project.slug }}x"'));
    assert.deepEqual(broken.diagnostics.map((d) => d.code), ['template.syntax']);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('a template other than default.yaml: GitLab ignores it (warning)', async () => {
    const { diagnostics } = await client.open(templateUri('tpl-name', 'review.yaml'), 'objects: []\n');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [['template.ignoredFile', 2]]);
  });

  // docs/gitlab-behaviour.md#template-object-kinds
  test('schema: unsupported kind on the value', async () => {
    const uri = templateUri('tpl-kind');
    const text = 'objects:\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n';
    const { diagnostics } = await client.open(uri, text);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range]), [['schema.enum', rangeOf(text, 'Deployment')]]);
  });
});
