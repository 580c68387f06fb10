/**
 * Every step a cluster operation reports, as data, and the one place that words it for people
 * ("Deleting Namespace review-42…", "Applied 3 of 5 objects (created Namespace review-42)"). The
 * editor shows the words; the CLI prints them and reads the data to know what was done when Ctrl-C
 * comes (cli/progressLedgers.ts), so the wording can change without breaking that bookkeeping.
 */
import type { ObjectRef } from './kube/objectRef';

/** Receives progress messages; percentage in 0..100 when known; the step the message words, for sinks that keep count. */
export interface ProgressSink {
  report(message: string, percentage?: number, step?: ProgressStep): void;
}

/** An inventory ConfigMap, by where it lives. */
interface InventoryPlace {
  readonly namespace: string;
  readonly name: string;
}

export type ProgressStep =
  | { readonly kind: 'readInventory'; readonly inventory: InventoryPlace }
  | { readonly kind: 'readLiveObjects'; readonly count: number }
  /** One object checked (`done` of `total`): by a server-side dry run, refused before it (`blocked`), or left to the apply itself (`later`: its namespace is new). */
  | { readonly kind: 'dryRun'; readonly ref: ObjectRef; readonly done: number; readonly total: number; readonly checked: 'dryRun' | 'blocked' | 'later' }
  | { readonly kind: 'createInventoryNamespace'; readonly namespace: string }
  /** The API server answered the apply of one object; `done` of `total` objects of the plan. */
  | { readonly kind: 'applied'; readonly ref: ObjectRef; readonly action: 'created' | 'updated' | 'unchanged'; readonly done: number; readonly total: number }
  | { readonly kind: 'waitReady'; readonly ref: ObjectRef }
  /** The API server accepted the deletion (finalizers may keep the object a while); `prune`: the template no longer renders it. */
  | { readonly kind: 'deleting'; readonly ref: ObjectRef; readonly prune: boolean }
  | { readonly kind: 'waitGone'; readonly ref: ObjectRef }
  | { readonly kind: 'deleteInventory'; readonly inventory: InventoryPlace }
  | { readonly kind: 'workspaceNamespace'; readonly namespace: string; readonly dryRun: boolean }
  /** A workspace inventory group started; `index` counts from 0. */
  | { readonly kind: 'workspaceInventory'; readonly inventory: string; readonly objects: number; readonly index: number; readonly total: number }
  /** The termination progress agentk would report to GitLab (`Terminating`, `Terminated`). */
  | { readonly kind: 'workspaceProgress'; readonly workspace: string; readonly progress: string }
  | { readonly kind: 'fluxWatch'; readonly ref: ObjectRef; readonly revision: string }
  /** What the Flux objects say now (their own words). */
  | { readonly kind: 'fluxState'; readonly message: string }
  | { readonly kind: 'listing'; readonly what: string }
  /** Another run holds the lock of the environment or workspace: this one waits. */
  | { readonly kind: 'waitLock'; readonly what: string; readonly holder: string };

/** `Namespace review-42`, `RoleBinding review-42/bind-1`: an object as a person names it. */
export function objectName(ref: Pick<ObjectRef, 'kind' | 'namespace' | 'name'>): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

const CHECK_OUTCOME = { dryRun: 'passed a server-side dry run', blocked: 'is refused', later: 'is checked when it is applied, in its new namespace' } as const;

const objects = (n: number): string => `${n} object${n === 1 ? '' : 's'}`;

/** The step in words: a sentence without a final period; "…" while it is under way. */
export function describeStep(step: ProgressStep): string {
  switch (step.kind) {
    case 'readInventory':
      return `Reading the inventory ${step.inventory.namespace}/${step.inventory.name}…`;
    case 'readLiveObjects':
      return `Reading ${objects(step.count)} from the cluster…`;
    case 'dryRun':
      return `Checked ${step.done} of ${objects(step.total)}: ${objectName(step.ref)} ${CHECK_OUTCOME[step.checked]}`;
    case 'createInventoryNamespace':
      return `Creating Namespace ${step.namespace} for the inventory…`;
    case 'applied':
      return `Applied ${step.done} of ${objects(step.total)} (${step.action} ${objectName(step.ref)})`;
    case 'waitReady':
      return `Waiting for ${objectName(step.ref)} to be ready…`;
    case 'deleting':
      return `${step.prune ? 'Pruning' : 'Deleting'} ${objectName(step.ref)}…`;
    case 'waitGone':
      return `Waiting for ${objectName(step.ref)} to disappear…`;
    case 'deleteInventory':
      return `Deleting the inventory ${step.inventory.namespace}/${step.inventory.name}…`;
    case 'workspaceNamespace':
      return step.dryRun ? `Would create Namespace ${step.namespace} (dry run)` : `Created Namespace ${step.namespace}`;
    case 'workspaceInventory':
      return `Applying inventory ${step.inventory} (${objects(step.objects)}; ${step.index + 1} of ${step.total})…`;
    case 'workspaceProgress':
      return `Workspace ${step.workspace} is ${step.progress}`;
    case 'fluxWatch':
      return `Waiting for Flux to apply ${step.revision} (watching ${objectName(step.ref)})…`;
    case 'fluxState':
      return step.message;
    case 'listing':
      return `Listing ${step.what}…`;
    case 'waitLock':
      return `Waiting for ${step.holder} to finish with ${step.what}…`;
  }
}

/** Reports `step` in words to `sink` (if any), with the step itself for sinks that keep count. */
export function reportStep(sink: ProgressSink | undefined, step: ProgressStep, percentage?: number): void {
  sink?.report(describeStep(step), percentage, step);
}
