/**
 * Applying a workspace's `config_to_apply` as agentk does (docs/gitlab-behaviour.md#inventories, docs/gitlab-behaviour.md#workspace-termination): in
 * unique-namespace mode create the workspace namespace if it is missing; in shared-namespace mode
 * create nothing outside the shared namespace (and need no namespace permission at all); then apply
 * each inventory group with server-side apply, ForceConflicts, as agentk's field manager.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { refFromManifest } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { SILENT_PROGRESS, type OperationOptions } from '../progress';
import { reportStep } from '../progressSteps';
import { describeObject, groupByInventory, parseConfigToApply, type InventoryGroup } from './configToApply';
import { applyInventoryGroup, type InventoryApplyResult } from './inventoryApply';
import { withOperationLock } from '../operationLock';
import { AGENTK_FIELD_MANAGER, INVENTORY_ID_LABEL, workspaceLockSubject, workspaceNamespace, workspaceOfInventory } from './names';

export interface WorkspaceApplyOptions extends OperationOptions {
  /** `remote_development.shared_namespace`: set = shared-namespace mode. */
  readonly sharedNamespace?: string;
  /** Server-side dry-run: nothing is written. */
  readonly dryRun?: boolean;
  /** Default: agentk's field manager, so that the result is owned exactly as agentk would own it. */
  readonly fieldManager?: string;
}

export interface WorkspaceApplyReport {
  readonly mode: 'unique' | 'shared';
  readonly namespace: string;
  /** Unique mode: the namespace did not exist and was created (or would be, in a dry run). */
  readonly namespaceCreated: boolean;
  readonly inventories: readonly InventoryApplyResult[];
}

/** Parses and groups a payload; a problem is an `invalid` outcome naming the line or object. */
export function workspaceGroups(configToApply: string): ClusterOutcome<InventoryGroup[]> {
  const parsed = parseConfigToApply(configToApply);
  if (!parsed.ok) return { type: 'invalid', causes: [], message: parsed.error };
  const grouped = groupByInventory(parsed.value.map((o) => o.object));
  if (!grouped.ok) return { type: 'invalid', causes: [], message: grouped.error };
  return ok(grouped.value);
}

/**
 * The workspace a payload is for. Its inventories must be one workspace's (named as Rails names them, each with its own
 * name as id): applying another inventory — an environment's — would prune the objects it tracks,
 * and an id label naming another workspace's inventory would make that workspace's objects pass as
 * this one's.
 */
function payloadWorkspace(groups: readonly InventoryGroup[]): ClusterOutcome<string> {
  const owners = new Set(groups.map((g) => workspaceOfInventory(g.inventory.metadata.name)));
  const foreign = groups.find((g) => workspaceOfInventory(g.inventory.metadata.name) === undefined);
  if (foreign) return { type: 'refused', message: `${describeObject(foreign.inventory)} is not a workspace inventory (<workspace>-workspace-inventory or <workspace>-secrets-inventory); nothing is applied` };
  const forged = groups.find((g) => g.inventory.metadata.labels?.[INVENTORY_ID_LABEL] !== g.inventory.metadata.name);
  if (forged) {
    return { type: 'refused', message: `${describeObject(forged.inventory)} says its inventory id is '${forged.inventory.metadata.labels?.[INVENTORY_ID_LABEL]}', but an inventory's id is its own name (Rails sets both alike); nothing is applied` };
  }
  if (owners.size > 1) return { type: 'refused', message: `the payload names inventories of ${owners.size} workspaces (${[...owners].join(', ')}); a workspace's config names only its own; nothing is applied` };
  return ok([...owners][0]!);
}

/** The one namespace every object of the payload is in, or why there is none. */
function payloadNamespace(groups: readonly InventoryGroup[], sharedNamespace: string | undefined): ClusterOutcome<string> {
  const namespaces = new Set<string>();
  for (const object of groups.flatMap((g) => [g.inventory, ...g.objects])) {
    const ns = object.metadata.namespace;
    if (!ns) return { type: 'invalid', causes: [], message: `${describeObject(object)} has no metadata.namespace (workspace objects are namespaced)` };
    if (sharedNamespace && ns !== sharedNamespace) {
      return { type: 'refused', message: `${describeObject(object)} is outside the shared namespace "${sharedNamespace}"; in shared-namespace mode nothing is created elsewhere` };
    }
    namespaces.add(ns);
  }
  if (namespaces.size !== 1) return { type: 'invalid', causes: [], message: `a workspace lives in one namespace; this config uses ${[...namespaces].join(', ')}` };
  return ok([...namespaces][0]);
}

