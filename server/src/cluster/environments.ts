/**
 * The managed environments on a cluster, for the tree view: every cli-utils inventory ConfigMap that
 * carries GitLab's environment annotation (docs/gitlab-behaviour.md#managed-object-labels-and-annotation, put there by apply), with the state of each
 * object it tracks (present or missing, kstatus).
 */
import { isRecord } from '../engine/api';
import { withPreferredVersion } from './kube/discovery';
import { DEFAULT_CONCURRENCY, mapBounded } from './kube/concurrency';
import { isFailure, ok, type ClusterOutcome } from './kube/outcome';
import type { ClusterSession } from './kube/session';
import { readObject } from './kube/watch';
import type { ParsedInventory } from './inventory/configMap';
import type { InventoryRef } from './kube/objMetadata';
import { listInventories } from './inventory/store';
import type { OperationOptions } from './progress';
import { readinessOf } from './readiness';

/** GitLab's environment identity, from its annotation (docs/gitlab-behaviour.md#managed-object-labels-and-annotation). */
export interface EnvironmentIdentity {
  readonly environmentName: string;
  readonly environmentSlug: string;
  readonly environmentTier?: string;
  readonly projectId?: number;
  readonly projectPath?: string;
  readonly agentId?: number;
  readonly agentName?: string;
  readonly templateName?: string;
}

/** One tracked object and how it is doing. */
export interface EnvironmentObjectState {
  readonly ref: InventoryRef;
  /** current/inProgress/failed: kstatus of the live object; missing: tracked but absent; unknown: could not be read. */
  readonly state: 'current' | 'inProgress' | 'failed' | 'missing' | 'unknown';
  readonly message?: string;
}

/** One managed environment. */
export interface EnvironmentSummary {
  readonly inventory: { readonly name: string; readonly namespace: string };
  readonly identity: EnvironmentIdentity;
  readonly objects: readonly EnvironmentObjectState[];
  /** Every tracked object exists and is current. */
  readonly ready: boolean;
  readonly missing: number;
}

const ENV_ANNOTATION = /^agent\.gitlab\.com\/env-/;

/** GitLab's environment identity from an inventory's annotations; undefined when it has none. */
export function environmentIdentity(annotations: Readonly<Record<string, string>>): EnvironmentIdentity | undefined {
  for (const [key, value] of Object.entries(annotations)) {
    if (!ENV_ANNOTATION.test(key)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      continue;
    }
    if (!isRecord(parsed) || typeof parsed.environment_slug !== 'string') continue;
    const str = (k: string): string | undefined => (typeof parsed[k] === 'string' ? parsed[k] : undefined);
    const num = (k: string): number | undefined => (typeof parsed[k] === 'number' ? parsed[k] : undefined);
    return {
      environmentName: str('environment_name') ?? parsed.environment_slug,
      environmentSlug: parsed.environment_slug,
      ...(str('environment_tier') ? { environmentTier: str('environment_tier') } : {}),
      ...(num('project_id') !== undefined ? { projectId: num('project_id') } : {}),
      ...(str('project_path') ? { projectPath: str('project_path') } : {}),
      ...(num('agent_id') !== undefined ? { agentId: num('agent_id') } : {}),
      ...(str('agent_name') ? { agentName: str('agent_name') } : {}),
      ...(str('template_name') ? { templateName: str('template_name') } : {}),
    };
  }
  return undefined;
}

async function objectState(session: ClusterSession, ref: InventoryRef): Promise<EnvironmentObjectState> {
  const full = await withPreferredVersion(session, ref);
  if (isFailure(full)) return { ref, state: 'unknown', message: full.message };
  if (!full.value) return { ref, state: 'missing', message: `the cluster does not serve group ${ref.group}` };
  const live = await readObject(session, full.value);
  if (isFailure(live)) return { ref, state: 'unknown', message: live.message };
  const readiness = readinessOf(live.value);
  switch (readiness.state) {
    case 'notFound':
      return { ref, state: 'missing' };
    case 'current':
      return { ref, state: 'current' };
    case 'inProgress':
      return { ref, state: 'inProgress', message: readiness.message };
    case 'failed':
      return { ref, state: 'failed', message: `${readiness.reason}: ${readiness.message}` };
  }
}

async function summarize(session: ClusterSession, inventory: ParsedInventory, identity: EnvironmentIdentity, concurrency: number): Promise<EnvironmentSummary> {
  const objects = await mapBounded(inventory.objects, concurrency, (ref) => objectState(session, ref));
  return {
    inventory: { name: inventory.name, namespace: inventory.namespace },
    identity,
    objects,
    ready: objects.every((o) => o.state === 'current'),
    missing: objects.filter((o) => o.state === 'missing').length,
  };
}

/** Options of {@link listEnvironments}. */
export interface ListEnvironmentsOptions extends OperationOptions {
  /** Look only in this namespace (the agent's); default: all namespaces. */
  readonly namespace?: string;
  readonly concurrency?: number;
}

/** Managed environments found on the cluster, sorted by inventory namespace and name. */
export async function listEnvironments(session: ClusterSession, options: ListEnvironmentsOptions = {}): Promise<ClusterOutcome<EnvironmentSummary[]>> {
  const inventories = await listInventories(session, options.namespace);
  if (isFailure(inventories)) return inventories;
  const found = inventories.value.flatMap((inv) => {
    const identity = environmentIdentity(inv.annotations);
    return identity ? [{ inv, identity }] : [];
  });
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const summaries = await mapBounded(found, 2, ({ inv, identity }) => summarize(session, inv, identity, concurrency));
  return ok(summaries.sort((a, b) => a.inventory.namespace.localeCompare(b.inventory.namespace) || a.inventory.name.localeCompare(b.inventory.name)));
}
