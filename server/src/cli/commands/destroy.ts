/** `agentcfg destroy`: delete an environment's resources from its inventory (`delete_resources: on_stop`). */
import { describeDestroyPlan, planDestroy } from '../../cluster/destroy/plan';
import { destroyLockSubject, executeDestroy } from '../../cluster/destroy/execute';
import type { HeldLock } from '../../cluster/operationLock';
import { DEFAULT_AGENT_NAMESPACE } from '../../cluster/apply/gitlabMetadata';
import { isFailure } from '../../cluster/kube/outcome';
import { parseArgs, UsageError } from '../args';
import type { CliCommand } from '../io';
import { askYesNo, CLUSTER_VALUES, outputFormat, timeoutOption, withClusterSession, withPlanLock, type ClusterRun } from '../clusterOptions';
import { nameOption } from '../options';
import { observeDestroy } from '../progressLedgers';
import { checkEnvironmentOptions, diagnosticLines, ENVIRONMENT_USAGE, ENVIRONMENT_VALUES, environmentFromArgs } from './environmentArgs';
import { CLUSTER_COMMAND_SUMMARIES } from './clusterSummaries';

const USAGE = `agentcfg destroy ${ENVIRONMENT_USAGE}
   or: agentcfg destroy --inventory <name> [--agent-namespace <ns>]
       [--context <name>] [--kubeconfig <path>] [--dry-run] [--yes] [--delete-others] [--timeout <5m>] [--format text|json]

Deleting the environment's namespace deletes everything in it: objects the environment did not
create are listed, and deleted only with --delete-others.`;

export const destroyCommand: CliCommand = {
  name: 'destroy',
  summary: CLUSTER_COMMAND_SUMMARIES.destroy,
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: [...ENVIRONMENT_VALUES, ...CLUSTER_VALUES, 'inventory'], flags: ['dry-run', 'yes', 'delete-others'] });
    const format = outputFormat(args);
    const timeoutMs = timeoutOption(args);
    let inventory: { name: string; namespace: string };
    let deleteResources: string | undefined;
    const inventoryName = nameOption(args, 'inventory', 'subdomain');
    if (inventoryName !== undefined) {
      if (args.positional.length > 0) throw new UsageError('--inventory names the environment already; leave out the template');
      checkEnvironmentOptions(args);
      inventory = { name: inventoryName, namespace: nameOption(args, 'agent-namespace', 'namespace') ?? DEFAULT_AGENT_NAMESPACE };
    } else {
      const prepared = await environmentFromArgs(args, io);
      if (!prepared.ok) {
        if (format === 'json') io.out(JSON.stringify({ ok: false, errors: prepared.errors }) + '\n');
        else io.err(diagnosticLines(prepared.templateFile, prepared.errors));
        return 1;
      }
      inventory = prepared.environment.inventory;
      deleteResources = prepared.environment.deleteResources;
    }
    // Nobody reviews the plan of `--yes` without `--dry-run`: no dry-run deletes (the delete is the server's verdict); every guard still runs.
    const preview = !args.flags.has('yes') || args.flags.has('dry-run');
    const dryRun = args.flags.has('dry-run');
    return withClusterSession(args, io, format, 'destroy', (run) => withPlanLock(run, dryRun ? null : destroyLockSubject({ inventory }), 'destroy', timeoutMs, (lock) => destroyRun(run, lock)));

    async function destroyRun(run: ClusterRun, heldLock: HeldLock | undefined): Promise<number> {
      const { session, signal, progress } = run;
      const planned = await planDestroy(session, { inventory, ...(deleteResources ? { deleteResources } : {}) }, { progress, signal, preview });
      if (isFailure(planned)) return run.fail(planned);
      const plan = planned.value;
      const planJson = {
        context: plan.context,
        inventory: plan.inventory,
        inventoryExists: plan.inventoryExists,
        deletions: plan.deletions.map((d) => ({ ref: d.ref })),
        skipped: plan.skipped,
        blocked: plan.blocked,
        alsoDeleted: plan.cascades.map((c) => ({ namespace: c.namespace, objects: c.objects, unlisted: c.unlisted })),
      };
      if (format === 'text') io.out(`Context ${plan.context} (${plan.server})\n${describeDestroyPlan(plan, { deleteOthers: args.flags.has('delete-others') }).map((l) => `  ${l}`).join('\n')}\n`);
      if (dryRun || plan.blocked.length > 0 || !plan.inventoryExists) {
        if (format === 'json') io.out(JSON.stringify({ ok: plan.blocked.length === 0, dryRun, plan: planJson, result: null, requests: session.requests.snapshot() }) + '\n');
        return plan.blocked.length > 0 ? 1 : 0;
      }
      run.observe(observeDestroy(run.ledger, plan));
      if (!args.flags.has('yes')) {
        const answer = await askYesNo(`Delete these ${plan.deletions.length} objects from ${plan.context}?`);
        if (answer !== true) {
          io.err(answer === undefined ? 'Not deleted: no terminal to confirm on; pass --yes to delete without asking.\n' : 'Not deleted.\n');
          return 1;
        }
      }
      const result = await executeDestroy(session, plan, { progress, signal, heldLock, deleteOthers: args.flags.has('delete-others'), ...(timeoutMs ? { timeoutMs } : {}) });
      if (isFailure(result)) return run.fail(result);
      if (format === 'json') io.out(JSON.stringify({ ok: true, dryRun: false, plan: planJson, result: result.value, requests: session.requests.snapshot() }) + '\n');
      else io.out(`Deleted ${result.value.deleted.length} objects and the inventory${result.value.skipped.length ? `; ${result.value.skipped.length} left alone (see skip)` : ''}.\n`);
      return 0;
    }
  },
};
