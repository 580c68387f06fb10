import { viaLabel, type AccessOutcome } from '../../engine/api';
import { UsageError } from '../args';

/** What a pipeline relies on for one job: checked by `agentcfg simulate --expect` or a scenario's `expect`. */
export interface Expectation {
  readonly authorized?: boolean;
  /** The namespace of the job's kubeconfig context; null: no namespace. */
  readonly namespace?: string | null;
  /** The identity's username (e.g. `gitlab:ci_job:<job id>`, `system:serviceaccount:…`). */
  readonly identity?: string;
}

const KEYS = ['authorized', 'namespace', 'identity'];

/**
 * `--expect authorized|denied`, or a scenario's `"expect"` (`"authorized"`, `"denied"` or an object
 * of `authorized`, `namespace`, `identity`). Undefined: nothing expected. Malformed: a usage error.
 */
export function readExpectation(value: unknown, where = '--expect'): Expectation | undefined {
  if (value === undefined) return undefined;
  if (value === 'authorized' || value === 'denied') return { authorized: value === 'authorized' };
  const bad = (why: string) => new UsageError(`${where} must be "authorized", "denied"${where === '--expect' ? '' : ' or an object of authorized, namespace, identity'}: ${why}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value) || where === '--expect') throw bad(`got ${JSON.stringify(value)}`);
  const object = value as Record<string, unknown>;
  const unknown = Object.keys(object).filter((k) => !KEYS.includes(k));
  if (unknown.length) throw bad(`unknown key ${unknown.map((k) => `"${k}"`).join(', ')}`);
  if (object.authorized !== undefined && typeof object.authorized !== 'boolean') throw bad('"authorized" must be true or false');
  if (object.namespace !== undefined && object.namespace !== null && typeof object.namespace !== 'string') throw bad('"namespace" must be a string or null');
  if (object.identity !== undefined && typeof object.identity !== 'string') throw bad('"identity" must be a string');
  return object as Expectation;
}

/** Each way `outcome` differs from `expect`, in words; empty when it meets it. */
export function unmetExpectations(expect: Expectation | undefined, outcome: AccessOutcome): string[] {
  if (!expect) return [];
  const out: string[] = [];
  if (expect.authorized !== undefined && expect.authorized !== outcome.authorized) {
    out.push(expect.authorized ? `expected access, but it is denied: ${outcome.denial ?? 'denied'}` : `expected no access, but it is authorized via ${viaLabel(outcome) ?? 'an entry'}`);
  }
  if (expect.namespace !== undefined && expect.namespace !== outcome.namespace) out.push(`expected namespace ${JSON.stringify(expect.namespace)}, got ${JSON.stringify(outcome.namespace)}`);
  if (expect.identity !== undefined && expect.identity !== (outcome.identity?.username ?? null)) out.push(`expected identity "${expect.identity}", got ${JSON.stringify(outcome.identity?.username ?? null)}`);
  return out;
}
