/**
 * The one pruner's planning half, used by environment prune (apply), environment delete (destroy)
 * and workspace pruning and termination: from inventory entries to the objects that will be
 * deleted, each passed through the same filters, as cli-utils' prune filters do:
 * 1. the entry names a valid object (no name can change a request path) and, for workspaces, one
 *    in the workspace's namespace, for environments one of a kind a template may create —
 *    otherwise the whole operation is refused (a tampered inventory);
 * 2. the live object is the one the entry names (group, kind, namespace, name) — refused otherwise;
 * 3. protected namespaces are never deleted; objects another inventory (or none) owns, and objects
 *    marked keep/detach, are left alone (skipped, with the reason);
 * 4. optionally each deletion is proven with a server-side dry-run delete;
 * 5. a Namespace to delete is listed with what else it holds (the cascade), which the execution
 *    deletes only when that is confirmed.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { comparableYaml } from '../objects/normalize';
import { supportedKind, tierOf, type Tier } from '../objects/supportedKinds';
import { entryProblem, identityMismatch, mayDelete, owningInventory, type NamespaceProtection } from '../guards';
import { encodeObjMetadata, type InventoryRef } from '../kube/objMetadata';
import { listInventories } from '../inventory/store';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { withPreferredVersion } from '../kube/discovery';
import { readLiveObjects } from '../kube/liveObjects';
import { refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { namespaceContents, type NamespaceContents } from './namespaceContents';

/** Whose objects are pruned, and what bounds the pruning. */
export interface PruneScope {
  /** The inventory whose objects these are (its name is its id): the one inventory a namespace may hold and still be deleted. */
  readonly inventory: { readonly name: string; readonly namespace: string };
  /** The agent's namespace, never deleted; undefined where unknown (workspaces). */
  readonly agentNamespace?: string;
  /** Workspaces: every entry must be in this namespace. */
  readonly onlyNamespace?: string;
  /** Environments: every entry must be of a kind a template may create (no environment made any other). */
  readonly templateKindsOnly?: boolean;
  /** Prove each deletion with a server-side dry-run delete (a preview that a person confirms). */
  readonly dryRunFirst: boolean;
  /** Every object the operation keeps or creates (refKeys): not counted as "other" objects of a namespace it deletes. */
  readonly ours?: ReadonlySet<string>;
  /** 'pruned' or 'deleted', for the reasons. */
  readonly verb: 'pruned' | 'deleted';
}

/** One object to delete. */
export interface PlannedDeletion {
  readonly ref: ObjectRef;
  readonly tier: Tier;
  readonly live: KubernetesObject;
  readonly liveYaml: string;
}

/** An inventory entry left alone, with the reason (a guard, or it is gone already). */
export interface SkippedEntry {
  readonly ref: InventoryRef;
  readonly reason: string;
  /** True when the object no longer exists (nothing was left behind). */
  readonly gone?: boolean;
  /**
   * The live copy of an object this inventory owns that stays (a protected namespace, or marked
   * keep/detach): its owning-inventory annotation is removed when the inventory lets go of it, as
   * cli-utils abandons such objects, so no later run takes it for the inventory's.
   */
  readonly abandoned?: KubernetesObject;
}

/** What the pruner will do. */
export interface PrunePlan {
  readonly deletions: readonly PlannedDeletion[];
  readonly skipped: readonly SkippedEntry[];
  /** Problems that stop the whole operation before anything is deleted. */
  readonly blocked: readonly ClusterFailure[];
  /** For each Namespace to delete: what it holds besides our objects. */
  readonly cascades: readonly NamespaceContents[];
  /** refKeys of what the operation keeps, creates or deletes: not "other objects" of a namespace it deletes. */
  readonly ours: ReadonlySet<string>;
}

/** Failures that concern the whole cluster, not one object: they end the plan. */
export function isGlobalFailure(failure: ClusterFailure): boolean {
  return failure.type === 'unreachable' || failure.type === 'unauthorized' || failure.type === 'cancelled' || failure.type === 'timeout';
}

function refusal(entry: InventoryRef, scope: PruneScope, why: string): ClusterFailure {
  return {
    type: 'refused',
    ref: { ...entry, version: '*' },
    message: `inventory ${scope.inventory.namespace}/${scope.inventory.name} lists "${encodeObjMetadata(entry)}", but ${why}; the inventory was changed by hand or by another tool. Nothing is ${scope.verb}: remove that entry from the inventory ConfigMap first.`,
  };
}

/** Checks that need no cluster: a valid name, and inside the workspace's namespace. */
function entryRefusal(entry: InventoryRef, scope: PruneScope): ClusterFailure | undefined {
  const problem = entryProblem(entry);
  if (problem) return refusal(entry, scope, `that is no valid Kubernetes object: ${problem}`);
  if (scope.templateKindsOnly && !supportedKind(entry.group, entry.kind)) {
    return refusal(entry, scope, `an environment template can never create a ${entry.group ? `${entry.kind} (${entry.group})` : entry.kind}, so no environment made it`);
  }
  if (scope.onlyNamespace !== undefined && entry.namespace !== scope.onlyNamespace) {
    return refusal(entry, scope, entry.namespace === '' ? `a workspace never owns cluster-scoped objects` : `that object is outside the workspace's namespace '${scope.onlyNamespace}'`);
  }
  return undefined;
}

