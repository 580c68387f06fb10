// Diagnostics of one environment template file (docs/gitlab-behaviour.md#gitlab-managed-resources): raw YAML, schema, unquoted `{{`,
// Go template syntax, unknown functions and variables at their exact place, ignored file names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';
import { DEFAULT_ENVIRONMENT_TEMPLATE } from '../../../server/src/engine/template/defaultTemplate';
import { validateEnvironmentTemplate } from '../../../server/src/engine/template/diagnostics/validateEnvironmentTemplate';
import { rangeOf } from '../../support/ranges';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

function only(diagnostics: EngineDiagnostic[], code: string): EngineDiagnostic {
  const found = diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(diagnostics, null, 1)}`);
  return found[0];
}

const namespace = (name: string) => `objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: ${name}\n`;

// docs/gitlab-behaviour.md#gitlab-managed-resources
describe('environment template diagnostics', () => {
  test('the built-in default template and the example template are clean', () => {
    assert.deepEqual(validateEnvironmentTemplate(DEFAULT_ENVIRONMENT_TEMPLATE), []);
    const example = readFileSync(path.join(root, 'examples/.gitlab/agents/production-agent/environment_templates/default.yaml'), 'utf8');
    assert.deepEqual(validateEnvironmentTemplate(example), []);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('an unquoted value starting with {{ is an error on the whole value, with the quoted fix; the YAML error it causes is not repeated', () => {
    const text = namespace('{{ .environment.slug }}-{{ .project.id }}  # one per environment');
    const diagnostics = validateEnvironmentTemplate(text);
    const d = only(diagnostics, 'template.unquotedAction');
    assert.deepEqual(d.range, rangeOf(text, '{{ .environment.slug }}-{{ .project.id }}'));
    assert.equal(d.data?.replacement, '"{{ .environment.slug }}-{{ .project.id }}"');
    assert.deepEqual(diagnostics.map((x) => x.code), ['template.unquotedAction']);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('an unquoted {{ that YAML happens to accept is still reported (GitLab loads the raw YAML)', () => {
    const text = namespace('{{ .environment.slug }}');
    const d = only(validateEnvironmentTemplate(text), 'template.unquotedAction');
    assert.deepEqual(d.range, rangeOf(text, '{{ .environment.slug }}'));
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('an unquoted control action gets advice (a YAML comment), not a quote', () => {
    const text = 'objects:\n  {{ if .environment.url }}\n  - apiVersion: v1\n';
    const d = only(validateEnvironmentTemplate(text), 'template.unquotedAction');
    assert.match(d.message, /YAML comment/);
    assert.equal(d.data, undefined);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('inside a flow list the value is flagged up to its end, without a fix that would swallow the bracket', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: x\n      finalizers: [{{ .environment.slug }}]\n';
    const d = only(validateEnvironmentTemplate(text), 'template.unquotedAction');
    assert.deepEqual(d.range, rangeOf(text, '{{ .environment.slug }}'));
    assert.equal(d.data, undefined);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('an unquoted {{ key: the fix quotes the key alone, so the entry stays a mapping entry', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: x\n      labels:\n        {{ .project.slug }}-team: "true"  # owner\n';
    const d = only(validateEnvironmentTemplate(text), 'template.unquotedAction');
    assert.deepEqual(d.range, rangeOf(text, '{{ .project.slug }}-team'));
    assert.equal(d.data?.replacement, '"{{ .project.slug }}-team"');
    assert.match(d.message, /This key starts with `\{\{`/);
    assert.match(d.message, /Quote the whole key: "\{\{ \.project\.slug \}\}-team"\./);
  });

  test('quoted values and comments with {{ are not flagged', () => {
    const text = `${namespace("'{{ .environment.slug }}'")}# {{ .environment.name }} in a comment\napply_resources: on_start\n`;
    assert.deepEqual(validateEnvironmentTemplate(text).map((d) => d.code), []);
  });

  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('unknown variables: exact segment, did-you-mean, the available names', () => {
    const text = namespace('"{{ .environment.slg }}-{{ .projet.id }}"');
    const diagnostics = validateEnvironmentTemplate(text).filter((d) => d.code === 'template.unknownVariable');
    assert.deepEqual(diagnostics.map((d) => d.range), [rangeOf(text, 'slg'), rangeOf(text, 'projet')]);
    assert.match(diagnostics[0].message, /"\.environment\.slg": did you mean "\.environment\.slug"\?/);
    assert.match(diagnostics[0].message, /Available in "\.environment": id, name, slug, url, page_url, tier/);
    assert.equal(diagnostics[1].data?.replacement, 'project');
  });

  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('fields of a value and variables through with / $', () => {
    const text = namespace('"{{ .project.id.zzz }}{{ with .environment }}{{ .slug }}{{ .nmae }}{{ $.agent.idd }}{{ end }}"');
    assert.deepEqual(
      validateEnvironmentTemplate(text).map((d) => [d.code, d.range]),
      [
        ['template.fieldOfValue', rangeOf(text, 'zzz')],
        ['template.unknownVariable', rangeOf(text, 'nmae')],
        ['template.unknownVariable', rangeOf(text, 'idd')],
      ],
    );
  });

  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('unknown functions: every one, at the name, with did-you-mean', () => {
    const text = namespace('"{{ lowr .project.slug }}-{{ slugfy .environment.name }}-{{ printf "%d" .project.id }}"');
    const diagnostics = validateEnvironmentTemplate(text).filter((d) => d.code === 'template.unknownFunction');
    assert.deepEqual(diagnostics.map((d) => [d.range, d.data?.replacement]), [
      [rangeOf(text, 'lowr'), 'lower'],
      [rangeOf(text, 'slugfy'), 'slugify'],
    ]);
  });

  test('Go template syntax errors point into the action', () => {
    const text = namespace('"{{ if .environment.slug }}x"');
    const d = only(validateEnvironmentTemplate(text), 'template.syntax');
    assert.match(d.message, /unexpected EOF/);
  });

  // docs/gitlab-behaviour.md#template-object-kinds
  test('only the supported kinds; the API group follows from the kind', () => {
    const text = 'objects:\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n  - apiVersion: v1\n    kind: RoleBinding\n    metadata:\n      name: bind\n';
    const diagnostics = validateEnvironmentTemplate(text);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range]), [
      ['schema.enum', rangeOf(text, 'Deployment')],
      ['schema.crossField', rangeOf(text, 'v1', 1)],
    ]);
    assert.match(diagnostics[1].message, /rbac\.authorization\.k8s\.io/);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('apply_resources and delete_resources values; metadata.name required', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata: {}\napply_resources: always\ndelete_resources: on_delete\n';
    assert.deepEqual(validateEnvironmentTemplate(text).map((d) => [d.code, d.range.start.line]), [
      ['schema.missingKey', 3],
      ['schema.enum', 4],
      ['schema.enum', 5],
    ]);
  });

  // docs/gitlab-behaviour.md#environment-template-file
  test('a template other than default.yaml warns that GitLab ignores it', () => {
    const d = only(validateEnvironmentTemplate(DEFAULT_ENVIRONMENT_TEMPLATE, { templateName: 'review' }), 'template.ignoredFile');
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /only environment_templates\/default\.yaml/);
    assert.deepEqual(validateEnvironmentTemplate(DEFAULT_ENVIRONMENT_TEMPLATE, { templateName: 'default' }), []);
  });

  test('bad input never throws', () => {
    for (const text of ['', '---', '{{', '}}', 'objects: [', '\u0000', '{{ define "x" }}{{ end }}', 'a: {{{{ }}}}', '{{ template "missing" }}']) {
      assert.ok(Array.isArray(validateEnvironmentTemplate(text)), text);
    }
  });
});
