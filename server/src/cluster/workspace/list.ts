/**
 * The workspaces on a cluster, found as agentk's informer finds them (docs/gitlab-behaviour.md#workspace-labels-and-annotations): Deployments
 * labelled `agent.gitlab.com/id` (one agent's, or any), in every namespace (unique mode) or only the
 * shared namespace; each with the actual state Rails would compute from it (docs/gitlab-behaviour.md#workspace-states).
 */
import { AppsV1Api, type V1Deployment } from '@kubernetes/client-node';
import { ok, outcomeFromError, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { calculateActualState, type WorkspaceActualState } from './actualState';
import { AGENT_ID_LABEL, WORKSPACE_ID_KEY, workspaceNamespace } from './names';

export interface WorkspaceSummary {
  readonly name: string;
  readonly namespace: string;
  readonly agentId: string;
  readonly workspaceId?: string;
  /** `unique` when the namespace is the workspace's own `gl-rd-ns-<name>` (docs/gitlab-behaviour.md#workspace-names-and-namespaces). */
  readonly mode: 'unique' | 'shared';
  readonly actualState: WorkspaceActualState;
  readonly replicas?: number;
}

export interface ListWorkspacesOptions {
  readonly agentId?: string | number;
  /** Shared-namespace mode: look only there (agentk's informer is limited to it, docs/gitlab-behaviour.md#workspace-labels-and-annotations). */
  readonly sharedNamespace?: string;
}

/** Summarises one workspace Deployment. A Deployment being deleted counts as Terminating. */
export function summarizeWorkspace(deployment: V1Deployment): WorkspaceSummary {
  const name = deployment.metadata?.name ?? '';
  const namespace = deployment.metadata?.namespace ?? '';
  const workspaceId = deployment.metadata?.annotations?.[WORKSPACE_ID_KEY] ?? deployment.metadata?.labels?.[WORKSPACE_ID_KEY];
  return {
    name,
    namespace,
    agentId: deployment.metadata?.labels?.[AGENT_ID_LABEL] ?? '',
    ...(workspaceId ? { workspaceId } : {}),
    mode: namespace === workspaceNamespace(name) ? 'unique' : 'shared',
    actualState: calculateActualState({ deployment, ...(deployment.metadata?.deletionTimestamp ? { terminationProgress: 'Terminating' as const } : {}) }),
    ...(typeof deployment.spec?.replicas === 'number' ? { replicas: deployment.spec.replicas } : {}),
  };
}

/** Lists the workspaces, sorted by namespace and name. */
export async function listWorkspaces(session: ClusterSession, options: ListWorkspacesOptions = {}): Promise<ClusterOutcome<WorkspaceSummary[]>> {
  const agentId = options.agentId === undefined ? '' : String(options.agentId);
  if (agentId !== '' && !/^\d+$/.test(agentId)) return { type: 'invalid', causes: [], message: `an agent id is a number, not "${agentId}"` };
  const apps = session.kubeConfig.makeApiClient(AppsV1Api);
  const labelSelector = agentId !== '' ? `${AGENT_ID_LABEL}=${agentId}` : AGENT_ID_LABEL;
  try {
    const list = options.sharedNamespace
      ? await apps.listNamespacedDeployment({ namespace: options.sharedNamespace, labelSelector })
      : await apps.listDeploymentForAllNamespaces({ labelSelector });
    const summaries = list.items.map(summarizeWorkspace);
    summaries.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
    return ok(summaries);
  } catch (err) {
    return outcomeFromError(err);
  }
}
