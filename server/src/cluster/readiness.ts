/**
 * kstatus, the part our kinds need: is an object "current" (reconciled and ready)?
 * - Namespace: `status.phase` Active (Terminating is in progress).
 * - Objects with a `status.observedGeneration`: in progress until it equals `metadata.generation`.
 * - Objects with a Ready condition (Flux, docs/gitlab-behaviour.md#flux-readiness): Ready=True is current; Stalled=True is failed;
 *   Ready=False is in progress (controllers retry) and carries the reason.
 * - Flux kinds are reconciled by a controller: until it has written a status they are in progress.
 * - Anything else (ServiceAccount, RoleBinding…) is current as soon as it exists.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { asRecord } from '../engine/api';

/** kstatus result for one object. */
export type Readiness =
  | { readonly state: 'current' }
  | { readonly state: 'inProgress'; readonly message: string }
  | { readonly state: 'failed'; readonly reason: string; readonly message: string }
  | { readonly state: 'notFound' };

function condition(status: Record<string, unknown> | null, type: string): Record<string, unknown> | undefined {
  const list = Array.isArray(status?.conditions) ? status.conditions : [];
  return list.map(asRecord).find((c) => c?.type === type) ?? undefined;
}

/** The kstatus of a live object (undefined = it does not exist). */
export function readinessOf(object: KubernetesObject | undefined): Readiness {
  if (!object) return { state: 'notFound' };
  const status = asRecord((object as { status?: unknown }).status);
  const group = (object.apiVersion ?? '').split('/').length > 1 ? (object.apiVersion ?? '').split('/')[0] : '';
  if (group === '' && object.kind === 'Namespace') {
    const phase = status?.phase;
    return phase === 'Active' ? { state: 'current' } : { state: 'inProgress', message: `namespace phase is ${String(phase ?? 'unknown')}` };
  }
  if (object.metadata?.deletionTimestamp) return { state: 'inProgress', message: 'it is being deleted' };
  const generation = object.metadata?.generation;
  const observed = status?.observedGeneration;
  const isFlux = group.endsWith('.toolkit.fluxcd.io');
  if (observed !== undefined && generation !== undefined && observed !== generation) {
    return { state: 'inProgress', message: `the controller has not observed generation ${generation} yet (observed ${String(observed)})` };
  }
  const stalled = condition(status, 'Stalled');
  if (stalled?.status === 'True') return { state: 'failed', reason: String(stalled.reason ?? 'Stalled'), message: String(stalled.message ?? '') };
  const ready = condition(status, 'Ready');
  if (ready) {
    if (ready.status === 'True') return isFlux && observed === undefined ? { state: 'inProgress', message: 'Ready=True but no observedGeneration yet' } : { state: 'current' };
    return { state: 'inProgress', message: `Ready=${String(ready.status)}${ready.reason ? ` (${String(ready.reason)}${ready.message ? `: ${String(ready.message)}` : ''})` : ''}` };
  }
  if (isFlux) return { state: 'inProgress', message: 'waiting for the Flux controller to report Ready' };
  return { state: 'current' };
}
