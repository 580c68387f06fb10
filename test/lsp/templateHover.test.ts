// The template hover over stdio: in environment_templates/default.yaml
// a `{{ … }}` shows what it prints per active scenario and an object what GitLab would create, for
// the projects of the open config.yaml whose entries enable resource management — the same
// renderings the pair's checks make (docs/gitlab-behaviour.md#managed-resources-flow,
// docs/gitlab-behaviour.md#template-variables-and-functions,
// https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/ ).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Hover } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/shop
      access_as:
        ci_job: {}
      resource_management:
        enabled: true
`;
const TEMPLATE = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: "{{ .project.slug }}-{{ .environment.slug }}"
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: RoleBinding
    metadata:
      name: deployers
      namespace: "{{ .project.slug }}-{{ .environment.slug }}"
    subjects:
      - kind: Group
        apiGroup: rbac.authorization.k8s.io
        name: "gitlab:project_env:{{ .project.id }}:{{ .environment.slug }}"
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: '{{ if eq .environment.tier "production" }}view{{ else }}admin{{ end }}'
  - apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: "{{ .environment.nmae }}"
      namespace: "{{ .project.slug }}-{{ .environment.slug }}"
apply_resources: on_start
delete_resources: on_stop
`;

let client: LspTestClient;
const configUri = agentConfigUri('hover-agent');
const templateUri = agentConfigUri('hover-agent', 'environment_templates/default.yaml');
const hoverText = async (needle: string, occurrence = 0, into = 2) => {
  const { start } = rangeOf(TEMPLATE, needle, occurrence);
  const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: templateUri }, position: { line: start.line, character: start.character + into } });
  return hover;
};

before(async () => {
  client = await LspTestClient.start({ settings: { configProjectPath: 'acme/infra' } });
  await client.open(configUri, CONFIG);
  await client.open(templateUri, TEMPLATE);
});
after(async () => {
  await client.stop();
});

test('on an action: its value per scenario, for the project of the open config.yaml', async () => {
  const hover = await hoverText('{{ .environment.slug }}');
  assert.ok(hover);
  assert.deepEqual(hover.range, rangeOf(TEMPLATE, '{{ .environment.slug }}'));
  const text = (hover.contents as { value: string }).value;
  assert.match(text, /\| default branch → production \| `production` \|/);
  assert.match(text, /\| feature branch → review app \| `review-feature-lo-qiv329` \|/);
  assert.match(text, /Project `acme\/shop`; ids assumed: project 12345678, agent 1234567\./);
  assert.match(text, /Not rendered for merge request pipeline/);
});

test('on an unknown variable: the warning and the <no value> GitLab renders', async () => {
  const text = ((await hoverText('{{ .environment.nmae }}'))!.contents as { value: string }).value;
  assert.match(text, /⚠ Unknown template variable "\.environment\.nmae": did you mean "\.environment\.name"\?/);
  assert.match(text, /\| tag release \| `<no value>` \|/);
});

test('on a RoleBinding: name, namespace, subjects and the role each scenario renders', async () => {
  const hover = await hoverText('kind: RoleBinding', 0, 1);
  const text = (hover!.contents as { value: string }).value;
  assert.match(text, /^\*\*RoleBinding\*\* as GitLab would create it, per scenario/);
  assert.match(text, /\| default branch → production \| `deployers` \| `shop-production` \| Group `gitlab:project_env:12345678:production` → ClusterRole `view` \|/);
  assert.match(text, /\| feature branch → review app \| `deployers` \| `shop-review-feature-lo-qiv329` \| Group `gitlab:project_env:12345678:review-feature-lo-qiv329` → ClusterRole `admin` \|/);
});

test('the config decides the project: after an edit of config.yaml the hover follows', async () => {
  await client.change(configUri, CONFIG.replace('acme/shop', 'acme/My_Store'));
  const text = ((await hoverText('{{ .project.slug }}'))!.contents as { value: string }).value;
  // .project.slug is the project's path unchanged (docs/gitlab-behaviour.md#template-variables-and-functions).
  assert.match(text, /\| default branch → production \| `My_Store` \|/);
  await client.change(configUri, CONFIG);
});

test('outside actions and objects: no hover', async () => {
  assert.equal(await hoverText('apply_resources'), null);
});
