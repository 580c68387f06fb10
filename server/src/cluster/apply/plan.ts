/**
 * Before anything changes: the live objects read (in one batch), every guard asked, and — for a plan
 * a person reviews — a server-side dry-run of every object (and of every prune): per object
 * create/update/unchanged, the live and proposed YAML, a unified diff, and the field managers a
 * forced apply would take fields from. A plan nobody reviews (`preview: false`) skips the dry-runs:
 * the apply itself is the server's verdict, so they would only double the requests.
 */
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { formatRef, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { liveRead, readLiveObjects, type LiveObjects } from '../kube/liveObjects';
import { mayApply, owningInventory, type NamespaceProtection } from '../guards';
import { readInventory } from '../inventory/store';
import type { InventoryRef } from '../kube/objMetadata';
import { isGlobalFailure, namespaceContents, namespacesHoldingInventories, planPrune, type NamespaceContents, type PlannedDeletion, type SkippedEntry } from '../prune/index';
import { readinessOf } from '../readiness';
import type { ParsedInventory } from '../inventory/configMap';
import type { OperationOptions } from '../progress';
import type { InventoryVersion } from '../sincePlan';
import { reportStep } from '../progressSteps';
import type { PreparedEnvironment } from './environment';
import { unifiedDiff } from './diff';
import { comparableYaml } from '../objects/normalize';
import type { Tier } from '../objects/supportedKinds';

/** What applying will do to one object. */
export type ApplyAction = 'create' | 'update' | 'unchanged';

/** One object of the plan. */
export interface PlannedObject {
  readonly ref: ObjectRef;
  readonly tier: Tier;
  readonly action: ApplyAction;
  /** The manifest that will be applied. */
  readonly manifest: KubernetesObject;
  /** The live object, when it exists. */
  readonly live?: KubernetesObject;
  /** Live and proposed objects as YAML without server bookkeeping ('' when absent, and in a plan without preview). */
  readonly liveYaml: string;
  readonly proposedYaml: string;
  /** Unified diff live → proposed; '' when unchanged, and in a plan without preview. */
  readonly diff: string;
  /** Field managers that own fields we set: applying needs force. */
  readonly conflict?: { readonly managers: readonly string[]; readonly message: string };
  /** False when the server has not dry-run it: its namespace is created by this same apply, or the plan has no preview. */
  readonly validated: boolean;
}

export type { SkippedEntry };

/** The reviewed plan that {@link executeApply} carries out. */
export interface ApplyPlan {
  readonly context: string;
  readonly server: string;
  readonly environment: PreparedEnvironment;
  /**
   * Whether every object was dry-run and diffed (see {@link PlanOptions.preview}). Without a preview
   * an existing object's action is `update`: it is applied, and the server decides whether that
   * changes it (the result says which).
   */
  readonly previewed: boolean;
  /** Objects already in the inventory before this apply; undefined when there is no inventory yet. */
  readonly previousInventory: readonly InventoryRef[] | undefined;
  /** The inventory ConfigMap as read (undefined when there is none): the execution writes it only while it is still this one. */
  readonly inventoryVersion?: InventoryVersion;
  /** The stored inventory lacks labels or annotations this apply records on it (e.g. a changed `delete_resources`). */
  readonly inventoryMetadataChanged: boolean;
  /** The agent namespace (inventory home) does not exist and will be created. */
  readonly createsInventoryNamespace: boolean;
  readonly objects: readonly PlannedObject[];
  /** Objects the template no longer renders, to delete (through the pruner). */
  readonly prunes: readonly PlannedDeletion[];
  /** For each namespace to prune: the other objects it holds, which go with it (pruned only when confirmed). */
  readonly pruneCascades: readonly NamespaceContents[];
  /** Existing namespaces this apply adopts, with the objects in them it does not create: a later delete takes them along. */
  readonly adoptions: readonly NamespaceContents[];
  /** Inventory entries dropped without deleting anything (gone already, or refused by a guard). */
  readonly skipped: readonly SkippedEntry[];
  /** Problems that stop the apply before anything changes (unsupported kinds, 403, 422, foreign objects…). */
  readonly blocked: readonly ClusterFailure[];
}

/** Options of {@link planApply}. */
export interface PlanOptions extends OperationOptions {
  /** Take over existing objects no inventory owns (cli-utils AdoptIfNoInventory); default false. */
  readonly adopt?: boolean;
  readonly concurrency?: number;
  /**
   * Dry-run and diff every object and prune, for a person to review (default true). False when
   * nobody will see the plan (`agentcfg apply --yes`): the live objects are still read in one batch
   * and every guard runs (ownership, protected namespaces, adoption, cascades), but nothing is
   * dry-run — a conflict (409), a forbidden (403) or an invalid object (422) then comes from the apply
   * itself, with the same message, after the objects before it were applied (the inventory already
   * tracks them all).
   */
  readonly preview?: boolean;
}

/** Objects of the plan that conflict with other field managers. */
export function conflictsOf(plan: ApplyPlan): PlannedObject[] {
  return plan.objects.filter((o) => o.conflict !== undefined);
}

/** Whether executing the plan would change nothing. */
export function isNoop(plan: ApplyPlan): boolean {
  return (
    plan.blocked.length === 0 &&
    !plan.createsInventoryNamespace &&
    !plan.inventoryMetadataChanged &&
    plan.prunes.length === 0 &&
    plan.skipped.length === 0 &&
    plan.previousInventory !== undefined &&
    // An object not ready (a re-run after a readiness timeout) still has something to wait for.
    plan.objects.every((o) => o.action === 'unchanged' && readinessOf(o.live).state === 'current') &&
    sameRefs(plan.previousInventory, plan.objects.map((o) => o.ref))
  );
}

/** Whether every label and annotation the environment records on its inventory is there already. */
function recordsMetadata(stored: ParsedInventory, env: PreparedEnvironment): boolean {
  const has = (live: Readonly<Record<string, string>>, wanted: Readonly<Record<string, string>>) => Object.entries(wanted).every(([k, v]) => live[k] === v);
  return has(stored.labels, env.inventoryLabels) && has(stored.annotations, env.inventoryAnnotations);
}

/** Whether two lists name the same objects (order and versions ignored). */
export function sameRefs(a: readonly InventoryRef[], b: readonly InventoryRef[]): boolean {
  const keys = new Set(a.map(refKey));
  return a.length === b.length && keys.size === new Set(b.map(refKey)).size && b.every((r) => keys.has(refKey(r)));
}

function dryRunApply(session: ClusterSession, manifest: KubernetesObject, force: boolean): Promise<KubernetesObject> {
  // client-node fills defaults into the spec it is given: send a copy.
  return session.objects.patch(structuredClone(manifest), undefined, 'All', session.fieldManager, force, PatchStrategy.ServerSideApply);
}

/** Dry-run without force; on a 409, the managers, and the dry-run with force for the proposed object. */
async function dryRunWithConflicts(session: ClusterSession, manifest: KubernetesObject, ref: ObjectRef): Promise<ClusterOutcome<{ proposed: KubernetesObject; conflict?: PlannedObject['conflict'] }>> {
  try {
    return ok({ proposed: await dryRunApply(session, manifest, false) });
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    if (failure.type !== 'conflict') return failure;
    try {
      return ok({ proposed: await dryRunApply(session, manifest, true), conflict: { managers: failure.managers, message: failure.message } });
    } catch (forced) {
      return outcomeFromError(forced, ref);
    }
  }
}

/** What planning one object needs besides the object. */
interface ObjectContext {
  readonly env: PreparedEnvironment;
  readonly newNamespaces: ReadonlySet<string>;
  readonly adopt: boolean;
  readonly preview: boolean;
  readonly batch: LiveObjects;
  readonly protection: NamespaceProtection;
  /** refKeys the stored inventory lists: only these can be the environment's already. */
  readonly listed: ReadonlySet<string>;
}

async function planObject(session: ClusterSession, index: number, c: ObjectContext): Promise<PlannedObject | ClusterFailure> {
  const { ref, tier, manifest } = c.env.objects[index];
  const live = await liveRead(session, c.batch, ref);
  if (isFailure(live)) return live;
  const guard = mayApply(ref, live.value, { inventory: c.env.inventory.name, listed: c.listed.has(refKey(ref)), adopt: c.adopt }, c.protection);
  if (!guard.allowed) {
    const hint = 'adoptable' in guard ? '; apply with adoption to take it over (it would then be deleted with the environment)' : '';
    return { type: 'refused', ref, message: `${formatRef(ref)} is not applied: ${guard.reason}${hint}` };
  }
  if (!c.preview) {
    // Nobody reviews this plan: the apply is the server's verdict, and the diff would go unread.
    return { ref, tier, action: live.value === undefined ? 'create' : 'update', manifest, ...(live.value ? { live: live.value } : {}), liveYaml: '', proposedYaml: '', diff: '', validated: false };
  }
  const liveYaml = comparableYaml(live.value);
  let proposed: KubernetesObject;
  let conflict: PlannedObject['conflict'];
  let validated = true;
  if (live.value === undefined && c.newNamespaces.has(ref.namespace)) {
    // Its namespace is created by this same apply: the server cannot dry-run it yet (it would answer
    // 404); the namespace's own dry-run passed, and the object is validated when it is applied.
    proposed = manifest;
    validated = false;
  } else {
    const dry = await dryRunWithConflicts(session, manifest, ref);
    if (dry.type !== 'ok') return dry;
    proposed = dry.value.proposed;
    conflict = dry.value.conflict;
  }
  const proposedYaml = comparableYaml(proposed);
  const action: ApplyAction = live.value === undefined ? 'create' : proposedYaml === liveYaml ? 'unchanged' : 'update';
  const label = formatRef(ref);
  return {
    ref,
    tier,
    action,
    manifest,
    ...(live.value ? { live: live.value } : {}),
    liveYaml,
    proposedYaml,
    diff: action === 'unchanged' ? '' : unifiedDiff(liveYaml, proposedYaml, { old: `${label} (live)`, new: `${label} (proposed)` }),
    ...(conflict ? { conflict } : {}),
    validated,
  };
}

/** Whether the inventory namespace must be created (unknown when the identity cannot read namespaces: assumed present). */
async function inventoryNamespaceMissing(session: ClusterSession, namespace: string): Promise<ClusterOutcome<boolean>> {
  try {
    await session.core.readNamespace({ name: namespace });
    return ok(false);
  } catch (err) {
    const failure = outcomeFromError(err, { group: '', version: 'v1', kind: 'Namespace', namespace: '', name: namespace });
    if (failure.type === 'notFound') return ok(true);
    if (failure.type === 'forbidden') return ok(false);
    return failure;
  }
}

/** Reads, checks and (with a preview) dry-runs and diffs everything an apply of `env` would do. Changes nothing. */
export async function planApply(session: ClusterSession, env: PreparedEnvironment, options: PlanOptions = {}): Promise<ClusterOutcome<ApplyPlan>> {
  const progress = options.progress;
  const preview = options.preview ?? true;
  const blocked: ClusterFailure[] = env.problems.map((p) => ({ type: 'refused', ...(p.ref ? { ref: p.ref } : {}), message: p.message }));
  reportStep(progress, { kind: 'readInventory', inventory: env.inventory });
  const stored = await readInventory(session, env.inventory);
  if (isFailure(stored)) {
    if (isGlobalFailure(stored)) return stored;
    blocked.push(stored);
  }
  const previous = !isFailure(stored) && stored.value ? stored.value.objects : undefined;
  const inventoryMetadataChanged = !isFailure(stored) && stored.value !== undefined && !recordsMetadata(stored.value, env);
  let createsInventoryNamespace = false;
  if (!isFailure(stored) && !stored.value) {
    const missing = await inventoryNamespaceMissing(session, env.inventory.namespace);
    if (isFailure(missing)) return missing;
    createsInventoryNamespace = missing.value;
  }
  if (options.signal?.aborted) return { type: 'cancelled', message: 'cancelled' };

  const newNamespaces = new Set<string>();
  const planned: PlannedObject[] = [];
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // Namespaces first: whether they exist decides how their contents can be dry-run.
  const namespaceIndexes = env.objects.map((o, i) => (o.tier === 'namespaces' ? i : -1)).filter((i) => i >= 0);
  const otherIndexes = env.objects.map((o, i) => (o.tier !== 'namespaces' ? i : -1)).filter((i) => i >= 0);
  let done = 0;
  reportStep(progress, { kind: 'readLiveObjects', count: env.objects.length });
  const batch = await readLiveObjects(session, env.objects.map((o) => o.ref), concurrency);
  // A namespace that holds any other inventory (another environment's or agent's) is never ours.
  // Only existing namespaces not ours yet are asked: a missing one holds nothing, ours we created.
  const listed = new Set((previous ?? []).map(refKey));
  const ours = (ref: ObjectRef, live: KubernetesObject): boolean => owningInventory(live) === env.inventory.name && listed.has(refKey(ref));
  const toAdopt = namespaceIndexes.map((i) => env.objects[i].ref).filter((ref) => {
    const live = batch.get(refKey(ref));
    return live?.type === 'ok' && live.value !== undefined && !ours(ref, live.value);
  });
  const holding = await namespacesHoldingInventories(session, toAdopt.map((ref) => ref.name), env.inventory);
  if (isFailure(holding)) return holding;
  const protection: NamespaceProtection = { agentNamespace: env.inventory.namespace, holdingInventories: holding.value };
  const context: ObjectContext = { env, newNamespaces, adopt: options.adopt ?? false, preview, batch, protection, listed };
  for (const indexes of [namespaceIndexes, otherIndexes]) {
    const results = await mapBounded(indexes, concurrency, async (i) => {
      if (options.signal?.aborted) return { type: 'cancelled', message: 'cancelled' } as ClusterFailure;
      const result = await planObject(session, i, context);
      // Without a preview each object is only checked against what was read: nothing to report.
      if (preview) {
        const checked = 'type' in result ? 'blocked' : result.validated ? 'dryRun' : 'later';
        reportStep(progress, { kind: 'dryRun', ref: env.objects[i].ref, done: ++done, total: env.objects.length, checked }, Math.round((done * 100) / Math.max(1, env.objects.length)));
      }
      return result;
    });
    for (const r of results) {
      if ('type' in r) {
        if (isGlobalFailure(r)) return r;
        blocked.push(r);
      } else {
        planned.push(r);
        if (r.ref.kind === 'Namespace' && r.action === 'create') newNamespaces.add(r.ref.name);
      }
    }
  }

  const desiredKeys = new Set(env.objects.map((o) => refKey(o.ref)));
  const stale = (previous ?? []).filter((r) => !desiredKeys.has(refKey(r)));
  const pruned = await planPrune(session, stale, { inventory: env.inventory, agentNamespace: env.inventory.namespace, templateKindsOnly: true, dryRunFirst: preview, verb: 'pruned', ours: desiredKeys }, options);
  if (isFailure(pruned)) return pruned;
  blocked.push(...pruned.value.blocked);
  // Adopting a namespace makes its later deletion ours: say what else it holds.
  const adoptions: NamespaceContents[] = [];
  for (const adopted of planned.filter((p) => p.ref.kind === 'Namespace' && p.ref.group === '' && p.live && !ours(p.ref, p.live))) {
    const contents = await namespaceContents(session, adopted.ref.name, desiredKeys);
    if (isFailure(contents)) return contents;
    adoptions.push(contents.value);
  }
  const order = new Map(env.objects.map((o, i) => [refKey(o.ref), i]));
  planned.sort((a, b) => (order.get(refKey(a.ref)) ?? 0) - (order.get(refKey(b.ref)) ?? 0));
  return ok({
    context: session.context,
    server: session.server,
    environment: env,
    previewed: preview,
    previousInventory: previous,
    ...(!isFailure(stored) && stored.value ? { inventoryVersion: { uid: stored.value.uid, resourceVersion: stored.value.resourceVersion } } : {}),
    inventoryMetadataChanged,
    createsInventoryNamespace,
    objects: planned,
    prunes: pruned.value.deletions,
    pruneCascades: pruned.value.cascades,
    adoptions,
    skipped: pruned.value.skipped,
    blocked,
  });
}