/**
 * Namespaces among the candidates that hold an inventory ConfigMap besides the operation's own
 * (another environment's, another agent's, a workspace's): they are protected. A namespace whose
 * ConfigMaps cannot be listed cannot be shown free of inventories, and is refused.
 */
export async function namespacesHoldingInventories(session: ClusterSession, candidates: readonly string[], own: PruneScope['inventory']): Promise<ClusterOutcome<Set<string>>> {
  const holding = new Set<string>();
  for (const namespace of candidates) {
    const found = await listInventories(session, namespace);
    if (isFailure(found)) {
      if (isGlobalFailure(found)) return found;
      holding.add(namespace);
      continue;
    }
    if (found.value.some((inv) => !(inv.name === own.name && inv.namespace === own.namespace))) holding.add(namespace);
  }
  return ok(holding);
}

async function proveDeletion(session: ClusterSession, ref: ObjectRef, live: KubernetesObject): Promise<ClusterOutcome<'ok' | 'gone'>> {
  try {
    await session.objects.delete(structuredClone(live), undefined, 'All');
    return ok('ok');
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok('gone') : failure;
  }
}

/** Reads every entry's live object and decides, per entry, delete, skip or refuse. Changes nothing. */
export async function planPrune(session: ClusterSession, entries: readonly InventoryRef[], scope: PruneScope, options: { signal?: AbortSignal; concurrency?: number } = {}): Promise<ClusterOutcome<PrunePlan>> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const blocked: ClusterFailure[] = [];
  const skipped: SkippedEntry[] = [];
  const resolved: { entry: InventoryRef; ref: ObjectRef }[] = [];
  for (const entry of entries) {
    const refused = entryRefusal(entry, scope);
    if (refused) {
      blocked.push(refused);
      continue;
    }
    const full = await withPreferredVersion(session, entry);
    if (isFailure(full)) return full;
    if (full.value) resolved.push({ entry, ref: full.value });
    else skipped.push({ ref: entry, reason: `already gone (the cluster no longer serves group ${entry.group})`, gone: true });
  }
  if (blocked.length > 0) return ok({ deletions: [], skipped, blocked, cascades: [], ours: new Set(scope.ours) });

  const batch = await readLiveObjects(session, resolved.map((r) => r.ref), concurrency);
  const present: { entry: InventoryRef; ref: ObjectRef; live: KubernetesObject }[] = [];
  for (const { entry, ref } of resolved) {
    const live = batch.get(refKey(ref));
    if (!live) continue;
    if (isFailure(live)) {
      if (isGlobalFailure(live)) return live;
      blocked.push(live);
    } else if (!live.value) skipped.push({ ref: entry, reason: 'already gone', gone: true });
    else {
      const mismatch = identityMismatch(entry, live.value);
      if (mismatch) blocked.push(refusal(entry, scope, mismatch));
      else present.push({ entry, ref, live: live.value });
    }
  }

  const namespaceCandidates = present.filter((p) => p.ref.group === '' && p.ref.kind === 'Namespace').map((p) => p.ref.name);
  const holding = await namespacesHoldingInventories(session, namespaceCandidates, scope.inventory);
  if (isFailure(holding)) return holding;
  const protection: NamespaceProtection = { agentNamespace: scope.agentNamespace, holdingInventories: holding.value };

  const deletions: PlannedDeletion[] = [];
  const decided = await mapBounded(present, concurrency, async ({ entry, ref, live }): Promise<PlannedDeletion | SkippedEntry | ClusterFailure> => {
    if (options.signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
    const guard = mayDelete(entry, live, scope.inventory.name, protection);
    if (!guard.allowed) return { ref: entry, reason: `not ${scope.verb}: ${guard.reason}`, ...(owningInventory(live) === scope.inventory.name ? { abandoned: live } : {}) };
    if (scope.dryRunFirst) {
      const proven = await proveDeletion(session, ref, live);
      if (isFailure(proven)) return proven;
      if (proven.value === 'gone') return { ref: entry, reason: 'already gone', gone: true };
    }
    return { ref, tier: tierOf(ref.group, ref.kind), live, liveYaml: comparableYaml(live) };
  });
  for (const d of decided) {
    if ('type' in d) {
      if (isGlobalFailure(d)) return d;
      blocked.push(d);
    } else if ('live' in d) deletions.push(d);
    else skipped.push(d);
  }

  // Only what this operation deletes itself is ours; a tracked object it leaves alone (another
  // inventory's) would go with the namespace, so it is listed too.
  const ours = new Set([...(scope.ours ?? []), ...deletions.map((d) => refKey(d.ref))]);
  const cascades: NamespaceContents[] = [];
  for (const d of deletions.filter((x) => x.ref.group === '' && x.ref.kind === 'Namespace')) {
    const contents = await namespaceContents(session, d.ref.name, ours);
    if (isFailure(contents)) return contents;
    cascades.push(contents.value);
  }
  return ok({ deletions, skipped, blocked, cascades, ours });
}
