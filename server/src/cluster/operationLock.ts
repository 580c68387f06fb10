/**
 * One operation per environment or workspace at a time. Apply, destroy, workspace apply and
 * termination each hold a `coordination.k8s.io` Lease beside the inventory they work through while
 * they change the cluster, as controllers hold one to elect a leader: a second run waits for it (and
 * says for whom), and gives up with the holder's name when its own time is up.
 *
 * - The lease is `<inventory>.lock` in the inventory's namespace; its holder renews it every 5 s and
 *   deletes it when done, so nothing is left behind.
 * - A holder that was killed stops renewing: the lease counts as free once it has not changed for
 *   {@link LOCK_DURATION_SECONDS} by the waiting run's own clock (client-go's leader election rule,
 *   so machines whose clocks disagree cannot take a live lease from each other).
 * - A holder that cannot renew in time (a stalled process, a lost connection) stops its own work:
 *   its signal is aborted, and it reports that the lock was lost.
 */
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import { CoordinationV1Api, V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import { waitForObject } from './kube/watch';
import type { ObjectRef } from './kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from './kube/outcome';
import type { ClusterSession } from './kube/session';
import type { OperationOptions } from './progress';
import { reportStep } from './progressSteps';

/** How long an unrenewed lease keeps others out (client-go's default lease duration). */
export const LOCK_DURATION_SECONDS = 15;
const RENEW_INTERVAL_MS = 5_000;
/** How long a run waits for a busy lock when the operation sets no timeout of its own. */
const DEFAULT_WAIT_MS = 5 * 60_000;

/** What an operation locks: the inventory it works through. */
export interface LockSubject {
  readonly namespace: string;
  readonly inventory: string;
  /** The subject in words, for messages: `environment review/x`, `workspace w1`. */
  readonly what: string;
}

/** A lock this run holds: the signal aborts when the lock is lost. */
export interface HeldLock {
  readonly ref: ObjectRef;
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

/** Options of {@link withOperationLock}. */
export interface LockOptions extends OperationOptions {
  /** A lock the caller already holds for this subject (it planned under it): used as is. */
  readonly heldLock?: HeldLock;
}

/** The Lease that locks `subject`. */
export function lockRef(subject: Pick<LockSubject, 'namespace' | 'inventory'>): ObjectRef {
  return { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', namespace: subject.namespace, name: leaseName(subject.inventory) };
}

function leaseName(inventory: string): string {
  const name = `${inventory}.lock`;
  if (name.length <= 253) return name;
  // An inventory name near the 253-character limit: keep it recognisable and unique.
  const hash = createHash('sha256').update(inventory).digest('hex').slice(0, 16);
  return `${inventory.slice(0, 200).replace(/[-.]+$/, '')}.${hash}.lock`;
}

/** Who holds a lock, as other runs will read it: the operation, the user and machine, the process. */
function holderIdentity(operation: string): string {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    // No user database entry (some containers): the host and pid still tell runs apart.
  }
  return `agentcfg ${operation} (${user}@${os.hostname()}, pid ${process.pid}, ${randomBytes(3).toString('hex')})`;
}

function leaseBody(subject: LockSubject, holder: string, previous?: V1Lease): V1Lease {
  const now = new V1MicroTime();
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: leaseName(subject.inventory),
      namespace: subject.namespace,
      labels: { 'app.kubernetes.io/managed-by': 'gitlab-agent-config' },
      ...(previous?.metadata?.resourceVersion ? { resourceVersion: previous.metadata.resourceVersion } : {}),
    },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: LOCK_DURATION_SECONDS,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: (previous?.spec?.leaseTransitions ?? -1) + 1,
    },
  };
}

function sinceText(lease: V1Lease): string {
  const since = lease.spec?.acquireTime;
  return since ? `, since ${new Date(since).toISOString().replace(/\.\d+Z$/, 'Z')}` : '';
}

async function readLease(api: CoordinationV1Api, ref: ObjectRef): Promise<ClusterOutcome<V1Lease | undefined>> {
  try {
    return ok(await api.readNamespacedLease({ name: ref.name, namespace: ref.namespace }));
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok(undefined) : failure;
  }
}

/** The lease as the waiting run first saw it unchanged, by its own clock. */
interface Sighting {
  readonly resourceVersion: string;
  readonly at: number;
}