/**
 * A cluster-scoped object anywhere in the payload, or ok. The API server ignores metadata.namespace
 * on cluster-scoped kinds, so such an object would be created (and later pruned) outside the
 * workspace's namespace whatever the payload says; Rails generates none (docs/gitlab-behaviour.md#workspace-names-and-namespaces).
 */
async function clusterScopedObject(session: ClusterSession, groups: readonly InventoryGroup[]): Promise<ClusterOutcome<void>> {
  for (const object of groups.flatMap((g) => [g.inventory, ...g.objects])) {
    let resource;
    try {
      resource = await session.objects.resourceFor(object.apiVersion, object.kind);
    } catch (err) {
      return outcomeFromError(err, refFromManifest(object as KubernetesObject));
    }
    // An unknown kind is left to the apply, which reports it for the object.
    if (resource && !resource.namespaced) return { type: 'refused', message: `${describeObject(object)} is cluster-scoped; a workspace creates objects only in its namespace` };
  }
  return ok(undefined);
}

/** Creates the namespace when it is missing (agentk: NamespaceExists → CreateNamespace). */
async function ensureNamespace(session: ClusterSession, name: string, dryRun: boolean): Promise<ClusterOutcome<boolean>> {
  const ref = { group: '', version: 'v1', kind: 'Namespace', namespace: '', name };
  try {
    await session.core.readNamespace({ name });
    return ok(false);
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    if (failure.type !== 'notFound') return failure;
  }
  try {
    await session.core.createNamespace({ body: { metadata: { name } }, ...(dryRun ? { dryRun: 'All' } : {}) });
    return ok(true);
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'conflict' ? ok(false) : failure; // created meanwhile
  }
}

/** Applies `configToApply` (docs/gitlab-behaviour.md#workspace-termination). */
export async function applyWorkspace(session: ClusterSession, configToApply: string, options: WorkspaceApplyOptions = {}): Promise<ClusterOutcome<WorkspaceApplyReport>> {
  const progress = options.progress ?? SILENT_PROGRESS;
  const groups = workspaceGroups(configToApply);
  if (isFailure(groups)) return groups;
  const sharedNamespace = options.sharedNamespace || undefined;
  const workspace = payloadWorkspace(groups.value);
  if (isFailure(workspace)) return workspace;
  const namespace = payloadNamespace(groups.value, sharedNamespace);
  if (isFailure(namespace)) return namespace;
  // Unique mode makes the namespace the workspace's own, to be deleted with it: only ever gl-rd-ns-<name>.
  if (!sharedNamespace && namespace.value !== workspaceNamespace(workspace.value)) {
    return { type: 'refused', message: `in unique-namespace mode workspace ${workspace.value} lives in namespace ${workspaceNamespace(workspace.value)}, not ${namespace.value}; nothing is applied` };
  }
  const scoped = await clusterScopedObject(session, groups.value);
  if (isFailure(scoped)) return scoped;
  const dryRun = options.dryRun === true;

  let namespaceCreated = false;
  if (!sharedNamespace) {
    const created = await ensureNamespace(session, namespace.value, dryRun);
    if (isFailure(created)) return created;
    namespaceCreated = created.value;
    if (namespaceCreated) reportStep(progress, { kind: 'workspaceNamespace', namespace: namespace.value, dryRun });
    // A server-side dry-run of objects in a namespace that does not exist yet can only fail.
    if (dryRun && namespaceCreated) return ok({ mode: 'unique', namespace: namespace.value, namespaceCreated, inventories: [] });
  }

  const applyGroups = async (signal: AbortSignal | undefined): Promise<ClusterOutcome<WorkspaceApplyReport>> => {
    const inventories: InventoryApplyResult[] = [];
    for (const [i, group] of groups.value.entries()) {
      if (signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
      reportStep(progress, { kind: 'workspaceInventory', inventory: group.inventory.metadata.name, objects: group.objects.length, index: i, total: groups.value.length }, Math.round((i * 100) / groups.value.length));
      const result = await applyInventoryGroup(session, group, { fieldManager: options.fieldManager ?? AGENTK_FIELD_MANAGER, dryRun, signal });
      if (isFailure(result)) return result;
      inventories.push(result.value);
    }
    return ok({ mode: sharedNamespace ? 'shared' : 'unique', namespace: namespace.value, namespaceCreated, inventories });
  };
  // A dry run writes nothing: it needs no lock.
  return dryRun ? applyGroups(options.signal) : withOperationLock(session, workspaceLockSubject(workspace.value, namespace.value), 'workspace apply', options, applyGroups);
}
