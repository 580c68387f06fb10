/**
 * The built-in environment template GitLab uses when the agent has no
 * `environment_templates/default.yaml` (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#built-in-default-template).
 *
 * INFERRED, not copied: the real file (`internal/module/managed_resources/server/default_template.yaml` in
 * the agent repository) was not read (docs/gitlab-behaviour.md#built-in-default-template). This shape follows what the documentation
 * says it does — a Namespace and a RoleBinding for the CI/CD job, assuming `ci_job` impersonation, with
 * `delete_resources: on_stop` — and mirrors the documentation's example: namespace
 * `<env slug>-<project id>-<agent id>`, RoleBinding `bind-<agent id>-<project id>-<env slug>` granting the
 * ClusterRole `admin` to the group `gitlab:project_env:<project id>:<env slug>` that `ci_job`
 * impersonation puts the job in. Check it against a real GitLab before relying on exact names.
 *
 * Values that start with `{{` are quoted: GitLab parses the raw template as YAML before rendering it.
 */
export const DEFAULT_ENVIRONMENT_TEMPLATE = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: RoleBinding
    metadata:
      name: "bind-{{ .agent.id }}-{{ .project.id }}-{{ .environment.slug }}"
      namespace: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"
    subjects:
      - kind: Group
        apiGroup: rbac.authorization.k8s.io
        name: "gitlab:project_env:{{ .project.id }}:{{ .environment.slug }}"
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: admin
apply_resources: on_start
delete_resources: on_stop
`;