/** Takes the lock, waiting while another run holds it; `notFound` when the namespace does not exist. */
async function acquire(session: ClusterSession, subject: LockSubject, holder: string, options: OperationOptions & { deadline: number }): Promise<ClusterOutcome<V1Lease>> {
  const api = session.kubeConfig.makeApiClient(CoordinationV1Api);
  const ref = lockRef(subject);
  let sighting: Sighting | undefined;
  for (;;) {
    if (options.signal?.aborted) return { type: 'cancelled', ref, message: 'cancelled' };
    const read = await readLease(api, ref);
    if (isFailure(read)) return read;
    const lease = read.value;
    const rv = lease?.metadata?.resourceVersion ?? '';
    if (lease && sighting?.resourceVersion !== rv) sighting = { resourceVersion: rv, at: Date.now() };
    const free = !lease || !lease.spec?.holderIdentity || Date.now() - sighting!.at >= (lease.spec.leaseDurationSeconds ?? LOCK_DURATION_SECONDS) * 1000;
    if (free) {
      try {
        const body = leaseBody(subject, holder, lease);
        // Create when absent, replace with the read's resourceVersion otherwise: two runs racing for a free lock cannot both win.
        return ok(lease ? await api.replaceNamespacedLease({ name: ref.name, namespace: ref.namespace, body }) : await api.createNamespacedLease({ namespace: ref.namespace, body }));
      } catch (err) {
        const failure = outcomeFromError(err, ref);
        if (failure.type === 'conflict') continue;
        return failure;
      }
    }
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      return { type: 'refused', ref, message: `${subject.what} is busy: ${lease!.spec!.holderIdentity} holds its lock${sinceText(lease!)}. Nothing was changed; try again when that run has finished.` };
    }
    reportStep(options.progress, { kind: 'waitLock', what: subject.what, holder: lease!.spec!.holderIdentity! });
    const expiresIn = sighting!.at + (lease!.spec!.leaseDurationSeconds ?? LOCK_DURATION_SECONDS) * 1000 - Date.now();
    // Wake when the lease changes (released, renewed, taken) or may have expired, whichever comes first.
    const waited = await waitForObject(session, ref, (o) => o?.metadata?.resourceVersion !== rv, { signal: options.signal, timeoutMs: Math.max(1, Math.min(remaining, expiresIn)) });
    if (isFailure(waited) && waited.type !== 'timeout') return waited;
  }
}

/** Keeps a taken lease renewed until released; aborts `lost` when it cannot. */
function hold(session: ClusterSession, subject: LockSubject, taken: V1Lease, parent: AbortSignal | undefined): HeldLock {
  const api = session.kubeConfig.makeApiClient(CoordinationV1Api);
  const ref = lockRef(subject);
  const lost = new AbortController();
  let lease = taken;
  let renewedAt = Date.now();
  let renewing: Promise<void> | undefined;
  const renew = async (): Promise<void> => {
    try {
      lease = await api.replaceNamespacedLease({ name: ref.name, namespace: ref.namespace, body: { ...lease, spec: { ...lease.spec, renewTime: new V1MicroTime() } } });
      renewedAt = Date.now();
    } catch (err) {
      const failure = outcomeFromError(err, ref);
      // Taken over or deleted by someone else: the lock is gone. Anything else: try again until it expires.
      if (failure.type === 'conflict' || failure.type === 'notFound' || Date.now() - renewedAt >= LOCK_DURATION_SECONDS * 1000) {
        lost.abort(new Error(`the lock on ${subject.what} was lost (${failure.type === 'conflict' || failure.type === 'notFound' ? 'another run took or removed it' : failure.message})`));
      }
    }
  };
  const timer = setInterval(() => {
    renewing ??= renew().finally(() => (renewing = undefined));
  }, RENEW_INTERVAL_MS);
  timer.unref();
  return {
    ref,
    signal: parent ? AbortSignal.any([parent, lost.signal]) : lost.signal,
    async release() {
      clearInterval(timer);
      await renewing;
      if (lost.signal.aborted) return;
      try {
        // Only our own lease: a run that took over an expired lock keeps its own.
        await api.deleteNamespacedLease({ name: ref.name, namespace: ref.namespace, body: { preconditions: { uid: lease.metadata?.uid, resourceVersion: lease.metadata?.resourceVersion } } });
      } catch {
        // Already gone, or taken over; an unreachable cluster lets it expire on its own.
      }
    },
  };
}

/** The failure to report when the work stopped because the lock was lost. */
function lostLock(signal: AbortSignal, ref: ObjectRef): ClusterFailure {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'the lock was lost';
  return { type: 'failed', ref, message: `${reason}; the operation stopped so that two runs never change the same objects. What was done is recorded in the inventory: run it again.` };
}

/**
 * Runs `work` while holding the lock of `subject`, waiting up to the operation's timeout for another
 * run to release it. A namespace that does not exist holds nothing of the subject to protect: the
 * work runs without a lock and finds that out itself.
 */
export async function withOperationLock<T>(
  session: ClusterSession,
  subject: LockSubject,
  operation: string,
  options: LockOptions,
  work: (signal: AbortSignal | undefined) => Promise<ClusterOutcome<T>>,
): Promise<ClusterOutcome<T>> {
  if (options.heldLock) return work(options.heldLock.signal);
  const held = await takeLock(session, subject, operation, options);
  if (isFailure(held)) return held.type === 'notFound' ? work(options.signal) : held;
  try {
    const result = await work(held.value.signal);
    const lostSignal = held.value.signal;
    if (isFailure(result) && lostSignal.aborted && !options.signal?.aborted) return lostLock(lostSignal, held.value.ref);
    return result;
  } finally {
    await held.value.release();
  }
}

/** Takes the lock of `subject` for a caller that holds it across several steps (plan, confirm, execute). */
export async function takeLock(session: ClusterSession, subject: LockSubject, operation: string, options: OperationOptions): Promise<ClusterOutcome<HeldLock>> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
  const taken = await acquire(session, subject, holderIdentity(operation), { ...options, deadline });
  if (isFailure(taken)) return taken;
  return ok(hold(session, subject, taken.value, options.signal));
}

