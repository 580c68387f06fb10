// config.yaml and default.yaml together (engine/crossFile): the template rendered per scenario and
// per authorization with resource management (docs/gitlab-behaviour.md#opting-in-to-managed-resources, docs/gitlab-behaviour.md#template-variables-and-functions, docs/gitlab-behaviour.md#names), and the ci_job assumption (docs/gitlab-behaviour.md#built-in-default-template).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { configCrossFileDiagnostics, templateCrossFileDiagnostics, type AgentFiles } from '../../../server/src/engine/crossFile/agentFiles';
import { DEFAULT_ENVIRONMENT_TEMPLATE } from '../../../server/src/engine/template/defaultTemplate';
import { rangeOf } from '../../support/ranges';

const managed = (id: string, accessAs = 'ci_job') => `ci_access:\n  projects:\n    - id: ${id}\n      access_as:\n        ${accessAs}: {}\n      resource_management:\n        enabled: true\n`;
const files = (config: string | null, templateText: string | null): AgentFiles => ({
  config: config === null ? null : parseYaml(config),
  templateText,
  agentName: 'prod',
  scenarios: presetScenarios('main'),
  defaultBranch: 'main',
});
const namespaceObject = (ns: string) => `objects:\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: deployer\n      namespace: ${ns}\n`;

describe('templates rendered for the authorizations that use them', () => {
  test('the built-in default template is valid for every preset scenario', () => {
    assert.deepEqual(templateCrossFileDiagnostics(files(managed('acme/My_App'), DEFAULT_ENVIRONMENT_TEMPLATE)), []);
  });

  // docs/gitlab-behaviour.md#names
  test('metadata.namespace rendered from .environment.name is invalid for review/* only, at the template value', () => {
    const template = namespaceObject('"{{ .environment.name }}"');
    const [d, ...rest] = templateCrossFileDiagnostics(files(managed('acme/app'), template));
    assert.deepEqual(rest, []);
    assert.equal(d.code, 'crossFile.invalidNamespace');
    assert.deepEqual(d.range, rangeOf(template, '"{{ .environment.name }}"'));
    assert.match(d.message, /renders as "review\/feature-login"/);
    assert.deepEqual(d.data?.scenarios, ['"feature branch → review app" (project acme/app)']);
  });

  // docs/gitlab-behaviour.md#template-variables-and-functions
  test('.legacy_namespace and slugify give valid names where .project.slug does not', () => {
    assert.equal(templateCrossFileDiagnostics(files(managed('acme/My_App'), namespaceObject('"{{ .project.slug }}"'))).length, 1);
    assert.deepEqual(templateCrossFileDiagnostics(files(managed('acme/My_App'), namespaceObject('"{{ .legacy_namespace }}"'))), []);
    assert.deepEqual(templateCrossFileDiagnostics(files(managed('acme/My_App'), namespaceObject('"{{ slugify .project.slug }}"'))), []);
  });

  test('a 63-character limit that only long ids would break is caught with the long placeholder ids', () => {
    // 50 + "-" + 8 digits + "-" + 7 digits = 67 characters; with ids of a small instance it would fit.
    const template = namespaceObject(`"${'a'.repeat(50)}-{{ .project.id }}-{{ .agent.id }}"`);
    const [d] = templateCrossFileDiagnostics(files(managed('acme/app'), template));
    assert.match(d.message, /no more than 63 characters \(is 67\)/);
    assert.match(d.message, /ids assumed: project 12345678, agent 1234567/);
  });

  test('execution errors depend on the data: reported at the action, per scenario', () => {
    const template = namespaceObject('"{{ substr 0 3 .project.id }}"');
    const [d] = templateCrossFileDiagnostics(files(managed('acme/app'), template));
    assert.equal(d.code, 'crossFile.renderFailed');
    assert.equal(d.severity, 'error');
    assert.match(d.message, /wrong type for value; expected string; got int/);
  });

  test('output that is not YAML after rendering is reported where the template produced it', () => {
    const template = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: x{{ printf "%c%s" 10 "[" }}\n';
    const diagnostics = templateCrossFileDiagnostics(files(managed('acme/app'), template));
    assert.ok(diagnostics.length > 0);
    assert.ok(diagnostics.every((d) => d.code === 'crossFile.renderFailed'));
    assert.match(diagnostics[0].message, /After rendering, the template is not valid YAML/);
    assert.equal(diagnostics[0].range.start.line, 4);
  });

  // docs/gitlab-behaviour.md#opting-in-to-managed-resources
  test('without any authorization using it, the template is reported unused (and still rendered for an example project)', () => {
    const diagnostics = templateCrossFileDiagnostics(files('ci_access:\n  projects:\n    - id: acme/app\n', namespaceObject('"{{ .environment.name }}"')));
    assert.deepEqual(diagnostics.map((d) => d.code), ['crossFile.templateUnused', 'crossFile.invalidNamespace']);
    assert.match(diagnostics[1].message, /example-group\/example-project/);
  });
});

