/**
 * Workspace termination, exactly as the implementation plan of docs/gitlab-behaviour.md#workspace-termination for agentk's
 * `handleDesiredStateIsTerminated` (docs/gitlab-behaviour.md#workspace-termination), one reconciliation cycle at a time:
 *
 * 1. actual state already Terminated → forget the workspace (tracker entry removed);
 * 2. read the inventory ConfigMaps named in `config_to_apply`;
 * 3. shared mode and no inventory found, or unique mode and no namespace → Terminated;
 * 4. an inventory still tracks objects (non-empty `data`) → apply the termination config (it prunes
 *    them) → Terminating;
 * 5. delete the inventory ConfigMaps (shared) or the namespace (unique) → Terminating (until gone).
 *
 * {@link runTermination} repeats cycles, waiting on watches for what the last cycle deleted, until
 * the workspace is Terminated, reporting progress only when it changes (agentk's `updateOrSet`, docs/gitlab-behaviour.md#workspace-termination).
 */
import { readInventory, inventoryRef, deleteInventory, type ParsedInventory } from '../inventory/index';
import { INVENTORY_ID_LABEL } from '../inventory/configMap';
import { withPreferredVersion } from '../kube/discovery';
import { formatRef, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { waitUntilGone } from '../kube/watch';
import { SILENT_PROGRESS, type OperationOptions } from '../progress';
import { reportStep } from '../progressSteps';
import type { TerminationProgress } from './actualState';
import { isInventoryObject, parseConfigToApply, type InventoryGroup, type ManifestObject } from './configToApply';
import { applyInventoryGroup } from './inventoryApply';
import { AGENTK_FIELD_MANAGER, workspaceInventoryNames, workspaceLockSubject, workspaceNamespace, workspaceOfInventory } from './names';
import { lockRef, withOperationLock } from '../operationLock';
import { cascadeLines, namespaceContents, takesOthers } from '../prune/index';
import { TerminationTracker } from './terminationTracker';

export interface TerminationTarget {
  /** The workspace name (the Deployment's name). */
  readonly name: string;
  /** Its namespace: the shared namespace, or `gl-rd-ns-<name>` in unique mode. */
  readonly namespace: string;
  readonly mode: 'unique' | 'shared';
  /**
   * The termination `config_to_apply` (its inventory ConfigMaps, docs/gitlab-behaviour.md#workspace-termination). Absent: the two
   * inventories Rails always generates, `<name>-workspace-inventory` and `<name>-secrets-inventory`
   * (docs/gitlab-behaviour.md#workspace-names-and-namespaces), in `namespace`.
   */
  readonly configToApply?: string;
  /** The actual state Rails holds (`Terminated` means: forget it). */
  readonly actualState?: string;
}

export type CycleStep = 'forgotten' | 'nothingLeft' | 'prunedObjects' | 'deletedInventories' | 'deletedNamespace';

export interface CycleResult {
  /** undefined once forgotten (step 1). */
  readonly progress: TerminationProgress | undefined;
  readonly step: CycleStep;
  /** What this cycle deleted (or would delete, in a dry run), for the report. */
  readonly deleted: readonly string[];
  /** Objects whose disappearance the next cycle waits for. */
  readonly waitFor: readonly ObjectRef[];
}

export interface TerminationOptions extends OperationOptions {
  /** Reads only; the cycle says what it would do. */
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
}

const NAMESPACE_REF = (name: string): ObjectRef => ({ group: '', version: 'v1', kind: 'Namespace', namespace: '', name });

/** The inventory ConfigMaps to read: from the payload, or the two of docs/gitlab-behaviour.md#workspace-names-and-namespaces. */
function inventoryObjects(target: TerminationTarget): ClusterOutcome<ManifestObject[]> {
  if (target.configToApply === undefined) {
    return ok(
      Object.values(workspaceInventoryNames(target.name)).map((name) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: target.namespace, labels: { [INVENTORY_ID_LABEL]: name } },
      })),
    );
  }
  const parsed = parseConfigToApply(target.configToApply);
  if (!parsed.ok) return { type: 'invalid', causes: [], message: parsed.error };
  const inventories = parsed.value.map((o) => o.object).filter(isInventoryObject);
  if (inventories.length === 0) return { type: 'invalid', causes: [], message: 'no inventory found' };
  const foreign = inventories.find((cm) => workspaceOfInventory(cm.metadata.name) !== target.name);
  if (foreign) {
    const { workspace, secrets } = workspaceInventoryNames(target.name);
    return { type: 'refused', message: `the termination config names inventory ${foreign.metadata.name}, which is not one of workspace ${target.name}'s (${workspace}, ${secrets}); nothing is deleted` };
  }
  const forged = inventories.find((cm) => cm.metadata.labels?.[INVENTORY_ID_LABEL] !== cm.metadata.name);
  if (forged) return { type: 'refused', message: `the termination config's inventory ${forged.metadata.name} says its id is '${forged.metadata.labels?.[INVENTORY_ID_LABEL]}', but an inventory's id is its own name (Rails sets both alike); nothing is deleted` };
  const outside = inventories.find((cm) => (cm.metadata.namespace ?? target.namespace) !== target.namespace);
  if (outside) return { type: 'refused', message: `inventory ${outside.metadata.name} is in namespace ${outside.metadata.namespace}, not in the workspace's namespace ${target.namespace}` };
  return ok(inventories.map((cm) => ({ ...cm, metadata: { ...cm.metadata, namespace: target.namespace } })));
}

