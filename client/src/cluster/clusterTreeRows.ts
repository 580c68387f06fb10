/**
 * What the Cluster view shows for one listing of a cluster, decided without VS Code (so it is tested
 * as plain data against the real control plane, test/cluster/lsp-cluster-tree.test.ts). One
 * coherent state per cluster: the cluster could not be read; or each list shows what was
 * found, that none was found (saying where it looked when that was one namespace), or why it could
 * not be read — never "none found" beside "forbidden" for the same list.
 */
import type { ClusterInventory, EnvironmentView, WorkspaceView } from '../../../server/src/protocol';

export type ClusterRow =
  | { readonly type: 'group'; readonly label: 'Environments' | 'Workspaces' }
  | { readonly type: 'environment'; readonly environment: EnvironmentView }
  | { readonly type: 'workspace'; readonly workspace: WorkspaceView }
  | { readonly type: 'message'; readonly text: string };

/**
 * The top level. A listing that failed whole (a string: unreachable, no credentials) is one message;
 * so are both lists failing for one reason (an identity that may read neither). Lists failing for
 * different reasons are one message each, without empty groups around them.
 */
export function topRows(listing: ClusterInventory | string): ClusterRow[] {
  if (typeof listing === 'string') return [{ type: 'message', text: listing }];
  const { environmentsProblem: environments, workspacesProblem: workspaces } = listing;
  if (environments && workspaces) {
    return environments === workspaces
      ? [{ type: 'message', text: `Cannot list environments or workspaces: ${environments}` }]
      : [
          { type: 'message', text: `Cannot list environments: ${environments}` },
          { type: 'message', text: `Cannot list workspaces: ${workspaces}` },
        ];
  }
  return [
    { type: 'group', label: 'Environments' },
    { type: 'group', label: 'Workspaces' },
  ];
}

/** The rows under a group: what was found, that none was found (and where it looked), or why it could not be listed. */
export function groupRows(listing: ClusterInventory, label: 'Environments' | 'Workspaces'): ClusterRow[] {
  if (label === 'Environments') {
    if (listing.environmentsProblem) return [{ type: 'message', text: `Cannot list: ${listing.environmentsProblem}` }];
    if (listing.environments.length) return listing.environments.map((environment) => ({ type: 'environment', environment }));
    const where = listing.environmentsNamespace;
    return [{ type: 'message', text: where ? `No managed environments in namespace ${where} (this context may not list the other namespaces)` : 'No managed environments' }];
  }
  if (listing.workspacesProblem) return [{ type: 'message', text: `Cannot list: ${listing.workspacesProblem}` }];
  return listing.workspaces.length ? listing.workspaces.map((workspace) => ({ type: 'workspace', workspace })) : [{ type: 'message', text: 'No workspaces' }];
}
