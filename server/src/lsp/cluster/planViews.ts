import type { ApplyPlan } from '../../cluster/apply/plan';
import { conflictsOf, isNoop } from '../../cluster/apply/plan';
import { TIERS } from '../../cluster/objects/supportedKinds';
import type { DestroyPlan } from '../../cluster/destroy/plan';
import { formatRef, type ObjectRef } from '../../cluster/kube/objectRef';
import { describeForbidden } from '../../cluster/kube/forbidden';
import { describeOutcome, type ClusterFailure } from '../../cluster/kube/outcome';
import { EDITOR_ADVICE } from '../../cluster/kube/advice';
import type { NamespaceContents } from '../../cluster/prune/index';
import type { ApplyPlanView, DestroyPlanView, PlannedObjectView } from '../../protocol/cluster';

/** `Namespace review-x` / `RoleBinding review-x/bind-1`: how objects are named to the user. */
export function objectLabel(ref: Pick<ObjectRef, 'kind' | 'namespace' | 'name'>): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** What deleting these namespaces takes along besides our objects, one line each. */
export function othersInNamespaces(contents: readonly NamespaceContents[]): string[] {
  return contents.flatMap((c) => [
    ...c.objects.map((o) => objectLabel(o)),
    ...c.unlisted.map((u) => `unknown ${u} in namespace ${c.namespace}: cannot list them`),
  ]);
}

/** The failure class of a blocked plan: the problems' own when they agree (all forbidden…), else `refused`. */
export function blockedKind(blocked: readonly ClusterFailure[]): ClusterFailure['type'] {
  return blocked.every((b) => b.type === blocked[0].type) ? blocked[0].type : 'refused';
}

/**
 * A blocked plan's problems as one message (nothing will be changed). 403s, one or many, are one
 * sentence naming who was refused and each verb × resource × namespace once (kube/forbidden.ts).
 * `subject` names the object ("review/x (gitlab-env-…)"), not the operation: the client shows the
 * message after its own title ("Apply environment: review/x (…): nothing was changed — …").
 */
export function blockedMessage(subject: string, blocked: readonly ClusterFailure[]): string {
  if (blocked.length && blocked.every((b) => b.type === 'forbidden')) return describeForbidden(blocked, { what: subject, nothingChanged: true, advice: EDITOR_ADVICE });
  if (blocked.length === 1) return describeOutcome(blocked[0], EDITOR_ADVICE);
  return `${subject}: nothing will be changed, ${blocked.length} problems:\n${blocked.map((b) => `- ${describeOutcome(b, EDITOR_ADVICE)}`).join('\n')}`;
}

/** The apply plan as the client shows it: per object live/proposed YAML, the whole diff, conflicts. */
export function applyPlanView(planId: string, title: string, plan: ApplyPlan, templateSource: string, warnings: readonly string[]): ApplyPlanView {
  const objects: PlannedObjectView[] = [
    ...plan.objects.map((o) => ({
      id: objectLabel(o.ref),
      action: o.action,
      live: o.liveYaml,
      proposed: o.proposedYaml,
      ...(o.conflict ? { conflict: { managers: o.conflict.managers, message: o.conflict.message } } : {}),
    })),
    ...plan.prunes.map((p) => ({ id: objectLabel(p.ref), action: 'prune' as const, live: p.liveYaml, proposed: '' })),
  ];
  const diff = [...plan.objects.map((o) => o.diff), ...plan.prunes.map((p) => `--- ${formatRef(p.ref)} (live)\n+++ (pruned: no longer rendered)\n`)].filter(Boolean).join('\n');
  return {
    planId,
    title,
    objects,
    diff,
    hasConflicts: conflictsOf(plan).length > 0,
    templateSource,
    noop: isNoop(plan),
    context: plan.context,
    server: plan.server,
    warnings: [
      ...warnings,
      ...(plan.createsInventoryNamespace ? [`creates namespace ${plan.environment.inventory.namespace} for the environment's inventory`] : []),
      ...plan.objects.filter((o) => !o.validated).map((o) => `${objectLabel(o.ref)} is validated by the cluster when applied (its namespace does not exist yet)`),
      ...plan.skipped.map((s) => `${objectLabel(s.ref)}: ${s.reason}`),
      ...plan.adoptions.flatMap((a) =>
        a.objects.length || a.unlisted.length ? [`adopts namespace ${a.namespace}, which holds ${othersInNamespaces([a]).length} other object(s): deleting the environment later deletes them too`] : [],
      ),
    ],
    alsoDeleted: othersInNamespaces(plan.pruneCascades),
  };
}

/** The destroy plan as the client shows it: what is deleted, in order, and what is left alone. */
export function destroyPlanView(planId: string, title: string, plan: DestroyPlan): DestroyPlanView {
  const order = [...TIERS].reverse();
  const deletions = [...plan.deletions].sort((a, b) => order.indexOf(a.tier) - order.indexOf(b.tier));
  return {
    planId,
    title,
    objects: plan.inventoryExists ? [...deletions.map((d) => objectLabel(d.ref)), `ConfigMap ${plan.inventory.namespace}/${plan.inventory.name} (the inventory)`] : [],
    skipped: plan.skipped.map((s) => `${objectLabel(s.ref)}: ${s.reason}`),
    alsoDeleted: othersInNamespaces(plan.cascades),
    ...(plan.inventoryExists ? {} : { nothingToDelete: `There is no inventory ${plan.inventory.namespace}/${plan.inventory.name}: nothing to delete (never applied, or already deleted).` }),
    context: plan.context,
    server: plan.server,
  };
}