/** Unique mode deletes a whole namespace: only ever the workspace's own `gl-rd-ns-<name>`. */
function namespaceGuard(target: TerminationTarget): ClusterOutcome<void> {
  const expected = workspaceNamespace(target.name);
  if (target.mode === 'unique' && target.namespace !== expected) {
    return { type: 'refused', ref: NAMESPACE_REF(target.namespace), message: `in unique-namespace mode a workspace's namespace is ${expected}; refusing to delete namespace ${target.namespace}` };
  }
  return ok(undefined);
}

/** The namespace's phase (`Active`, `Terminating`) and uid, or undefined when it does not exist. */
async function namespacePhase(session: ClusterSession, name: string): Promise<ClusterOutcome<{ phase: string; uid?: string } | undefined>> {
  try {
    const namespace = await session.core.readNamespace({ name });
    return ok({ phase: namespace.status?.phase ?? 'Active', ...(namespace.metadata?.uid ? { uid: namespace.metadata.uid } : {}) });
  } catch (err) {
    const failure = outcomeFromError(err, NAMESPACE_REF(name));
    return failure.type === 'notFound' ? ok(undefined) : failure;
  }
}

/** Full refs (with versions) of inventory entries, for watching them disappear. */
async function watchableRefs(session: ClusterSession, inventories: readonly ParsedInventory[]): Promise<ObjectRef[]> {
  const refs: ObjectRef[] = [];
  for (const entry of inventories.flatMap((inv) => inv.objects)) {
    const full = await withPreferredVersion(session, entry);
    if (!isFailure(full) && full.value) refs.push(full.value);
  }
  return refs;
}

