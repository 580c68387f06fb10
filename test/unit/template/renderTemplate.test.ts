// docs/gitlab-behaviour.md#environment-template-file (template file, raw YAML first, `objects`/`apply_resources`/`delete_resources`), docs/gitlab-behaviour.md#built-in-default-template (the
// built-in default template) and docs/gitlab-behaviour.md#managed-resources-flow (render, then ensure): GitLab's render flow end to end.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_ENVIRONMENT_TEMPLATE } from '../../../server/src/engine/template/defaultTemplate';
import { renderEnvironmentTemplate, type RenderTemplateResult } from '../../../server/src/engine/template/renderTemplate';
import { buildTemplateData, type EnvironmentTemplateData } from '../../../server/src/engine/template/templateVariables';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';

function reviewData(): EnvironmentTemplateData {
  const result = buildTemplateData(
    { projectPath: 'group/My_App', projectId: 42, ref: 'feature-x', defaultBranch: 'main', environmentName: 'review/feature-x', userLogin: 'alice' },
    { agentId: 7, agentName: 'review-agent' },
  );
  if (!result.ok) assert.fail(result.message);
  return result.data;
}

function ok(result: RenderTemplateResult): Extract<RenderTemplateResult, { ok: true }> {
  if (!result.ok) assert.fail(result.errors.map((e) => e.message).join('\n'));
  return result;
}

function errors(result: RenderTemplateResult): EngineDiagnostic[] {
  if (result.ok) assert.fail(`expected errors, rendered:\n${result.text}`);
  return result.errors;
}

function names(objects: unknown[]): string[] {
  return objects.map((o) => {
    const obj = o as { kind: string; metadata: { name: string; namespace?: string } };
    return `${obj.kind} ${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata.name}`;
  });
}

// docs/gitlab-behaviour.md#built-in-default-template
describe('the built-in default template (inferred shape)', () => {
  test('renders a Namespace and a RoleBinding named from the environment slug, project id and agent id', () => {
    const result = ok(renderEnvironmentTemplate(DEFAULT_ENVIRONMENT_TEMPLATE, reviewData()));
    assert.deepEqual(names(result.objects), [
      'Namespace review-feature-x-bjrazc-42-7',
      'RoleBinding review-feature-x-bjrazc-42-7/bind-7-42-review-feature-x-bjrazc',
    ]);
    const binding = result.objects[1] as { subjects: Array<{ kind: string; name: string }>; roleRef: { kind: string; name: string } };
    assert.deepEqual(binding.subjects.map((s) => `${s.kind} ${s.name}`), ['Group gitlab:project_env:42:review-feature-x-bjrazc']);
    assert.deepEqual(binding.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' });
    assert.equal(result.applyResources, 'on_start');
    assert.equal(result.deleteResources, 'on_stop');
    assert.deepEqual(result.warnings, []);
  });
});

// docs/gitlab-behaviour.md#environment-template-file
describe('the raw template must be valid YAML before rendering', () => {
  test('an unquoted value starting with {{ is a YAML error, explained, with the quoted value to use', () => {
    const template = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: {{ .environment.slug }}-{{ .project.id }}\n';
    const [e, ...rest] = errors(renderEnvironmentTemplate(template, reviewData()));
    assert.equal(rest.length, 0);
    assert.equal(e.code, 'template.unquotedAction');
    assert.match(e.message, /starts with `\{\{`.*flow mapping.*Quote the whole value: "\{\{ \.environment\.slug \}\}-\{\{ \.project\.id \}\}"/);
    assert.deepEqual(e.range, { start: { line: 4, character: 12 }, end: { line: 4, character: 53 } });
    assert.equal(e.data?.replacement, '"{{ .environment.slug }}-{{ .project.id }}"');
  });
  test('the quoted value renders', () => {
    const template = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug }}-{{ .project.id }}"\n';
    assert.deepEqual(names(ok(renderEnvironmentTemplate(template, reviewData())).objects), ['Namespace review-feature-x-bjrazc-42']);
  });
  test('a control action on its own line is a YAML error; the hint offers a YAML comment', () => {
    const template = 'objects:\n{{- if true }}\n  - kind: Namespace\n{{- end }}\n';
    const found = errors(renderEnvironmentTemplate(template, reviewData()));
    assert.deepEqual(found.map((e) => [e.code, e.range.start.line]), [
      ['template.unquotedAction', 1],
      ['template.unquotedAction', 3],
    ]);
    assert.match(found[0].message, /YAML comment/);
  });
  test('other YAML errors keep the YAML message', () => {
    const [e] = errors(renderEnvironmentTemplate('objects: [\n', reviewData()));
    assert.equal(e.code, 'template.yaml');
    assert.match(e.message, /^The template is not valid YAML: /);
  });
});

