/**
 * How each cluster command reads its operation's progress into a {@link StepLedger}, so that Ctrl-C
 * can say what was done and what was not. The steps come from the plan the command holds; the
 * progress messages (of cluster/apply, cluster/destroy, cluster/workspace) mark them done. A wait
 * counts as not done until the operation moves past it: the apply and the destroy go tier by tier,
 * so a step of another tier ends the waits of the tier before. The messages are matched loosely
 * (`deleting`/`deleted`, `pruning`) and only for objects of the plan; test/cluster/cli-interrupt.test.ts
 * holds them to what the operations report.
 */
import type { ApplyPlan } from '../cluster/apply/plan';
import type { DestroyPlan } from '../cluster/destroy/plan';
import { formatRef } from '../cluster/kube/objectRef';
import type { StepLedger } from './interrupt';

/** Steps of an apply: each object created, updated or found unchanged (then ready), each prune (then gone). */
export function observeApply(ledger: StepLedger, plan: ApplyPlan): (message: string) => void {
  const tierOf = new Map<string, string>();
  if (plan.createsInventoryNamespace) ledger.expect('inventory namespace', `create namespace ${plan.environment.inventory.namespace} for the inventory`);
  for (const o of plan.objects) {
    const ref = formatRef(o.ref);
    tierOf.set(ref, o.tier);
    if (o.action !== 'unchanged') ledger.expect(`apply ${ref}`, `${o.action} ${ref}`);
  }
  const pruneTierOf = new Map<string, string>();
  for (const p of plan.prunes) {
    pruneTierOf.set(formatRef(p.ref), p.tier);
    ledger.expect(`prune ${formatRef(p.ref)}`, `prune ${formatRef(p.ref)}`);
  }
  // Applying tier T means the readiness waits of the tiers before are over; pruning tier T, that every
  // readiness wait and the prunes of the tiers before are.
  const applying = (tier: string | undefined): void => ledger.settle((key) => key.startsWith('ready ') && tierOf.get(key.slice(6)) !== tier);
  const pruning = (tier: string | undefined): void => ledger.settle((key) => key.startsWith('ready ') || (key.startsWith('gone ') && pruneTierOf.get(key.slice(5)) !== tier));
  return (message) => {
    let m: RegExpExecArray | null;
    if ((m = /^creating namespace (\S+) for the inventory$/.exec(message))) {
      ledger.complete('inventory namespace', `created namespace ${m[1]} for the inventory`);
    } else if ((m = /^(created|updated|unchanged) (.+)$/.exec(message))) {
      applying(tierOf.get(m[2]));
      ledger.complete(`apply ${m[2]}`, message);
    } else if ((m = /^waiting for (.+) to be ready$/.exec(message))) {
      ledger.waitFor(`ready ${m[1]}`, `${m[1]} ready (applied; not confirmed ready)`);
    } else if ((m = /^(?:pruning|deleted) (.+)$/.exec(message)) && pruneTierOf.has(m[1])) {
      pruning(pruneTierOf.get(m[1]));
      ledger.complete(`prune ${m[1]}`, `pruned ${m[1]} (deletion accepted)`);
      ledger.waitFor(`gone ${m[1]}`, `${m[1]} gone (deletion accepted; not confirmed gone)`);
    }
  };
}

/** Steps of a destroy: each object deleted (then gone), then the inventory. */
export function observeDestroy(ledger: StepLedger, plan: DestroyPlan): (message: string) => void {
  const tierOf = new Map<string, string>();
  for (const d of plan.deletions) {
    tierOf.set(formatRef(d.ref), d.tier);
    ledger.expect(`delete ${formatRef(d.ref)}`, `delete ${formatRef(d.ref)}`);
  }
  const inventory = `${plan.inventory.namespace}/${plan.inventory.name}`;
  if (plan.inventoryExists) ledger.expect('inventory', `delete inventory ${inventory}`);
  return (message) => {
    let m: RegExpExecArray | null;
    if ((m = /^deleting inventory (.+)$/.exec(message))) {
      ledger.settle((key) => key.startsWith('gone '));
      ledger.complete('inventory', `deleted inventory ${m[1]}`);
    } else if ((m = /^(?:deleting|deleted) (.+)$/.exec(message)) && tierOf.has(m[1])) {
      const tier = tierOf.get(m[1]);
      ledger.settle((key) => key.startsWith('gone ') && tierOf.get(key.slice(5)) !== tier);
      ledger.complete(`delete ${m[1]}`, `deleted ${m[1]} (deletion accepted)`);
      ledger.waitFor(`gone ${m[1]}`, `${m[1]} gone (deletion accepted; not confirmed gone)`);
    }
  };
}

/**
 * Steps of a workspace apply: the namespace, then each inventory group in order; a group is
 * applied once the next one starts (or the apply ends).
 */
export function observeWorkspaceApply(ledger: StepLedger, inventories: readonly string[]): (message: string) => void {
  for (const name of inventories) ledger.expect(`inventory ${name}`, `apply ${name}`);
  let current: string | undefined;
  return (message) => {
    let m: RegExpExecArray | null;
    if ((m = /^created namespace (\S+)$/.exec(message))) ledger.complete('namespace', message);
    else if ((m = /^applying (\S+) \((\d+) objects\)$/.exec(message))) {
      if (current !== undefined) ledger.complete(`inventory ${current}`, `applied ${current}`);
      current = m[1];
      ledger.waitFor(`inventory ${current}`, `apply ${current} (started; partly applied)`);
    }
  };
}

/** Steps of a workspace termination: the progress reported (Terminating), until Terminated. */
export function observeTermination(ledger: StepLedger, name: string): (message: string) => void {
  ledger.expect('terminated', `terminate workspace ${name} (its objects and inventories deleted, progress Terminated)`);
  return (message) => {
    if (message === `${name}: Terminating`) ledger.complete('terminating', `deletion of workspace ${name}'s objects started (progress Terminating)`);
    else if (message === `${name}: Terminated`) ledger.complete('terminated', `workspace ${name} Terminated`);
  };
}

/** flux wait only reads: the one step is the wait itself, with the last state seen. */
export function observeFluxWait(ledger: StepLedger, what: string): (message: string) => void {
  ledger.expect('wait', `wait until ${what} (nothing seen yet)`);
  return (message) => {
    if (!message.startsWith('watching ')) ledger.expect('wait', `wait until ${what} (last seen: ${message})`);
  };
}