/** One reconciliation cycle of the plan in docs/gitlab-behaviour.md#workspace-termination; the tracker records the progress with updateOrSet. */
export async function terminateWorkspace(
  session: ClusterSession,
  target: TerminationTarget,
  tracker: TerminationTracker,
  options: TerminationOptions = {},
): Promise<ClusterOutcome<CycleResult>> {
  const settle = (progress: TerminationProgress, step: CycleStep, deleted: string[] = [], waitFor: ObjectRef[] = []): ClusterOutcome<CycleResult> => {
    if (!options.dryRun) tracker.updateOrSet(target.name, target.namespace, progress);
    return ok({ progress, step, deleted, waitFor });
  };
  // 1.
  if (target.actualState === 'Terminated') {
    tracker.remove(target.name, target.namespace);
    return ok({ progress: undefined, step: 'forgotten', deleted: [], waitFor: [] });
  }
  const guard = namespaceGuard(target);
  if (isFailure(guard)) return guard;
  const wanted = inventoryObjects(target);
  if (isFailure(wanted)) return wanted;

  // 2. In unique mode the namespace decides first: without it nothing can be left (and reading
  // inventories in a missing namespace is pointless).
  let namespaceUid: string | undefined;
  if (target.mode === 'unique') {
    const phase = await namespacePhase(session, target.namespace);
    if (isFailure(phase)) return phase;
    if (phase.value === undefined) return settle('Terminated', 'nothingLeft'); // 3.
    // Step 5 already ran (a crash or an earlier run): the namespace controller removes what is left,
    // and a terminating namespace accepts no new objects, not even a recreated inventory.
    if (phase.value.phase === 'Terminating') return settle('Terminating', 'deletedNamespace', [], [NAMESPACE_REF(target.namespace)]);
    namespaceUid = phase.value.uid;
  }
  const found: { payload: ManifestObject; live: ParsedInventory }[] = [];
  for (const payload of wanted.value) {
    const live = await readInventory(session, { name: payload.metadata.name, namespace: target.namespace });
    if (isFailure(live)) return live;
    if (live.value) found.push({ payload, live: live.value });
  }
  // A namespace without the workspace's inventory was not made for it (a mistyped name, another
  // agent's namespace): it is not the workspace's to delete.
  if (target.mode === 'unique' && found.length === 0) {
    return { type: 'refused', ref: NAMESPACE_REF(target.namespace), message: `namespace ${target.namespace} holds no inventory of workspace ${target.name}, so it was not made for that workspace (is the name right?); nothing is deleted` };
  }
  // 3.
  if (target.mode === 'shared' && found.length === 0) return settle('Terminated', 'nothingLeft');

  // 4. Objects still tracked: the termination config (inventories without objects) prunes them.
  const tracking = found.filter((f) => f.live.objects.length > 0);
  if (tracking.length > 0) {
    const deleted: string[] = [];
    const waitFor: ObjectRef[] = [];
    for (const { payload, live } of tracking) {
      if (options.signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
      if (options.dryRun) {
        deleted.push(...live.objects.map((o) => `${o.kind} ${o.namespace}/${o.name}`));
        continue;
      }
      const group: InventoryGroup = { inventory: payload, objects: [] };
      const result = await applyInventoryGroup(session, group, { fieldManager: options.fieldManager ?? AGENTK_FIELD_MANAGER, signal: options.signal, stored: live });
      if (isFailure(result)) return result;
      deleted.push(...result.value.pruned.map((o) => `${o.kind} ${o.namespace}/${o.name}`));
      waitFor.push(...(await watchableRefs(session, [{ ...live, objects: result.value.terminating }])));
    }
    return settle('Terminating', 'prunedObjects', deleted, waitFor);
  }

  // 5.
  if (target.mode === 'shared') {
    const deleted: string[] = [];
    for (const { live } of found) {
      if (!options.dryRun) {
        const outcome = await deleteInventory(session, live);
        if (isFailure(outcome)) return outcome;
      }
      deleted.push(`ConfigMap ${live.namespace}/${live.name}`);
    }
    return settle('Terminating', 'deletedInventories', deleted, found.map((f) => inventoryRef(f.live)));
  }
  // Only a namespace that holds nothing but the workspace's own (its emptied inventories, its lock).
  const ours = new Set([...Object.values(workspaceInventoryNames(target.name)).map((name) => refKey(inventoryRef({ name, namespace: target.namespace }))), refKey(lockRef(workspaceLockSubject(target.name, target.namespace)))]);
  const contents = await namespaceContents(session, target.namespace, ours);
  if (isFailure(contents)) return contents;
  if (takesOthers(contents.value)) {
    return {
      type: 'refused',
      ref: NAMESPACE_REF(target.namespace),
      message: `namespace ${target.namespace} is not deleted: it holds objects workspace ${target.name} did not create.\n${cascadeLines([contents.value]).join('\n')}\nMove or delete them, then terminate the workspace again.`,
    };
  }
  if (!options.dryRun) {
    try {
      await session.core.deleteNamespace({ name: target.namespace, body: { preconditions: { uid: namespaceUid } } });
    } catch (err) {
      const failure = outcomeFromError(err, NAMESPACE_REF(target.namespace));
      if (failure.type === 'conflict') return { type: 'refused', ref: NAMESPACE_REF(target.namespace), message: `namespace ${target.namespace} was replaced by another one during the termination; it is not deleted` };
      if (failure.type !== 'notFound') return failure;
    }
  }
  return settle('Terminating', 'deletedNamespace', [`Namespace ${target.namespace}`], [NAMESPACE_REF(target.namespace)]);
}

export interface TerminationRun {
  readonly progress: TerminationProgress | undefined;
  readonly cycles: readonly CycleResult[];
  /** The progress values reported, in order: each one only when it changed (docs/gitlab-behaviour.md#workspace-termination). */
  readonly reported: readonly TerminationProgress[];
}

/** Default upper bound of a whole termination. */
const DEFAULT_TIMEOUT_MS = 300_000;

/**
 * Repeats {@link terminateWorkspace} until the workspace is Terminated (or forgotten), waiting with
 * watches for what each cycle deleted. A dry run performs one cycle.
 */
export async function runTermination(
  session: ClusterSession,
  target: TerminationTarget,
  options: TerminationOptions & { tracker?: TerminationTracker } = {},
): Promise<ClusterOutcome<TerminationRun>> {
  const tracker = options.tracker ?? new TerminationTracker();
  const progress = options.progress ?? SILENT_PROGRESS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const cycles: CycleResult[] = [];
  const reported: TerminationProgress[] = [];
  const finished = (): TerminationRun => ({ progress: cycles.at(-1)?.progress, cycles, reported });
  // Cycles until the workspace is Terminated ('done'); with `untilNamespaceDeleted`, only until the cycle that deletes its namespace.
  const run = async (signal: AbortSignal | undefined, untilNamespaceDeleted: boolean): Promise<ClusterOutcome<'done' | 'namespaceDeleted'>> => {
    for (;;) {
      if (signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
      const cycle = await terminateWorkspace(session, target, tracker, { ...options, signal });
      if (isFailure(cycle)) return cycle;
      cycles.push(cycle.value);
      // What agentk would send Rails this cycle: only a changed progress.
      for (const report of tracker.unreconciled()) {
        if (report.name !== target.name || report.namespace !== target.namespace) continue;
        reported.push(report.progress);
        reportStep(progress, { kind: 'workspaceProgress', workspace: target.name, progress: report.progress });
      }
      if (options.dryRun || cycle.value.progress !== 'Terminating') return ok('done');
      if (untilNamespaceDeleted && cycle.value.step === 'deletedNamespace') return ok('namespaceDeleted');
      for (const ref of cycle.value.waitFor) {
        const remaining = deadline - Date.now();
        const gone = await waitUntilGone(session, ref, { signal, timeoutMs: Math.max(1, remaining) });
        if (isFailure(gone)) {
          return gone.type === 'timeout'
            ? { type: 'timeout', ref, message: `workspace ${target.name} is still Terminating after ${Math.round(timeoutMs / 1000)} s: ${formatRef(ref)} is not gone yet (finalizers: look at the object)` }
            : gone;
        }
      }
      if (Date.now() >= deadline) return { type: 'timeout', message: `workspace ${target.name} is still Terminating after ${Math.round(timeoutMs / 1000)} s` };
    }
  };
  const unlocked = async (): Promise<ClusterOutcome<TerminationRun>> => {
    const outcome = await run(options.signal, false);
    return isFailure(outcome) ? outcome : ok(finished());
  };
  if (options.dryRun || target.actualState === 'Terminated') return unlocked();
  // The lock lives in the workspace's namespace: a namespace being deleted takes it along (and
  // accepts no new one), so what remains after the namespace's deletion runs without it.
  if (target.mode === 'unique') {
    const phase = await namespacePhase(session, target.namespace);
    if (isFailure(phase)) return phase;
    if (phase.value?.phase !== 'Active') return unlocked();
  }
  const locked = await withOperationLock(session, workspaceLockSubject(target.name, target.namespace), 'workspace terminate', options, (signal) => run(signal, target.mode === 'unique'));
  if (isFailure(locked)) return locked;
  return locked.value === 'done' ? ok(finished()) : unlocked();
}
