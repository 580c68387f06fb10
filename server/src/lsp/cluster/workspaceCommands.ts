import { isFailure } from '../../cluster/kube/outcome';
import { runTermination } from '../../cluster/workspace/terminate';
import { clusterTarget, operationOptions, record, text } from './args';
import { fromFailure, InvalidArguments, type ClusterCommandRouter } from './commandRouter';
import { runOperation } from './operation';
import { CLUSTER_COMMANDS, type ExecutionReport } from '../../protocol/cluster';
import { withSession } from './session';
import type { Connection } from 'vscode-languageserver';

/** `terminateWorkspace`: agentk's termination (docs/gitlab-behaviour.md#workspace-termination) run to Terminated, with progress and cancellation. */
export function registerWorkspaceCommands(router: ClusterCommandRouter, connection: Connection): void {
  router.register(CLUSTER_COMMANDS.terminateWorkspace, async (argument, call) => {
    const args = record(argument, 'the argument');
    const name = text(args, 'name');
    const namespace = text(args, 'namespace');
    const mode = text(args, 'mode');
    if (mode !== 'unique' && mode !== 'shared') throw new InvalidArguments('"mode" must be "unique" or "shared"');
    const { timeoutMs } = operationOptions(args);
    const dryRun = args.dryRun === true;
    return withSession<ExecutionReport>(clusterTarget(args), (session) =>
      runOperation(connection, call.params, call.token, `${dryRun ? 'Previewing the termination of' : 'Terminating'} workspace ${name}`, async ({ signal, report }) => {
        const run = await runTermination(session, { name, namespace, mode }, { signal, progress: { report }, dryRun, ...(timeoutMs ? { timeoutMs } : {}) });
        if (isFailure(run)) return fromFailure(run);
        if (dryRun) {
          const wouldDelete = run.value.cycles.flatMap((c) => c.deleted);
          const preview: ExecutionReport = {
            summary: wouldDelete.length ? `Terminating workspace ${name} deletes:` : `Workspace ${name} has nothing left on the cluster: it is ${run.value.progress ?? 'already Terminated'}.`,
            lines: wouldDelete.map((object) => ({ object, result: 'to delete', ok: true })),
          };
          return { ok: true, value: preview };
        }
        const deleted = run.value.cycles.flatMap((c) => c.deleted);
        const value: ExecutionReport = {
          summary: `Workspace ${name} is ${run.value.progress ?? 'forgotten (already Terminated)'}; progress reported: ${run.value.reported.join(' → ') || 'none'}.`,
          lines: deleted.map((object) => ({ object, result: 'deleted', ok: true })),
        };
        return { ok: true, value };
      }),
    );
  });
}
