/**
 * Generates a workspace's `config_to_apply` the way Rails' desired-config generator does (docs/gitlab-behaviour.md#workspace-names-and-namespaces,
 * docs/gitlab-behaviour.md#workspace-labels-and-annotations): the two inventory ConfigMaps first, then the workspace objects owned by
 * `<name>-workspace-inventory` and the Secrets owned by `<name>-secrets-inventory`. The Deployment's
 * image never has to run: the test control plane has no scheduler or kubelet.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import {
  AGENT_ID_LABEL,
  HOST_TEMPLATE_ANNOTATION,
  INVENTORY_ID_LABEL,
  MAX_RESOURCES_SHA_ANNOTATION,
  OWNING_INVENTORY_ANNOTATION,
  WORKSPACE_ID_KEY,
  workspaceInventoryNames,
  workspaceNamespace,
} from '../../server/src/cluster/workspace/names';

export interface WorkspaceConfigOptions {
  name: string;
  agentId: number;
  workspaceId: number;
  /** `remote_development.shared_namespace`; empty/absent = unique-namespace mode. */
  sharedNamespace?: string;
  /** Desired state Running → 1 replica, otherwise 0 (docs/gitlab-behaviour.md#workspace-states). */
  running?: boolean;
  dnsZone?: string;
  /** Agent config `labels` / `annotations` merged into every object (docs/gitlab-behaviour.md#workspace-labels-and-annotations). */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

type Obj = Record<string, unknown> & { metadata: { name: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> } };

const MAX_RESOURCES = { limits: { cpu: '2', memory: '4Gi' }, requests: { cpu: '1', memory: '2Gi' } };

/** Rails hashes the sorted max-resources hash so that a change restarts the workspace (docs/gitlab-behaviour.md#workspace-labels-and-annotations). */
function maxResourcesSha(): string {
  return createHash('sha256').update(JSON.stringify(MAX_RESOURCES)).digest('hex');
}

/** Every object of the workspace, in Rails' order. */
export function workspaceObjects(o: WorkspaceConfigOptions): Obj[] {
  const shared = Boolean(o.sharedNamespace);
  const namespace = workspaceNamespace(o.name, o.sharedNamespace);
  const inventories = workspaceInventoryNames(o.name);
  const labels: Record<string, string> = {
    ...o.labels,
    [AGENT_ID_LABEL]: String(o.agentId),
    // Only in shared-namespace mode (docs/gitlab-behaviour.md#workspace-labels-and-annotations, issue 535197).
    ...(shared ? { [WORKSPACE_ID_KEY]: String(o.workspaceId) } : {}),
  };
  const annotations = {
    ...o.annotations,
    [HOST_TEMPLATE_ANNOTATION]: `{{.port}}-${o.name}.${o.dnsZone ?? 'workspaces.example.dev'}`,
    [WORKSPACE_ID_KEY]: String(o.workspaceId),
    [MAX_RESOURCES_SHA_ANNOTATION]: maxResourcesSha(),
  };
  const meta = (name: string, owner?: string) => ({
    name,
    namespace,
    labels: { ...labels },
    annotations: owner ? { ...annotations, [OWNING_INVENTORY_ANNOTATION]: owner } : { ...annotations },
  });
  const inventory = (name: string): Obj => {
    const m = meta(name);
    m.labels[INVENTORY_ID_LABEL] = name;
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: m };
  };
  const podLabels = { ...labels, 'workspaces.gitlab.com/name': o.name };
  const ws = inventories.workspace;
  const objects: Obj[] = [
    inventory(inventories.workspace),
    inventory(inventories.secrets),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(o.name, ws),
      spec: {
        replicas: o.running === false ? 0 : 1,
        selector: { matchLabels: podLabels },
        strategy: { type: 'Recreate' },
        template: {
          metadata: { labels: podLabels, annotations: { ...annotations } },
          spec: {
            serviceAccountName: o.name,
            containers: [
              {
                name: 'tooling-container',
                image: 'registry.gitlab.com/gitlab-org/gitlab-build-images/workspaces/ubuntu-24.04:20250109224147-golang-1.23',
                command: ['/bin/sh', '-c'],
                args: ['sleep infinity'],
                ports: [{ containerPort: 60001, name: 'editor-server', protocol: 'TCP' }],
                envFrom: [{ secretRef: { name: `${o.name}-env-var` } }],
                volumeMounts: [{ name: 'gl-workspace-data', mountPath: '/projects' }],
              },
            ],
            volumes: [{ name: 'gl-workspace-data', persistentVolumeClaim: { claimName: `${o.name}-gl-workspace-data` } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(o.name, ws),
      spec: { selector: podLabels, ports: [{ name: 'editor-server', port: 60001, targetPort: 60001 }] },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta(`${o.name}-gl-workspace-data`, ws),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '15Gi' } } },
    },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: meta(o.name, ws),
      automountServiceAccountToken: false,
      imagePullSecrets: [],
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta(o.name, ws),
      spec: {
        podSelector: shared ? { matchLabels: { [WORKSPACE_ID_KEY]: String(o.workspaceId) } } : {},
        policyTypes: ['Ingress', 'Egress'],
        ingress: [
          {
            from: [
              {
                namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'gitlab-workspaces' } },
                podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gitlab-workspaces-proxy' } },
              },
            ],
          },
        ],
        egress: [
          {
            ports: [
              { port: 53, protocol: 'TCP' },
              { port: 53, protocol: 'UDP' },
            ],
            to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }],
          },
          { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } }] },
        ],
      },
    },
  ];
  // A ResourceQuota is a namespace-wide limit: never in a shared namespace (docs/gitlab-behaviour.md#workspace-names-and-namespaces, docs/gitlab-behaviour.md#workspace-lifetimes).
  if (!shared) {
    objects.push({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: meta(o.name, ws),
      spec: {
        hard: {
          'limits.cpu': MAX_RESOURCES.limits.cpu,
          'limits.memory': MAX_RESOURCES.limits.memory,
          'requests.cpu': MAX_RESOURCES.requests.cpu,
          'requests.memory': MAX_RESOURCES.requests.memory,
        },
      },
    });
  }
  for (const suffix of ['env-var', 'file']) {
    objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: meta(`${o.name}-${suffix}`, inventories.secrets), type: 'Opaque', data: {} });
  }
  return objects;
}

function toYaml(objects: readonly object[]): string {
  return objects.map((obj) => `---\n${stringify(obj)}`).join('');
}

/** The `config_to_apply` of a running workspace. */
export function workspaceConfigToApply(o: WorkspaceConfigOptions): string {
  return toYaml(workspaceObjects(o));
}

/**
 * The `config_to_apply` Rails sends for a workspace whose desired state is Terminated: only its
 * inventory ConfigMaps (docs/gitlab-behaviour.md#workspace-termination, MR 185872).
 */
export function workspaceTerminationConfig(o: WorkspaceConfigOptions): string {
  return toYaml(workspaceObjects(o).filter((obj) => obj.metadata.labels[INVENTORY_ID_LABEL]));
}
