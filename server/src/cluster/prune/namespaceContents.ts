/**
 * What deleting a namespace takes with it: the API server deletes everything inside, whoever made
 * it. Before a destroy or prune deletes a namespace, and before an apply adopts one, the plan lists
 * the objects in it that the operation's inventory does not track, so that a person can see — and
 * must confirm — what else goes.
 *
 * Left out, because Kubernetes makes and removes them itself: Events, the `default`
 * ServiceAccount, the `kube-root-ca.crt` ConfigMap, the Endpoints the endpoints controller keeps for
 * a Service, and objects with an owner reference (they go with their owner, which is listed when it
 * is not ours).
 */
import type { KubernetesObject, V1APIResource } from '@kubernetes/client-node';
import { ApisApi } from '@kubernetes/client-node';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { refKey, splitApiVersion, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';

/** Objects in a namespace that its deletion would take along, besides the operation's own. */
export interface NamespaceContents {
  readonly namespace: string;
  readonly objects: readonly ObjectRef[];
  /** Kinds that could not be listed (403…): what they hold is unknown. */
  readonly unlisted: readonly string[];
}

const KUBERNETES_MADE = new Set(['/ServiceAccount/default', '/ConfigMap/kube-root-ca.crt']);
const EVENT_KINDS = new Set(['/Event', 'events.k8s.io/Event']);

/** Every namespaced kind that can be listed, at its preferred version (from discovery). */
async function namespacedKinds(session: ClusterSession): Promise<ClusterOutcome<{ apiVersion: string; resource: V1APIResource }[]>> {
  try {
    const groups = await session.kubeConfig.makeApiClient(ApisApi).getAPIVersions();
    const apiVersions = ['v1', ...groups.groups.flatMap((g) => (g.preferredVersion ? [g.preferredVersion.groupVersion] : []))];
    const lists = await mapBounded(apiVersions, DEFAULT_CONCURRENCY, async (apiVersion) => ({ apiVersion, resources: await session.objects.resourcesOf(apiVersion) }));
    return ok(
      lists.flatMap(({ apiVersion, resources }) =>
        resources
          .filter((r) => r.namespaced && !r.name.includes('/') && r.verbs.includes('list') && r.verbs.includes('delete'))
          .filter((r) => !EVENT_KINDS.has(`${splitApiVersion(apiVersion).group}/${r.kind}`))
          .map((resource) => ({ apiVersion, resource })),
      ),
    );
  } catch (err) {
    return outcomeFromError(err);
  }
}

/** The endpoints controller marks the Endpoints it keeps for a Service so that they are not mirrored. */
const CONTROLLER_ENDPOINTS_LABEL = 'endpointslice.kubernetes.io/skip-mirror';

function isKubernetesMade(ref: ObjectRef, live: KubernetesObject): boolean {
  if (ref.group === '' && ref.kind === 'Endpoints' && live.metadata?.labels?.[CONTROLLER_ENDPOINTS_LABEL] === 'true') return true;
  return KUBERNETES_MADE.has(`${ref.group}/${ref.kind}/${ref.name}`) || (live.metadata?.ownerReferences?.length ?? 0) > 0;
}

/**
 * The objects in `namespace` that `ours` (refKeys) does not name. Kinds the identity may not list
 * are reported in `unlisted`, not guessed.
 */
export async function namespaceContents(session: ClusterSession, namespace: string, ours: ReadonlySet<string>): Promise<ClusterOutcome<NamespaceContents>> {
  const kinds = await namespacedKinds(session);
  if (isFailure(kinds)) return kinds;
  const objects: ObjectRef[] = [];
  const unlisted: string[] = [];
  const results = await mapBounded(kinds.value, DEFAULT_CONCURRENCY, async ({ apiVersion, resource }) => {
    try {
      return ok((await session.objects.list(apiVersion, resource.kind, namespace)).items);
    } catch (err) {
      return outcomeFromError(err);
    }
  });
  results.forEach((result, i) => {
    const { apiVersion, resource } = kinds.value[i];
    if (isFailure(result)) {
      if (result.type !== 'notFound') unlisted.push(`${resource.name}${apiVersion.includes('/') ? `.${splitApiVersion(apiVersion).group}` : ''} (${result.type})`);
      return;
    }
    for (const item of result.value) {
      const ref: ObjectRef = { ...splitApiVersion(apiVersion), kind: resource.kind, namespace, name: item.metadata?.name ?? '' };
      if (ours.has(refKey(ref)) || isKubernetesMade(ref, item)) continue;
      objects.push(ref);
    }
  });
  objects.sort((a, b) => refKey(a).localeCompare(refKey(b)));
  return ok({ namespace, objects, unlisted: unlisted.sort() });
}

/** Whether deleting the namespace would take anything besides the operation's own objects. */
export function takesOthers(contents: NamespaceContents): boolean {
  return contents.objects.length > 0 || contents.unlisted.length > 0;
}
