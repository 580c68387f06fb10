/**
 * A live view of one namespaced collection (list, then watch from the list's resourceVersion; the
 * watch re-lists when the server ends it or answers 410). The caller is told after every change and
 * decides when it has seen enough. No polling.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectRef } from '../kube/objectRef';
import { isFailure, outcomeFromError, type ClusterFailure } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { collectionPath } from '../kube/watch';

export interface CollectionView {
  /** The objects by name, as last seen. */
  readonly objects: ReadonlyMap<string, KubernetesObject>;
  stop(): void;
}

/**
 * Starts watching `kind` in `namespace`. `onChange` runs after the first list and after every
 * event; `onError` gets a failure that ends the view (forbidden, kind not served, …), attributed to
 * `subject` (the object the caller waits for) so that the message names it.
 */
export async function watchCollection(
  session: ClusterSession,
  kind: Pick<ObjectRef, 'group' | 'version' | 'kind'>,
  namespace: string,
  subject: ObjectRef,
  onChange: () => void,
  onError: (failure: ClusterFailure) => void,
): Promise<CollectionView | ClusterFailure> {
  const ref: ObjectRef = subject;
  const path = await collectionPath(session, { ...kind, namespace, name: '' });
  if (isFailure(path)) return { ...path, ref };
  const objects = new Map<string, KubernetesObject>();
  let stopped = false;
  let controller: AbortController | undefined;

  const list = async (): Promise<string | ClusterFailure> => {
    try {
      const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
      const result = await session.objects.list(apiVersion, kind.kind, namespace);
      objects.clear();
      for (const item of result.items) if (item.metadata?.name) objects.set(item.metadata.name, item);
      return result.metadata?.resourceVersion ?? '';
    } catch (err) {
      return outcomeFromError(err, ref);
    }
  };

  const watchFrom = (resourceVersion: string): void => {
    if (stopped) return;
    session.watch
      .watch(
        path.value,
        { allowWatchBookmarks: true, ...(resourceVersion ? { resourceVersion } : {}) },
        (phase: string, object: KubernetesObject) => {
          const name = object?.metadata?.name;
          if (phase === 'ERROR' || !name) return; // 410 Gone and the like: the done callback re-lists
          if (phase === 'DELETED') objects.delete(name);
          else if (phase === 'ADDED' || phase === 'MODIFIED') objects.set(name, object);
          else return; // BOOKMARK
          onChange();
        },
        (err: unknown) => {
          const failure = err && !stopped ? outcomeFromError(err, ref) : undefined;
          // A dropped connection is re-established; an answer such as 403 ends the view.
          if (failure && failure.type !== 'unreachable' && failure.type !== 'failed' && failure.type !== 'cancelled') onError(failure);
          else void restart();
        },
      )
      .then(
        (c) => {
          controller = c;
          if (stopped) c.abort();
        },
        (err: unknown) => {
          if (!stopped) onError(outcomeFromError(err, ref));
        },
      );
  };

  const restart = async (): Promise<void> => {
    if (stopped) return;
    const version = await list();
    if (stopped) return;
    if (typeof version !== 'string') return onError(version);
    onChange();
    watchFrom(version);
  };

  const first = await list();
  if (typeof first !== 'string') return first;
  watchFrom(first);
  return {
    objects,
    stop: () => {
      stopped = true;
      controller?.abort();
    },
  };
}
