/**
 * Writes that hold only while the object is as last read. A server-side apply carries the
 * resourceVersion it expects in `metadata.resourceVersion` (the API server answers 409 when the
 * object has another); to create an object only while it does not exist, it carries
 * {@link CREATE_ONLY}.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ClusterFailure } from './outcome';

/**
 * The resourceVersion of a server-side apply that must create: the API server ignores a
 * resourceVersion when the apply creates the object, and refuses the apply (409) when the object
 * exists, since no live object is still at version 1 (etcd's first revision, taken when the cluster
 * was set up). Checked against the real API server by test/cluster/preconditions.test.ts.
 */
export const CREATE_ONLY = '1';

/** The resourceVersion an apply of `manifest` must find: the live copy's, or {@link CREATE_ONLY} when there is none. */
export function expectedVersion(live: KubernetesObject | undefined): string {
  return live?.metadata?.resourceVersion ?? CREATE_ONLY;
}

/** `manifest` (a copy) applied only while the object is at `expected`. */
export function withExpectedVersion<T extends KubernetesObject>(manifest: T, expected: string): T {
  const copy = structuredClone(manifest);
  copy.metadata = { ...copy.metadata, resourceVersion: expected };
  return copy;
}

/** Whether a failure is the API server's "the object has been modified" (an optimistic-lock 409), not a field-manager conflict. */
export function isStaleWrite(failure: ClusterFailure): boolean {
  return failure.type === 'conflict' && failure.managers.length === 0 && failure.causes.length === 0;
}
