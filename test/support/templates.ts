/**
 * An environment template that binds GitLab's project_env group in a per-project, per-environment
 * namespace ("{{ .project.slug }}-{{ .environment.slug }}"): the shape of GitLab's documented
 * examples, used where a test needs a valid template beside a managed config.
 */
export const BINDING_TEMPLATE = `objects:
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
      name: admin
`;
