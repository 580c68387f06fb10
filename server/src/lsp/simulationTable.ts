import { createHash } from 'node:crypto';
import type { ConfigSimulation, JobIdentity, SimulationTable } from '../engine/api';
import type { SimulationRow } from '../protocol';
import { previewKey } from './cluster/accessPreview';

/**
 * The engine's scenario × entry table with the one thing only the editor needs on top: the
 * identity × namespace its RBAC check would ask the connected cluster about.
 */
export function viewRows(simulation: ConfigSimulation, table: SimulationTable): SimulationRow[] {
  // The engine's rows are the entries' outcomes in entry order, then scenario order.
  const outcomes = simulation.entries.flatMap(({ outcomes }) => outcomes.map(({ outcome }) => outcome));
  return table.rows.map((row, i) => {
    const outcome = outcomes[i];
    const asked = outcome.authorized && outcome.identity && outcome.identity.mode !== 'agent';
    return { ...row, accessKey: asked ? accessKey(outcome.identity!, outcome.namespace) : null };
  });
}

/** A short name for one identity × namespace (the full identity, groups and extras included, is ~1 KB per cell). */
export function accessKey(identity: JobIdentity, namespace: string | null): string {
  return createHash('sha256').update(previewKey(identity, namespace)).digest('base64url').slice(0, 16);
}
