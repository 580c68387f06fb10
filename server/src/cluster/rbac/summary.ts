/**
 * The preview in a few words: each capability a person cares about, allowed or not, decided from
 * the cluster's answers only ("can deploy, cannot read secrets, cannot create namespaces").
 */
import type { AccessCheck } from './checks';

export interface Capability {
  readonly id: 'deploy' | 'readSecrets' | 'writeSecrets' | 'exec' | 'manageRbac' | 'createNamespaces' | 'deleteNamespaces';
  readonly allowed: boolean;
  /** `can deploy` / `cannot read secrets`. */
  readonly text: string;
}

interface CapabilityRule {
  readonly id: Capability['id'];
  readonly phrase: string;
  /** Every one of these `verb resource` pairs must be allowed. */
  readonly needs: readonly (readonly [string, string])[];
}

const RULES: readonly CapabilityRule[] = [
  { id: 'deploy', phrase: 'deploy', needs: [['get', 'deployments'], ['create', 'deployments'], ['patch', 'deployments']] },
  { id: 'readSecrets', phrase: 'read secrets', needs: [['get', 'secrets']] },
  { id: 'writeSecrets', phrase: 'write secrets', needs: [['create', 'secrets'], ['patch', 'secrets']] },
  { id: 'exec', phrase: 'exec into pods', needs: [['create', 'pods/exec']] },
  { id: 'manageRbac', phrase: 'grant roles', needs: [['create', 'rolebindings']] },
  { id: 'createNamespaces', phrase: 'create namespaces', needs: [['create', 'namespaces']] },
  { id: 'deleteNamespaces', phrase: 'delete namespaces', needs: [['delete', 'namespaces']] },
];

/** The capabilities whose questions were asked, in a fixed order. */
export function summarise(checks: readonly AccessCheck[]): Capability[] {
  const allowed = new Set(checks.filter((c) => c.allowed).map((c) => `${c.verb} ${c.resource.label}`));
  const asked = new Set(checks.map((c) => `${c.verb} ${c.resource.label}`));
  return RULES.filter((rule) => rule.needs.every(([verb, label]) => asked.has(`${verb} ${label}`))).map((rule) => {
    const yes = rule.needs.every(([verb, label]) => allowed.has(`${verb} ${label}`));
    return { id: rule.id, allowed: yes, text: `${yes ? 'can' : 'cannot'} ${rule.phrase}` };
  });
}
