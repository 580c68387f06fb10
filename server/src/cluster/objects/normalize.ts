/**
 * Objects as a person wants to compare them: server bookkeeping (managedFields, resourceVersion,
 * uid, creationTimestamp, generation…) removed, keys in a stable order, as YAML.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { isRecord } from '../../engine/api';

const NOISY_METADATA = ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation', 'selfLink'];

/** Plain JSON (client-node turns timestamps into Dates) without server bookkeeping. */
export function withoutNoise(object: KubernetesObject): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(object)) as Record<string, unknown>;
  if (isRecord(plain.metadata)) {
    for (const key of NOISY_METADATA) delete plain.metadata[key];
  }
  return plain;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const head = ['apiVersion', 'kind', 'metadata', 'spec'];
  const keys = Object.keys(value).sort((a, b) => {
    const ia = head.indexOf(a);
    const ib = head.indexOf(b);
    return ia >= 0 || ib >= 0 ? (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) : a.localeCompare(b);
  });
  return Object.fromEntries(keys.map((k) => [k, sortKeys(value[k])]));
}

/** The YAML shown in diffs: noise removed, keys ordered (apiVersion, kind, metadata, spec, then alphabetical). */
export function comparableYaml(object: KubernetesObject | undefined): string {
  return object ? stringify(sortKeys(withoutNoise(object)), { lineWidth: 0 }) : '';
}

/**
 * What a person confirmed about a live object when they accepted a plan: everything but its status
 * and the server's bookkeeping, as one comparable string. A controller updating status between the
 * plan and the execution changes nothing a person decided on; a changed spec, label or annotation does.
 */
export function confirmedContent(object: KubernetesObject): string {
  const plain = withoutNoise(object);
  delete plain.status;
  return JSON.stringify(sortKeys(plain));
}
