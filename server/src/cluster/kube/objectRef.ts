/**
 * Identity of one Kubernetes object, independent of its version of the truth (live or desired).
 * Formatted the way GitLab's managed-resources delete service logs objects (docs/gitlab-behaviour.md#managed-resources-flow):
 * `<group or core>/<version>/<kind> '<name>' in namespace '<ns>'`.
 */
import type { KubernetesObject } from '@kubernetes/client-node';

/** Which object: group/version/kind plus namespace and name (namespace '' for cluster-scoped). */
export interface ObjectRef {
  /** API group; '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
}

/** Splits an `apiVersion` into group and version (`v1` → core group ''). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The `apiVersion` of a ref (`v1`, `rbac.authorization.k8s.io/v1`). */
export function apiVersionOf(ref: Pick<ObjectRef, 'group' | 'version'>): string {
  return ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
}

/** The ref of a manifest; undefined when apiVersion, kind or metadata.name is missing. */
export function refFromManifest(manifest: KubernetesObject): ObjectRef | undefined {
  const { apiVersion, kind } = manifest;
  const name = manifest.metadata?.name;
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '' || typeof name !== 'string' || name === '') return undefined;
  return { ...splitApiVersion(apiVersion), kind, namespace: manifest.metadata?.namespace ?? '', name };
}

/** A manifest header (apiVersion, kind, metadata.name/namespace) for client-node calls on `ref`. */
export function headerOf(ref: ObjectRef): { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } {
  return {
    apiVersion: apiVersionOf(ref),
    kind: ref.kind,
    metadata: ref.namespace === '' ? { name: ref.name } : { name: ref.name, namespace: ref.namespace },
  };
}

/** `rbac.authorization.k8s.io/v1/RoleBinding 'bind' in namespace 'ns'`; core group written `core` (docs/gitlab-behaviour.md#managed-resources-flow). */
export function formatRef(ref: ObjectRef): string {
  const head = `${ref.group === '' ? 'core' : ref.group}/${ref.version}/${ref.kind} '${ref.name}'`;
  return ref.namespace === '' ? head : `${head} in namespace '${ref.namespace}'`;
}

/** A version-independent key (group, kind, namespace, name): the identity an inventory tracks (docs/gitlab-behaviour.md#inventories). */
export function refKey(ref: Omit<ObjectRef, 'version'>): string {
  return `${ref.namespace}/${ref.name}/${ref.group}/${ref.kind}`;
}
