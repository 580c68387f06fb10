import type { Connection } from 'vscode-languageserver';
import { waitForFluxSync } from '../../cluster/flux/wait';
import { isFailure } from '../../cluster/kube/outcome';
import { clusterTarget, operationOptions, record, text } from './args';
import { fromFailure, InvalidArguments, type ClusterCommandRouter } from './commandRouter';
import { runOperation } from './operation';
import { CLUSTER_COMMANDS, type ExecutionReport } from '../../protocol/cluster';
import { withSession } from './session';

/** `waitForFluxSync` (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job): watch until the revision is applied, with progress, cancellation and a timeout. */
export function registerFluxCommand(router: ClusterCommandRouter, connection: Connection): void {
  router.register(CLUSTER_COMMANDS.waitForFluxSync, async (argument, call) => {
    const args = record(argument, 'the argument');
    const kind = text(args, 'kind');
    if (kind !== 'Kustomization' && kind !== 'OCIRepository') throw new InvalidArguments('"kind" must be "Kustomization" or "OCIRepository"');
    const namespace = text(args, 'namespace');
    const name = text(args, 'name');
    const revision = text(args, 'revision');
    const { timeoutMs } = operationOptions(args);
    return withSession<ExecutionReport>(clusterTarget(args), (session) =>
      runOperation(connection, call.params, call.token, `Waiting for ${kind} ${namespace}/${name} to apply ${revision}`, async ({ signal, report }) => {
        const waited = await waitForFluxSync(session, { kind, namespace, name, revision, signal, progress: { report }, ...(timeoutMs ? { timeoutMs } : {}) });
        if (isFailure(waited)) return fromFailure(waited);
        const value: ExecutionReport = {
          summary: `Flux applied ${revision}: ${waited.value.kustomizations.map((k) => `Kustomization ${k.namespace}/${k.name} is Ready`).join(', ')}.`,
          lines: waited.value.kustomizations.map((k) => ({ object: `Kustomization ${k.namespace}/${k.name}`, result: `${k.revision}: ${k.message}`, ok: true })),
        };
        return { ok: true, value };
      }),
    );
  });
}