// docs/gitlab-behaviour.md#environment-template-file
describe('the whole text is rendered as one Go template', () => {
  test('actions in YAML comments still run, so they can wrap list items', () => {
    const template = [
      'objects:',
      '  # {{ with .environment }}',
      '  - kind: Namespace',
      '    metadata:',
      '      name: "{{ .slug }}"',
      '  # {{ end }}',
      '  # {{ if eq .environment.tier "production" }}',
      '  - kind: ServiceAccount',
      '    metadata:',
      '      name: prod-only',
      '  # {{ end }}',
      '',
    ].join('\n');
    const result = ok(renderEnvironmentTemplate(template, reviewData()));
    assert.deepEqual(names(result.objects), ['Namespace review-feature-x-bjrazc']);
  });
  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('a template error becomes one diagnostic with Go\'s message at the template range', () => {
    const template = 'objects:\n  - kind: Namespace\n    metadata:\n      name: "{{ lower .environment.nme }}"\n';
    const [e] = errors(renderEnvironmentTemplate(template, reviewData()));
    assert.equal(e.code, 'template.execution');
    assert.equal(e.message, 'template: default:4:34: executing "default" at <.environment.nme>: invalid value; expected string');
    assert.deepEqual(e.range, { start: { line: 3, character: 22 }, end: { line: 3, character: 38 } });
    assert.deepEqual(e.data, { cause: 'invalid value; expected string', context: '.environment.nme' });
  });
  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('an unknown function is reported before anything renders', () => {
    const [e] = errors(renderEnvironmentTemplate('objects: []\nx: "{{ upper .project.slug }}"\n', reviewData()));
    assert.equal(e.code, 'template.syntax');
    assert.equal(e.message, 'template: default:2: function "upper" not defined');
    assert.deepEqual(e.range, { start: { line: 1, character: 7 }, end: { line: 1, character: 12 } });
  });
});

// docs/gitlab-behaviour.md#environment-template-file
describe('the rendered YAML', () => {
  test('rendered text that is not YAML is reported at the action that produced it', () => {
    const data = { ...reviewData(), user: { id: 1, username: 'say "hi"' } };
    const template = 'objects:\n  - kind: Namespace\n    metadata:\n      name: "{{ .user.username }}"\n';
    const [e] = errors(renderEnvironmentTemplate(template, data));
    assert.equal(e.code, 'template.renderedYaml');
    assert.match(e.message, /^After rendering, the template is not valid YAML: .*\(rendered line: name: "say "hi""\)$/);
    assert.equal(e.range.start.line, 3);
  });
  test('objects must be a list', () => {
    const [e] = errors(renderEnvironmentTemplate('objects: "{{ .project.id }}"\n', reviewData()));
    assert.equal(e.code, 'template.objects');
    assert.deepEqual(e.range, { start: { line: 0, character: 9 }, end: { line: 0, character: 28 } });
  });
  test('no objects key → no objects', () => {
    const result = ok(renderEnvironmentTemplate('apply_resources: on_start\n', reviewData()));
    assert.deepEqual(result.objects, []);
    assert.equal(result.deleteResources, undefined);
  });
  test('delete_resources is what Rails reads from the raw template, with a warning when it is templated', () => {
    const template = 'objects: []\ndelete_resources: "{{ if true }}never{{ end }}"\n';
    const result = ok(renderEnvironmentTemplate(template, reviewData()));
    assert.equal(result.deleteResources, '{{ if true }}never{{ end }}');
    assert.deepEqual(result.warnings.map((w) => [w.code, w.range.start.line]), [['template.deleteResourcesTemplated', 1]]);
  });
  test('delete_resources: never is kept', () => {
    assert.equal(ok(renderEnvironmentTemplate('objects: []\ndelete_resources: never\n', reviewData())).deleteResources, 'never');
  });
});
