/**
 * How each cluster command reads its operation's progress into a {@link StepLedger}, so that Ctrl-C
 * can say what was done and what was not. The steps come from the plan the command holds; the
 * progress steps (cluster/progressSteps.ts, the data behind the words the user sees) mark them
 * done. A wait counts as not done until the operation moves past it: the apply and the destroy go
 * tier by tier, so a step of another tier ends the waits of the tier before. Only objects of the
 * plan count; test/cluster/cli-interrupt.test.ts holds this to what the operations report.
 */
import type { ApplyPlan } from '../cluster/apply/plan';
import type { DestroyPlan } from '../cluster/destroy/plan';
import { formatRef } from '../cluster/kube/objectRef';
import type { ProgressStep } from '../cluster/progressSteps';
import type { StepLedger } from './interrupt';

/** Steps of an apply: each object created, updated or found unchanged (then ready), each prune (then gone). */
export function observeApply(ledger: StepLedger, plan: ApplyPlan): (step: ProgressStep) => void {
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
  return (step) => {
    if (step.kind === 'createInventoryNamespace') {
      ledger.complete('inventory namespace', `created namespace ${step.namespace} for the inventory`);
    } else if (step.kind === 'applied') {
      const ref = formatRef(step.ref);
      applying(tierOf.get(ref));
      ledger.complete(`apply ${ref}`, `${step.action} ${ref}`);
    } else if (step.kind === 'waitReady') {
      const ref = formatRef(step.ref);
      ledger.waitFor(`ready ${ref}`, `${ref} ready (applied; not confirmed ready)`);
    } else if (step.kind === 'deleting' && pruneTierOf.has(formatRef(step.ref))) {
      const ref = formatRef(step.ref);
      pruning(pruneTierOf.get(ref));
      ledger.complete(`prune ${ref}`, `pruned ${ref} (deletion accepted)`);
      ledger.waitFor(`gone ${ref}`, `${ref} gone (deletion accepted; not confirmed gone)`);
    }
  };
}

/** Steps of a destroy: each object deleted (then gone), then the inventory. */
export function observeDestroy(ledger: StepLedger, plan: DestroyPlan): (step: ProgressStep) => void {
  const tierOf = new Map<string, string>();
  for (const d of plan.deletions) {
    tierOf.set(formatRef(d.ref), d.tier);
    ledger.expect(`delete ${formatRef(d.ref)}`, `delete ${formatRef(d.ref)}`);
  }
  const inventory = `${plan.inventory.namespace}/${plan.inventory.name}`;
  if (plan.inventoryExists) ledger.expect('inventory', `delete inventory ${inventory}`);
  return (step) => {
    if (step.kind === 'deleteInventory') {
      ledger.settle((key) => key.startsWith('gone '));
      ledger.complete('inventory', `deleted inventory ${step.inventory.namespace}/${step.inventory.name}`);
    } else if (step.kind === 'deleting' && tierOf.has(formatRef(step.ref))) {
      const ref = formatRef(step.ref);
      const tier = tierOf.get(ref);
      ledger.settle((key) => key.startsWith('gone ') && tierOf.get(key.slice(5)) !== tier);
      ledger.complete(`delete ${ref}`, `deleted ${ref} (deletion accepted)`);
      ledger.waitFor(`gone ${ref}`, `${ref} gone (deletion accepted; not confirmed gone)`);
    }
  };
}

/**
 * Steps of a workspace apply: the namespace, then each inventory group in order; a group is
 * applied once the next one starts (or the apply ends).
 */
export function observeWorkspaceApply(ledger: StepLedger, inventories: readonly string[]): (step: ProgressStep) => void {
  for (const name of inventories) ledger.expect(`inventory ${name}`, `apply ${name}`);
  let current: string | undefined;
  return (step) => {
    if (step.kind === 'workspaceNamespace' && !step.dryRun) ledger.complete('namespace', `created namespace ${step.namespace}`);
    else if (step.kind === 'workspaceInventory') {
      if (current !== undefined) ledger.complete(`inventory ${current}`, `applied ${current}`);
      current = step.inventory;
      ledger.waitFor(`inventory ${current}`, `apply ${current} (started; partly applied)`);
    }
  };
}

/** Steps of a workspace termination: the progress reported (Terminating), until Terminated. */
export function observeTermination(ledger: StepLedger, name: string): (step: ProgressStep) => void {
  ledger.expect('terminated', `terminate workspace ${name} (its objects and inventories deleted, progress Terminated)`);
  return (step) => {
    if (step.kind !== 'workspaceProgress' || step.workspace !== name) return;
    if (step.progress === 'Terminating') ledger.complete('terminating', `deletion of workspace ${name}'s objects started (progress Terminating)`);
    else if (step.progress === 'Terminated') ledger.complete('terminated', `workspace ${name} Terminated`);
  };
}

/** flux wait only reads: the one step is the wait itself, with the last state seen. */
export function observeFluxWait(ledger: StepLedger, what: string): (step: ProgressStep) => void {
  ledger.expect('wait', `wait until ${what} (nothing seen yet)`);
  return (step) => {
    if (step.kind === 'fluxState') ledger.expect('wait', `wait until ${what} (last seen: ${step.message})`);
  };
}