// docs/gitlab-behaviour.md#managed-resources-availability, docs/gitlab-behaviour.md#built-in-default-template
describe('resource management assumes ci_job impersonation', () => {
  test('warned for agent and impersonate, not for ci_job', () => {
    const agent = managed('acme/app', 'agent');
    const [d] = configCrossFileDiagnostics(files(agent, null));
    assert.equal(d.code, 'crossFile.resourceManagementNeedsCiJob');
    assert.deepEqual(d.range, rangeOf(agent, 'true'));
    assert.equal(configCrossFileDiagnostics(files(managed('acme/app', 'impersonate'), null)).length, 1);
    assert.deepEqual(configCrossFileDiagnostics(files(managed('acme/app'), null)), []);
  });

  test('the fix sets access_as to ci_job in every shape of entry, leaving valid YAML and no warning', () => {
    const apply = (text: string, edit: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }) => {
      const index = parseYaml(text).index;
      return text.slice(0, index.offsetAt(edit.range.start)) + edit.newText + text.slice(index.offsetAt(edit.range.end));
    };
    const shapes = [
      'ci_access:\n  projects:\n    - id: acme/app\n      resource_management:\n        enabled: true\n',
      'ci_access:\n  projects:\n    - resource_management:\n        enabled: true\n      id: acme/app\n',
      'ci_access:\n  projects:\n    - {id: acme/app, resource_management: {enabled: true}}\n',
      'ci_access:\n  groups:\n    - id: acme\n      access_as:\n        impersonate:\n          username: deployer\n      resource_management: {enabled: true}\n',
      'ci_access:\n  instance:\n    access_as: {agent: {}}\n    resource_management: {enabled: true}\n',
    ];
    for (const text of shapes) {
      const [d] = configCrossFileDiagnostics(files(text, null));
      assert.ok(d, text);
      const fixed = apply(text, d.data?.edit as Parameters<typeof apply>[1]);
      const parsed = parseYaml(fixed);
      assert.deepEqual(parsed.diagnostics, [], fixed);
      assert.deepEqual(configCrossFileDiagnostics(files(fixed, null)), [], fixed);
    }
  });

  test('a custom template that binds no gitlab: group does not assume ci_job', () => {
    assert.deepEqual(configCrossFileDiagnostics(files(managed('acme/app', 'agent'), namespaceObject('apps'))), []);
    assert.equal(configCrossFileDiagnostics(files(managed('acme/app', 'agent'), DEFAULT_ENVIRONMENT_TEMPLATE)).length, 1);
  });
});

describe('one diagnostic per template place', () => {
  // docs/gitlab-behaviour.md#names
  test('scenarios that render a place differently each get their own value and reason in its message', () => {
    const template = namespaceObject('"{{ .project.slug }}-{{ .environment.name }}"');
    const diagnostics = templateCrossFileDiagnostics(files(managed('acme/My_App'), template));
    assert.equal(diagnostics.length, 1);
    const [d] = diagnostics;
    assert.match(d.message, /renders as "My_App-production".*— in scenario "default branch → production" \(project acme\/My_App\), "tag release" \(project acme\/My_App\)\./);
    assert.match(d.message, /renders as "My_App-review\/feature-login".*— in scenario "feature branch → review app" \(project acme\/My_App\)\./);
    assert.deepEqual(d.data?.scenarios, ['"default branch → production" (project acme/My_App)', '"feature branch → review app" (project acme/My_App)', '"tag release" (project acme/My_App)']);
  });
});
