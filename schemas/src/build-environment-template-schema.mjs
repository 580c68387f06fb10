// Generates schemas/environment-template.schema.json: the shape of
// .gitlab/agents/<agent>/environment_templates/default.yaml (docs/gitlab-behaviour.md#gitlab-managed-resources).
// The schema describes the RAW template, which GitLab parses as YAML before rendering it (docs/gitlab-behaviour.md#environment-template-file):
// values may hold `{{ … }}` actions, so names are only checked after rendering (by the server).
// Run: node schemas/src/build-environment-template-schema.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { doc, str } from './schema-helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The supported kinds (docs/gitlab-behaviour.md#template-object-kinds) with the API group each belongs to. The accepted
 * versions are not documented; the group is fixed by the kind, so only the group is checked.
 */
const KINDS = [
  { kind: 'Namespace', group: '', d: 'A namespace for the environment.' },
  { kind: 'ServiceAccount', group: '', d: 'A service account.' },
  { kind: 'RoleBinding', group: 'rbac.authorization.k8s.io', d: 'Grants a role (often a ClusterRole such as `admin`) in a namespace, for example to the CI job\'s group `gitlab:project_env:<project id>:<env slug>`.' },
  { kind: 'GitRepository', group: 'source.toolkit.fluxcd.io', d: 'Flux source: a Git repository.' },
  { kind: 'HelmRepository', group: 'source.toolkit.fluxcd.io', d: 'Flux source: a Helm repository.' },
  { kind: 'HelmChart', group: 'source.toolkit.fluxcd.io', d: 'Flux source: a Helm chart.' },
  { kind: 'Bucket', group: 'source.toolkit.fluxcd.io', d: 'Flux source: an S3-compatible bucket.' },
  { kind: 'OCIRepository', group: 'source.toolkit.fluxcd.io', d: 'Flux source: an OCI artifact repository.' },
  { kind: 'Kustomization', group: 'kustomize.toolkit.fluxcd.io', d: 'Flux: applies a kustomization from a source.' },
  { kind: 'HelmRelease', group: 'helm.toolkit.fluxcd.io', d: 'Flux: installs a Helm release.' },
  { kind: 'Alert', group: 'notification.toolkit.fluxcd.io', d: 'Flux notification alert.' },
  { kind: 'Provider', group: 'notification.toolkit.fluxcd.io', d: 'Flux notification provider.' },
  { kind: 'Receiver', group: 'notification.toolkit.fluxcd.io', d: 'Flux webhook receiver.' },
];

const escape = (s) => s.replace(/\./g, '\\.');
/** `v1` for the core group, `<group>/<version>` otherwise. */
const apiVersionPattern = (group) => (group ? `^${escape(group)}/v[0-9]+((alpha|beta)[0-9]+)?$` : '^v1$');

const kubernetesObject = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata'],
  ...doc('A Kubernetes object GitLab renders and applies (server-side apply), labelled and annotated as managed by the agent. Values may use template actions such as `"{{ .environment.slug }}"` (quoted: see the template file rules).'),
  properties: {
    apiVersion: str('API version of the object, for example `v1` or `rbac.authorization.k8s.io/v1`.', {}, { minLength: 1 }),
    kind: {
      type: 'string',
      enum: KINDS.map((k) => k.kind),
      enumDescriptions: KINDS.map((k) => k.d),
      markdownEnumDescriptions: KINDS.map((k) => k.d),
      ...doc(`Kind of the object. GitLab supports only these kinds: ${KINDS.map((k) => `\`${k.kind}\``).join(', ')}.`),
    },
    metadata: {
      type: 'object',
      required: ['name'],
      ...doc('Object metadata. GitLab adds its own labels and an annotation to every object.'),
      properties: {
        name: str('Name of the object. Rendered, it must be a valid Kubernetes name (a DNS-1123 label for a Namespace).', {}, { minLength: 1 }),
        namespace: str('Namespace of the object (namespaced kinds). Rendered, it must be a DNS-1123 label.', {}, { minLength: 1 }),
        labels: { type: 'object', additionalProperties: { type: 'string', ...doc('Label value.') }, ...doc('Labels; GitLab adds `agent.gitlab.com/…` labels of its own.') },
        annotations: { type: 'object', additionalProperties: { type: 'string', ...doc('Annotation value.') }, ...doc('Annotations; GitLab adds an `agent.gitlab.com/env-…` annotation of its own.') },
      },
    },
  },
  // The API group follows from the kind: a `Namespace` in `apps/v1` cannot exist.
  allOf: KINDS.map(({ kind, group }) => ({
    if: { required: ['kind'], properties: { kind: { const: kind } } },
    then: {
      properties: {
        apiVersion: {
          type: 'string',
          pattern: apiVersionPattern(group),
          errorMessage: group ? `A ${kind} belongs to the API group ${group}: apiVersion must be ${group}/<version>.` : `A ${kind} is a core object: apiVersion must be v1.`,
        },
      },
    },
  })),
};

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://gitlab-agent-config.local/schemas/environment-template.schema.json',
  title: 'GitLab environment template (.gitlab/agents/<agent>/environment_templates/default.yaml)',
  ...doc(
    'Kubernetes objects GitLab creates for each environment a CI/CD job deploys to, rendered with Go templates (`{{ .environment.slug }}`). Only `default.yaml` is used. GitLab parses the raw file as YAML before rendering it, so a value that starts with `{{` must be quoted.',
    { since: '17.9' },
  ),
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    objects: { type: 'array', items: kubernetesObject, ...doc('The objects to create, in any order (GitLab applies Namespaces first).') },
    apply_resources: {
      type: 'string',
      enum: ['on_start'],
      enumDescriptions: ['Apply when the environment starts or restarts.'],
      ...doc('When GitLab applies the objects. Only `on_start` is documented.'),
    },
    delete_resources: {
      type: 'string',
      enum: ['on_stop', 'never'],
      enumDescriptions: ['Delete the objects when the environment is stopped.', 'Never delete them.'],
      ...doc('When GitLab deletes the objects it created. Read from the raw template before rendering, so it cannot be templated.', { since: '18.0', def: 'on_stop' }),
    },
  },
};

writeFileSync(path.join(here, '..', 'environment-template.schema.json'), JSON.stringify(schema, null, 2) + '\n');
console.log('wrote schemas/environment-template.schema.json');
