import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { executeApply } from '../../cluster/apply/execute';
import { planApply } from '../../cluster/apply/plan';
import { executeDestroy } from '../../cluster/destroy/execute';
import { planDestroy } from '../../cluster/destroy/plan';
import { isFailure } from '../../cluster/kube/outcome';
import type { ClusterSession } from '../../cluster/kube/session';
import { clusterTarget, operationOptions, record, text } from './args';
import { fromFailure, type ClusterCommandRouter } from './commandRouter';
import { prepareForScenario, readScenario } from './environmentTemplate';
import { runOperation } from './operation';
import { applyPlanView, blockedKind, blockedMessage, destroyPlanView, objectLabel } from './planViews';
import type { PlanStore, StoredPlan } from './planStore';
import { CLUSTER_COMMANDS, type ApplyPlanView, type ClusterCommandResult, type DestroyPlanView, type ExecutionReport } from '../../protocol/cluster';
import { withSession } from './session';

/**
 * Plan, then execute: `planApply` / `planDestroy` read and dry-run (changing nothing) and keep the
 * plan in the server; `executePlan` carries out exactly that plan once the user confirmed it,
 * against the same context and API server; `discardPlan` forgets a declined one.
 */
export function registerPlanCommands(router: ClusterCommandRouter, connection: Connection, documents: TextDocuments<TextDocument>, plans: PlanStore): void {
  router.register(CLUSTER_COMMANDS.planApply, async (argument, call) => {
    const args = record(argument, 'the argument');
    const scenario = readScenario(args.scenario);
    const target = clusterTarget(args);
    const options = operationOptions(args);
    const prepared = await prepareForScenario(documents, text(args, 'templateUri', { optional: true }), scenario, options.agentNamespace);
    if ('ok' in prepared) return prepared;
    const { environment, source } = prepared;
    const subject = `${environment.data.environment.name} (${environment.inventory.name})`;
    const title = `environment ${subject}`;
    return withSession<ApplyPlanView>(target, (session) =>
      runOperation(connection, call.params, call.token, `Planning ${title}`, async ({ signal, report }) => {
        const plan = await planApply(session, environment, { signal, progress: { report } });
        if (isFailure(plan)) return fromFailure(plan);
        if (plan.value.blocked.length > 0) return { ok: false, kind: blockedKind(plan.value.blocked), message: blockedMessage(subject, plan.value.blocked) };
        const warnings = [...environment.rendered.warnings.map((w) => `${source}:${w.range.start.line + 1}:${w.range.start.character + 1}: ${w.message}`)];
        const planId = plans.add({ kind: 'apply', plan: plan.value, target, title });
        return { ok: true, value: applyPlanView(planId, title, plan.value, source, warnings) };
      }),
    );
  });

  router.register(CLUSTER_COMMANDS.planDestroy, async (argument, call) => {
    const args = record(argument, 'the argument');
    const target = clusterTarget(args);
    const inventory = record(args.inventory, '"inventory"');
    const where = { namespace: text(inventory, 'namespace'), name: text(inventory, 'name') };
    const deleteResources = text(args, 'deleteResources', { optional: true });
    const subject = `inventory ${where.namespace}/${where.name}`;
    const title = `environment ${subject}`;
    return withSession<DestroyPlanView>(target, (session) =>
      runOperation(connection, call.params, call.token, `Planning the deletion of ${title}`, async ({ signal, report }) => {
        const plan = await planDestroy(session, { inventory: where, ...(deleteResources ? { deleteResources } : {}) }, { signal, progress: { report } });
        if (isFailure(plan)) return fromFailure(plan);
        if (plan.value.blocked.length > 0) return { ok: false, kind: blockedKind(plan.value.blocked), message: blockedMessage(subject, plan.value.blocked) };
        const planId = plans.add({ kind: 'destroy', plan: plan.value, target, title });
        return { ok: true, value: destroyPlanView(planId, title, plan.value) };
      }),
    );
  });

  router.register(CLUSTER_COMMANDS.executePlan, async (argument, call) => {
    const args = record(argument, 'the argument');
    const planId = text(args, 'planId');
    const force = args.force === true;
    const deleteOthers = args.deleteOthers === true;
    const options = operationOptions(args);
    const stored = plans.take(planId);
    if (!stored) return { ok: false, kind: 'planNotFound', message: 'This plan is no longer available (executed, declined, or older than 15 minutes). Run the command again to see a fresh plan.' };
    return withSession<ExecutionReport>(stored.target, async (session) => {
      const moved = sameCluster(stored, session);
      if (moved) return moved;
      const verb = stored.kind === 'apply' ? 'Applying' : 'Deleting';
      return runOperation(connection, call.params, call.token, `${verb} ${stored.title}`, async ({ signal, report }) => {
        const operation = { signal, progress: { report }, deleteOthers, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
        if (stored.kind === 'apply') {
          const result = await executeApply(session, stored.plan, { ...operation, force });
          if (isFailure(result)) return fromFailure(result);
          const { applied, pruned, inventory } = result.value;
          const count = (action: string) => applied.filter((a) => a.action === action).length;
          const value: ExecutionReport = {
            summary: `${count('create')} created, ${count('update')} updated, ${count('unchanged')} unchanged, ${pruned.length} pruned; inventory ${inventory.namespace}/${inventory.name} lists ${inventory.objects.length} objects.`,
            lines: [...applied.map((a) => ({ object: objectLabel(a.ref), result: a.action === 'unchanged' ? 'unchanged' : `${a.action}d, ready`, ok: true })), ...pruned.map((ref) => ({ object: objectLabel(ref), result: 'pruned', ok: true }))],
          };
          return { ok: true, value };
        }
        const result = await executeDestroy(session, stored.plan, operation);
        if (isFailure(result)) return fromFailure(result);
        const { deleted, skipped, inventoryDeleted } = result.value;
        const value: ExecutionReport = {
          summary: `${deleted.length} deleted${skipped.length ? `, ${skipped.length} left alone` : ''}${inventoryDeleted ? '; inventory deleted' : ''}.`,
          lines: [
            ...deleted.map((ref) => ({ object: objectLabel(ref), result: 'deleted', ok: true })),
            ...skipped.map((s) => ({ object: objectLabel(s.ref), result: s.reason, ok: true })),
          ],
        };
        return { ok: true, value };
      });
    });
  });

  router.register(CLUSTER_COMMANDS.discardPlan, async (argument) => {
    plans.discard(text(record(argument, 'the argument'), 'planId'));
    return { ok: true, value: null };
  });
}

/** A plan is executed only against the cluster it was made for (the kubeconfig may have changed since). */
function sameCluster(stored: StoredPlan, session: ClusterSession): ClusterCommandResult<never> | undefined {
  if (session.context === stored.plan.context && session.server === stored.plan.server) return undefined;
  return {
    ok: false,
    kind: 'refused',
    message: `The plan was made against context ${stored.plan.context} (${stored.plan.server}) but the kubeconfig now resolves to ${session.context} (${session.server}); nothing was changed. Run the command again.`,
  };
}
