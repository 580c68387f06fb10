/**
 * The cluster side of the extension: status bar + context picker, the palette commands, the tree
 * view, the plan diff documents. Everything cluster-related runs in the language server; this side
 * asks, confirms and shows.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { WORKSPACE_TRUST_NOTIFICATION, type ClusterInitializationOptions, type WorkspaceTrustParams } from '../../../server/src/protocol';
import { applyEnvironment } from './applyEnvironment';
import { ClusterCommands } from './clusterCommands';
import { ClusterTargetSelection, SELECT_CONTEXT_COMMAND } from './clusterTarget';
import { CLUSTER_VIEW_ID, ClusterTree, type ClusterTreeNode } from './clusterTree';
import { PlanDocuments } from './planDocuments';
import { deleteEnvironment, terminateWorkspace, waitForFluxSync } from './teardown';

/** The initial trust state for `initializationOptions` (the server refuses cluster work without it). */
export function clusterInitializationOptions(): ClusterInitializationOptions {
  return { workspaceTrusted: vscode.workspace.isTrusted };
}

/** Registers the cluster commands, status bar item and tree view. */
export function registerClusterFeatures(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, output: vscode.OutputChannel): void {
  const commands = new ClusterCommands(client);
  const target = new ClusterTargetSelection(context.workspaceState, commands);
  const documents = new PlanDocuments();
  const tree = new ClusterTree(commands, target);
  const refresh = () => tree.refresh();
  const deps = { commands, target, output, onChanged: refresh };

  /** A command that runs only in a trusted workspace (package.json also hides it with `isWorkspaceTrusted`). */
  const trusted = <A extends unknown[]>(id: string, run: (...args: A) => Promise<unknown> | unknown) =>
    vscode.commands.registerCommand(id, async (...args: A) => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('Cluster operations are disabled in untrusted workspaces. Trust this workspace to use them.');
        return;
      }
      try {
        await run(...args);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        output.appendLine(`${id} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
        void vscode.window.showErrorMessage(`${message}`);
      }
    });

  context.subscriptions.push(
    target,
    documents,
    tree,
    vscode.window.registerTreeDataProvider(CLUSTER_VIEW_ID, tree),
    target.onDidChange(refresh),
    trusted(SELECT_CONTEXT_COMMAND, () => target.pick()),
    trusted('gitlabAgentConfig.applyEnvironment', () => applyEnvironment({ commands, target, documents, output, onApplied: refresh })),
    trusted('gitlabAgentConfig.deleteEnvironment', (node?: ClusterTreeNode) => deleteEnvironment(deps, node)),
    trusted('gitlabAgentConfig.terminateWorkspace', (node?: ClusterTreeNode) => terminateWorkspace(deps, node)),
    trusted('gitlabAgentConfig.waitForFluxSync', () => waitForFluxSync(deps)),
    trusted('gitlabAgentConfig.refreshClusterView', refresh),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gitlabAgentConfig.cluster')) refresh();
    }),
  );
  if (vscode.workspace.isTrusted) target.show();
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      target.show();
      refresh();
      void client()?.sendNotification(WORKSPACE_TRUST_NOTIFICATION, { trusted: true } satisfies WorkspaceTrustParams);
    }),
  );
}
