import { InvalidArguments } from './commandRouter';
import type { ClusterTarget } from '../../protocol/cluster';

/**
 * Readers for command arguments: they arrive as JSON from any editor, so every field is checked
 * and a wrong one named.
 */
export function record(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArguments(`expected ${what} as an object`);
  return value as Record<string, unknown>;
}

export function text(obj: Record<string, unknown>, key: string, options: { optional: true }): string | undefined;
export function text(obj: Record<string, unknown>, key: string, options?: { optional?: false }): string;
export function text(obj: Record<string, unknown>, key: string, options: { optional?: boolean } = {}): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null || value === '') {
    if (options.optional) return undefined;
    throw new InvalidArguments(`"${key}" is required`);
  }
  if (typeof value !== 'string') throw new InvalidArguments(`"${key}" must be a string`);
  return value;
}

export function integer(obj: Record<string, unknown>, key: string, options: { optional: true }): number | undefined;
export function integer(obj: Record<string, unknown>, key: string, options?: { optional?: false }): number;
export function integer(obj: Record<string, unknown>, key: string, options: { optional?: boolean } = {}): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (options.optional) return undefined;
    throw new InvalidArguments(`"${key}" is required`);
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidArguments(`"${key}" must be a non-negative whole number`);
  return value;
}

/** Seconds from the client (bounded to a day), as milliseconds for the engine; undefined keeps the engine's default. */
function timeoutMs(seconds: number | undefined): number | undefined {
  return seconds === undefined || seconds <= 0 ? undefined : Math.min(seconds, 24 * 3600) * 1000;
}

/** What every cluster command may carry besides its target: `timeoutSeconds`, `agentNamespace`. */
export function operationOptions(args: Record<string, unknown>): { timeoutMs?: number; agentNamespace?: string } {
  const timeout = timeoutMs(integer(args, 'timeoutSeconds', { optional: true }));
  const agentNamespace = text(args, 'agentNamespace', { optional: true });
  return { ...(timeout ? { timeoutMs: timeout } : {}), ...(agentNamespace ? { agentNamespace } : {}) };
}

/** `cluster: {kubeconfigPath?, context?}`; absent means the default kubeconfig and its current-context. */
export function clusterTarget(argument: Record<string, unknown>): ClusterTarget {
  const cluster = argument.cluster === undefined ? {} : record(argument.cluster, '"cluster"');
  const kubeconfigPath = text(cluster, 'kubeconfigPath', { optional: true });
  const context = text(cluster, 'context', { optional: true });
  return { ...(kubeconfigPath ? { kubeconfigPath } : {}), ...(context ? { context } : {}) };
}
