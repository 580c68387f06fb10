// The template hover, through the engine's front door
// (engine/api explainTemplateAt): an action's printed value and an object's rendering per
// active scenario, rendered as GitLab renders the template — Go text/template over the data Rails
// sends (docs/gitlab-behaviour.md#template-variables-and-functions,
// https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/ ), only for jobs with an
// environment (docs/gitlab-behaviour.md#opting-in-to-managed-resources), YAML before rendering
// (docs/gitlab-behaviour.md#environment-template-file).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_PROJECT_SETTINGS, explainTemplateAt, NO_SIBLINGS, siblingsFrom, type AgentSiblings, type ProjectSettings } from '../../../server/src/engine/api';
import { DEFAULT_ENVIRONMENT_TEMPLATE } from '../../../server/src/engine/template/defaultTemplate';

const managedConfig = (...ids: string[]) =>
  `ci_access:\n  projects:\n${ids.map((id) => `    - id: ${id}\n      access_as: {ci_job: {}}\n      resource_management: {enabled: true}\n`).join('')}`;
const withConfig = (config: string): AgentSiblings => siblingsFrom((inside) => (inside === 'config.yaml' ? config : null));

/** The hover's markdown with the pointer on the `occurrence`-th `needle` (plus `into` characters). */
function hoverAt(text: string, needle: string, options: { into?: number; siblings?: AgentSiblings; settings?: ProjectSettings; occurrence?: number } = {}) {
  let offset = -1;
  for (let i = 0; i <= (options.occurrence ?? 0); i++) offset = text.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not in the template`);
  return explainTemplateAt(text, offset + (options.into ?? 2), 'prod', options.settings ?? DEFAULT_PROJECT_SETTINGS, options.siblings ?? withConfig(managedConfig('acme/web')));
}

describe('template hover on an action: what it prints per scenario', () => {
  test('the built-in template: .environment.slug per preset scenario; the merge request scenario has no environment', () => {
    const hover = hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, '{{ .environment.slug }}')!;
    assert.equal(DEFAULT_ENVIRONMENT_TEMPLATE.slice(hover.start, hover.end), '{{ .environment.slug }}');
    assert.match(hover.markdown, /^\*\*`\{\{ \.environment\.slug \}\}`\*\* per scenario/);
    assert.match(hover.markdown, /\| default branch → production \| `production` \|/);
    // The slug of review/feature-login: cut to 17 characters plus a 6-character hash suffix (docs/gitlab-behaviour.md#ref-and-environment-slugs).
    assert.match(hover.markdown, /\| feature branch → review app \| `review-feature-lo-qiv329` \|/);
    assert.match(hover.markdown, /\| tag release \| `production` \|/);
    assert.doesNotMatch(hover.markdown, /\| merge request pipeline \|/);
    assert.match(hover.markdown, /Not rendered for merge request pipeline: GitLab renders the template only for jobs with an environment\./);
    assert.match(hover.markdown, /Project `acme\/web`; ids assumed: project 12345678, agent 1234567\./);
  });

  test('an unknown variable: the warning at the action, and the "<no value>" Go prints for it', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slgu }}"\n';
    const { markdown } = hoverAt(text, '{{ .environment.slgu }}')!;
    assert.match(markdown, /⚠ Unknown template variable "\.environment\.slgu": did you mean "\.environment\.slug"\?/);
    assert.match(markdown, /\| default branch → production \| `<no value>` \|/);
  });

  test('a render error at the action says so in every scenario it fails in', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .project.id.name }}"\n';
    const { markdown } = hoverAt(text, '{{ .project.id.name }}')!;
    assert.match(markdown, /⚠ "\.project\.id" is an int, which has no field "name": rendering would fail\./);
    // Go's message, for the map[string]any GitLab renders with (docs/gitlab-behaviour.md#template-variables-and-functions); `<` escaped for markdown.
    assert.match(markdown, /\| tag release \| ✗ template: default:5:24: executing "default" at &lt;\.project\.id\.name>: can't evaluate field name in type interface \{\} \|/);
  });

  test('an action in a branch a scenario skips: not printed there', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: \'{{ if eq .environment.tier "production" }}{{ .project.path }}{{ else }}x{{ end }}\'\n';
    const { markdown } = hoverAt(text, '{{ .project.path }}')!;
    assert.match(markdown, /\| default branch → production \| `acme\/web` \|/);
    assert.match(markdown, /\| feature branch → review app \| \*not printed\* \(a branch of the template skips it here\) \|/);
  });

  test('an action inside range: each value it printed', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .agent.name }}"\n      labels:\n        # {{ range $k, $v := .project }}\n        l-{{ $k }}: "x"\n        # {{ end }}\n';
    const { markdown } = hoverAt(text, '{{ $k }}')!;
    assert.match(markdown, /\| default branch → production \| `id`, `path`, `slug`, … \(4 values\) \(printed 4 times\) \|/);
  });

  test('a value that starts with {{ unquoted: GitLab reads the YAML first and fails, in every scenario', () => {
    const text = 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: {{ .environment.slug }}-{{ .project.id }}\n';
    const { markdown } = hoverAt(text, '{{ .environment.slug }}')!;
    assert.match(markdown, /\| default branch → production \| ✗ This value starts with `\{\{`, which YAML reads as a flow mapping\./);
  });

  test('several projects enable resource management: one row per scenario and project', () => {
    const { markdown } = hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, '{{ .project.id }}', { siblings: withConfig(managedConfig('acme/web', 'acme/api')) })!;
    assert.match(markdown, /\| default branch → production \(acme\/web\) \| `12345678` \|/);
    assert.match(markdown, /\| default branch → production \(acme\/api\) \| `12345678` \|/);
    assert.match(markdown, /Project per row;/);
  });

  test('without config.yaml: an example project, the same as the checks', () => {
    const { markdown } = hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, '{{ .environment.slug }}', { siblings: NO_SIBLINGS })!;
    assert.match(markdown, /Project `example-group\/example-project`/);
  });

  test('the user\'s scenarios count, the presets can be turned off', () => {
    const settings: ProjectSettings = { ...DEFAULT_PROJECT_SETTINGS, usePresetScenarios: false, scenarios: [{ name: 'staging deploy', ref: 'main', environmentName: 'staging' }] };
    const { markdown } = hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, '{{ .environment.slug }}', { settings })!;
    assert.match(markdown, /\| scenario \| prints \|\n\|---\|---\|\n\| staging deploy \| `staging` \|$/m);
  });
});

describe('template hover on an object: the object GitLab would create per scenario', () => {
  test('the built-in RoleBinding: name, namespace, subjects and role', () => {
    const hover = hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, 'kind: RoleBinding')!;
    assert.match(hover.markdown, /^\*\*RoleBinding\*\* as GitLab would create it, per scenario/);
    assert.match(hover.markdown, /\| scenario \| name \| namespace \| subjects → role \|/);
    assert.match(
      hover.markdown,
      /\| default branch → production \| `bind-1234567-12345678-production` \| `production-12345678-1234567` \| Group `gitlab:project_env:12345678:production` → ClusterRole `admin` \|/,
    );
    assert.ok(DEFAULT_ENVIRONMENT_TEMPLATE.slice(hover.start, hover.end).startsWith('apiVersion: rbac.authorization.k8s.io/v1'));
  });

  test('the Namespace on metadata.name: its name, no namespace column', () => {
    const { markdown } = hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, 'metadata:', { into: 1 })!;
    assert.match(markdown, /\| scenario \| name \|\n/);
    assert.match(markdown, /\| feature branch → review app \| `review-feature-lo-qiv329-12345678-1234567` \|/);
  });

  test('an object inside {{ if }}: not rendered in the scenarios that skip it', () => {
    const text =
      'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug }}"\n' +
      '  # {{ if eq .environment.tier "production" }}\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: deployer\n      namespace: "{{ .environment.slug }}"\n  # {{ end }}\n';
    const { markdown } = hoverAt(text, 'kind: ServiceAccount')!;
    assert.match(markdown, /\| default branch → production \| `deployer` \| `production` \|/);
    assert.match(markdown, /\| feature branch → review app \| \*not rendered\* \(a branch of the template skips it here\) \|/);
  });

  test('an object inside range: each object it renders, per scenario', () => {
    const text = 'objects:\n  # {{ range $k, $v := .project }}\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: "sa-{{ $k }}"\n      namespace: ci\n  # {{ end }}\n';
    const { markdown } = hoverAt(text, 'kind: ServiceAccount')!;
    // Go ranges over a map in key order.
    for (const key of ['id', 'path', 'slug', 'url']) assert.match(markdown, new RegExp(`\\| tag release \\| \`sa-${key}\` \\| \`ci\` \\|`));
  });

  test('nowhere to explain: keys outside objects, a template that does not parse', () => {
    assert.equal(hoverAt(DEFAULT_ENVIRONMENT_TEMPLATE, 'apply_resources'), null);
    assert.equal(hoverAt('objects:\n  - kind: "{{ if }}"\n', 'kind'), null);
  });
});
