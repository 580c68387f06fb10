/**
 * Waiting on the API server's own signal: read the object once, then WATCH it from that
 * resourceVersion until a predicate holds (or it is gone). No polling. A watch the server closes
 * (they time out after minutes) or a stale resourceVersion (410) restarts from a fresh read.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { apiVersionOf, formatRef, headerOf, type ObjectRef } from './objectRef';
import { isFailure, ok, outcomeFromError, type ClusterOutcome } from './outcome';
import type { ClusterSession } from './session';

/** Options of {@link waitForObject}. */
export interface WaitOptions {
  readonly signal?: AbortSignal;
  /** Default 120 s. */
  readonly timeoutMs?: number;
  /** Words for the timeout message, e.g. "to become Ready". */
  readonly what?: string;
  /**
   * Asks the API server to end each watch after this many seconds (then it is re-established from a
   * fresh read); guards against half-open connections. Default 300.
   */
  readonly serverTimeoutSeconds?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** `0.3 s`, `1.5 s`, `120 s`: tenths below ten seconds. */
export function formatDuration(ms: number): string {
  return `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;
}

/** The collection URL path of a ref's kind (`/apis/g/v/namespaces/ns/plural`), from discovery. */
export async function collectionPath(session: ClusterSession, ref: ObjectRef): Promise<ClusterOutcome<string>> {
  try {
    const apiVersion = apiVersionOf(ref);
    const resource = await session.objects.resourceFor(apiVersion, ref.kind);
    if (!resource) return { type: 'unknownKind', ref, message: `the cluster does not serve ${apiVersion} ${ref.kind}` };
    const base = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
    const scope = resource.namespaced ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
    return ok(`${base}${scope}/${resource.name}`);
  } catch (err) {
    return outcomeFromError(err, ref);
  }
}

/** Reads one object; ok(undefined) when it does not exist. */
export async function readObject<T extends KubernetesObject = KubernetesObject>(session: ClusterSession, ref: ObjectRef): Promise<ClusterOutcome<T | undefined>> {
  try {
    return ok((await session.objects.read(headerOf(ref))) as T);
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok(undefined) : failure;
  }
}

type WatchRound<T> = { readonly done: true; readonly outcome: ClusterOutcome<T | undefined> } | { readonly done: false };

/**
 * Waits until `predicate` holds for the object (`undefined` = it does not exist), and returns the
 * object as last seen. Fails with `timeout` or `cancelled`, or with the API's error.
 */
export async function waitForObject<T extends KubernetesObject = KubernetesObject>(
  session: ClusterSession,
  ref: ObjectRef,
  predicate: (object: T | undefined) => boolean,
  options: WaitOptions = {},
): Promise<ClusterOutcome<T | undefined>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const path = await collectionPath(session, ref);
  if (isFailure(path)) return path;
  const timedOut = (): ClusterOutcome<T | undefined> => ({ type: 'timeout', ref, message: `${formatRef(ref)} did not get ${options.what ?? 'to the expected state'} within ${formatDuration(timeoutMs)}` });

  for (;;) {
    if (options.signal?.aborted) return { type: 'cancelled', ref, message: 'cancelled' };
    if (Date.now() >= deadline) return timedOut();
    const current = await readObject<T>(session, ref);
    if (isFailure(current)) return current;
    if (predicate(current.value)) return current;
    const round = await watchRound(session, ref, path.value, current.value?.metadata?.resourceVersion, predicate, deadline, options.signal, options.serverTimeoutSeconds ?? 300);
    if (round.done) return round.outcome.type === 'timeout' ? timedOut() : round.outcome;
  }
}

/** Waits until the object no longer exists. */
export async function waitUntilGone(session: ClusterSession, ref: ObjectRef, options: WaitOptions = {}): Promise<ClusterOutcome<void>> {
  const outcome = await waitForObject(session, ref, (o) => o === undefined, { what: 'deleted', ...options });
  return isFailure(outcome) ? outcome : ok(undefined);
}

/** One watch connection; `done: false` when it ended without an answer (re-read and watch again). */
function watchRound<T extends KubernetesObject>(
  session: ClusterSession,
  ref: ObjectRef,
  path: string,
  resourceVersion: string | undefined,
  predicate: (object: T | undefined) => boolean,
  deadline: number,
  signal: AbortSignal | undefined,
  serverTimeoutSeconds: number,
): Promise<WatchRound<T>> {
  return new Promise<WatchRound<T>>((resolve) => {
    let controller: AbortController | undefined;
    let settled = false;
    const finish = (round: WatchRound<T>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      controller?.abort();
      resolve(round);
    };
    const onAbort = (): void => finish({ done: true, outcome: { type: 'cancelled', ref, message: 'cancelled' } });
    const timer = setTimeout(() => finish({ done: true, outcome: { type: 'timeout', ref, message: 'timeout' } }), Math.max(0, deadline - Date.now()));
    // An abort that came while the caller was reading the object fires no event any more.
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);
    const query: Record<string, string | number | boolean> = { fieldSelector: `metadata.name=${ref.name}`, allowWatchBookmarks: true, timeoutSeconds: serverTimeoutSeconds };
    if (resourceVersion) query.resourceVersion = resourceVersion;
    session.watch
      .watch(
        path,
        query,
        (phase: string, object: unknown) => {
          if (phase === 'ERROR') {
            // Typically 410 Gone (resourceVersion too old): start over from a fresh read.
            finish({ done: false });
          } else if (phase === 'DELETED') {
            if (predicate(undefined)) finish({ done: true, outcome: ok(undefined) });
          } else if (phase === 'ADDED' || phase === 'MODIFIED') {
            if (predicate(object as T)) finish({ done: true, outcome: ok(object as T) });
          }
        },
        (err: unknown) => {
          if (err && !settled && !signal?.aborted) {
            const failure = outcomeFromError(err, ref);
            // A dropped connection is re-established; an answer such as 403 is final.
            finish(failure.type === 'unreachable' || failure.type === 'failed' ? { done: false } : { done: true, outcome: failure });
          } else {
            finish({ done: false });
          }
        },
      )
      .then(
        (c) => {
          controller = c;
          if (settled) c.abort();
        },
        (err: unknown) => finish({ done: true, outcome: outcomeFromError(err, ref) }),
      );
  });
}
