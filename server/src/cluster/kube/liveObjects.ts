/**
 * Reading many live objects at once: objects of one kind in one namespace are read with a LIST of
 * that collection (paged) instead of one GET each; lone objects with a GET. An environment of 200
 * objects in one namespace then costs a handful of requests instead of 200.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { DEFAULT_CONCURRENCY, mapBounded } from './concurrency';
import { apiVersionOf, refKey, type ObjectRef } from './objectRef';
import { ok, outcomeFromError, type ClusterOutcome } from './outcome';
import type { ClusterSession } from './session';
import { readObject } from './watch';

/** One object's read: ok(undefined) when it does not exist, or why it could not be read. */
export type LiveRead = ClusterOutcome<KubernetesObject | undefined>;

/** Reads by {@link refKey}. */
export type LiveObjects = ReadonlyMap<string, LiveRead>;

/** Below this many objects of one kind in one namespace, GETs are cheaper than a LIST. */
const LIST_THRESHOLD = 4;
const PAGE_SIZE = 500;

async function listGroup(session: ClusterSession, refs: readonly ObjectRef[], concurrency: number): Promise<[string, LiveRead][]> {
  const { group, version, kind, namespace } = refs[0];
  const apiVersion = apiVersionOf({ group, version });
  const byName = new Map<string, KubernetesObject>();
  let continueToken: string | undefined;
  try {
    do {
      const page = await session.objects.list(apiVersion, kind, namespace || undefined, undefined, undefined, undefined, undefined, undefined, PAGE_SIZE, continueToken);
      // List items carry no apiVersion/kind; put them back so they compare with single reads.
      for (const item of page.items) if (item.metadata?.name) byName.set(item.metadata.name, { ...item, apiVersion, kind });
      continueToken = page.metadata?._continue || undefined;
    } while (continueToken);
  } catch (err) {
    const failure = outcomeFromError(err, refs[0]);
    // RBAC may grant get without list: the LIST is only a shortcut, so read the objects one by one.
    if (failure.type === 'forbidden') return mapBounded(refs, concurrency, async (r): Promise<[string, LiveRead]> => [refKey(r), await readObject(session, r)]);
    return refs.map((r) => [refKey(r), outcomeFromError(err, r)]);
  }
  return refs.map((r) => [refKey(r), ok(byName.get(r.name))]);
}

/**
 * Asks discovery once per apiVersion before the reads run concurrently: each read needs its kind's
 * resource, and concurrent first reads of one apiVersion would each fetch it. A failure is left to
 * the reads, which report it per object.
 */
async function warmDiscovery(session: ClusterSession, refs: readonly ObjectRef[]): Promise<void> {
  const kindOf = new Map<string, string>();
  for (const r of refs) if (!kindOf.has(apiVersionOf(r))) kindOf.set(apiVersionOf(r), r.kind);
  await Promise.all([...kindOf].map(([apiVersion, kind]) => session.objects.resourceFor(apiVersion, kind).catch(() => undefined)));
}

/** Reads every ref's live object; each read succeeds or fails on its own. */
export async function readLiveObjects(session: ClusterSession, refs: readonly ObjectRef[], concurrency = DEFAULT_CONCURRENCY): Promise<LiveObjects> {
  if (refs.length === 0) return new Map();
  await warmDiscovery(session, refs);
  const groups = new Map<string, ObjectRef[]>();
  for (const r of refs) {
    const key = `${apiVersionOf(r)}/${r.kind}/${r.namespace}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const tasks = [...groups.values()].flatMap((g) => (g.length >= LIST_THRESHOLD ? [g] : g.map((r) => [r])));
  const results = await mapBounded(tasks, concurrency, async (task): Promise<[string, LiveRead][]> =>
    task.length > 1 ? listGroup(session, task, concurrency) : [[refKey(task[0]), await readObject(session, task[0])]],
  );
  return new Map(results.flat());
}

/** The read of `ref` from a batch, or a fresh GET when the batch does not have it. */
export async function liveRead(session: ClusterSession, batch: LiveObjects | undefined, ref: ObjectRef): Promise<LiveRead> {
  return batch?.get(refKey(ref)) ?? readObject(session, ref);
}
