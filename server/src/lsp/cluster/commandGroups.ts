/**
 * Every cluster command group, registered at once. Only {@link ClusterFeature} imports this file,
 * and only with a dynamic `import()` on the first cluster command: the groups pull in
 * `@kubernetes/client-node` (many MiB of heap once evaluated), which an editor that never runs
 * a cluster command should not pay for.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ClusterCommandRouter } from './commandRouter';
import { registerClusterObjectsCommand } from './clusterObjectsCommand';
import { registerContextsCommand } from './contextsCommand';
import { registerFluxCommand } from './fluxCommand';
import { registerPlanCommands } from './planCommands';
import type { PlanStore } from './planStore';
import { registerWorkspaceCommands } from './workspaceCommands';
import { dropBundledUrlParseWarning } from '../../cluster/kube/urlParseWarning';

// Before any request of the bundle's Kubernetes client (Node 24 and later would warn about its url.parse()).
dropBundledUrlParseWarning();

export function registerCommandGroups(router: ClusterCommandRouter, connection: Connection, documents: TextDocuments<TextDocument>, plans: PlanStore): void {
  registerContextsCommand(router);
  registerPlanCommands(router, connection, documents, plans);
  registerWorkspaceCommands(router, connection);
  registerFluxCommand(router, connection);
  registerClusterObjectsCommand(router, connection);
}

// The hover's RBAC preview lives in this bundle too (it needs the Kubernetes client).
export { reviewJobAccess } from './accessReview';
