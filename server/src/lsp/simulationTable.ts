import { createHash } from 'node:crypto';
import type { JobIdentity } from '../engine/access/identity';
import { nodeAtPath, nodeSpan } from '../engine/config/yamlDocument';
import type { ConfigSimulation, ParsedAgentConfig, SimulationTable } from '../engine/project';
import type { SimulationRow } from '../protocol';
import { previewKey } from './cluster/accessPreview';

/**
 * The engine's scenario × entry table with what the results view needs on top: which entry a row
 * belongs to (the matrix groups rows by it), the line that decided each outcome (a click there
 * reveals it) and the identity × namespace the RBAC check would ask about.
 */
export function viewRows({ parsed }: ParsedAgentConfig, simulation: ConfigSimulation, table: SimulationTable): SimulationRow[] {
  const lineOf = (path: readonly (string | number)[] | undefined): number | null => {
    const span = path && parsed.doc ? nodeSpan(nodeAtPath(parsed.doc, path)?.node) : null;
    return span ? parsed.index.positionAt(span[0]).line : null;
  };
  // The engine's rows are the entries' outcomes in entry order, then scenario order.
  const outcomes = simulation.entries.flatMap(({ entry, outcomes }) => outcomes.map(({ outcome }) => ({ entry, outcome })));
  return table.rows.map((row, i) => {
    const { entry, outcome } = outcomes[i];
    // The outcome's rule is a rule of the winning entry, which may be another entry than this row's (shadowing).
    const winner = outcome.entryPath ?? entry.path;
    const decidedLine = (outcome.rule !== null ? lineOf([...winner, 'rules', outcome.rule - 1]) : null) ?? lineOf(outcome.entryPath) ?? row.line;
    const asked = outcome.authorized && outcome.identity && outcome.identity.mode !== 'agent';
    return {
      ...row,
      entry: entry.id === null ? entry.kind : `${entry.kind} ${entry.id}`,
      decidedLine,
      accessAs: outcome.authorized ? outcome.access_as : null,
      accessKey: asked ? accessKey(outcome.identity!, outcome.namespace) : null,
    };
  });
}

/** A short name for one identity × namespace (the full identity, groups and extras included, is ~1 KB per cell). */
export function accessKey(identity: JobIdentity, namespace: string | null): string {
  return createHash('sha256').update(previewKey(identity, namespace)).digest('base64url').slice(0, 16);
}
