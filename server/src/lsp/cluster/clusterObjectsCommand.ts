import type { Connection } from 'vscode-languageserver';
import { listEnvironments, type EnvironmentSummary } from '../../cluster/environments';
import { describeOutcome, isFailure } from '../../cluster/kube/outcome';
import { EDITOR_ADVICE } from '../../cluster/kube/advice';
import { describeStep } from '../../cluster/progressSteps';
import { listWorkspaces } from '../../cluster/workspace/list';
import { clusterTarget, operationOptions, record } from './args';
import type { ClusterCommandRouter } from './commandRouter';
import { runOperation } from './operation';
import { CLUSTER_COMMANDS, type ClusterInventory, type EnvironmentView } from '../../protocol/cluster';
import { withSession } from './session';

/** `listClusterObjects`: the managed environments (GitLab's annotation, docs/gitlab-behaviour.md#managed-object-labels-and-annotation) and the workspaces (docs/gitlab-behaviour.md#workspace-labels-and-annotations) of the cluster. */
export function registerClusterObjectsCommand(router: ClusterCommandRouter, connection: Connection): void {
  router.register(CLUSTER_COMMANDS.listClusterObjects, async (argument, call) => {
    const args = record(argument ?? {}, 'the argument');
    // Environments are looked for in every namespace the identity can list; the agent namespace
    // setting only narrows the search when the identity cannot list cluster-wide.
    const { agentNamespace } = operationOptions(args);
    return withSession<ClusterInventory>(clusterTarget(args), (session) =>
      runOperation(connection, call.params, call.token, `Reading ${session.context}`, async ({ signal, report }) => {
        report(describeStep({ kind: 'listing', what: 'environments and workspaces' }));
        const [environments, workspaces] = await Promise.all([listEnvironments(session, { signal }), listWorkspaces(session)]);
        const problems: string[] = [];
        let envs = environments;
        let environmentsNamespace: string | undefined;
        if (isFailure(envs) && envs.type === 'forbidden' && agentNamespace) {
          envs = await listEnvironments(session, { signal, namespace: agentNamespace });
          if (!isFailure(envs)) environmentsNamespace = agentNamespace;
        }
        if (isFailure(envs)) problems.push(`Environments: ${describeOutcome(envs, EDITOR_ADVICE)}`);
        if (isFailure(workspaces)) problems.push(`Workspaces: ${describeOutcome(workspaces, EDITOR_ADVICE)}`);
        return {
          ok: true,
          value: {
            context: session.context,
            environments: isFailure(envs) ? [] : envs.value.map(environmentView),
            workspaces: isFailure(workspaces) ? [] : workspaces.value.map((w) => ({ name: w.name, namespace: w.namespace, mode: w.mode, state: w.actualState })),
            problems,
            ...(isFailure(envs) ? { environmentsProblem: describeOutcome(envs, EDITOR_ADVICE) } : {}),
            ...(isFailure(workspaces) ? { workspacesProblem: describeOutcome(workspaces, EDITOR_ADVICE) } : {}),
            ...(environmentsNamespace ? { environmentsNamespace } : {}),
          },
        };
      }),
    );
  });
}

function environmentView(e: EnvironmentSummary): EnvironmentView {
  const namespace = e.objects.find((o) => o.ref.kind === 'Namespace' && o.ref.group === '')?.ref.name;
  const state = e.ready
    ? 'Ready'
    : e.missing > 0
      ? `${e.missing} missing`
      : e.objects.some((o) => o.state === 'failed')
        ? 'Failed'
        : e.objects.some((o) => o.state === 'unknown')
          ? 'Unknown'
          : 'Progressing';
  return {
    inventory: { namespace: e.inventory.namespace, name: e.inventory.name },
    environment: e.identity.environmentName,
    ...(e.identity.projectPath ? { projectPath: e.identity.projectPath } : {}),
    ...(namespace ? { namespace } : {}),
    objectCount: e.objects.length,
    state,
  };
}
