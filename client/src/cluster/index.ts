/**
 * The cluster side of the extension: status bar + context picker, the palette commands, the tree
 * view, the plan diff documents. Everything cluster-related runs in the language server; this side
 * asks, confirms and shows.
 */
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { CLUSTER_TARGET_NOTIFICATION, WORKSPACE_TRUST_NOTIFICATION, type ClusterInitializationOptions } from '../../../server/src/protocol';
import { sendCustomNotification } from '../customRequests';
import { applyEnvironment } from './applyEnvironment';
import { ClusterCommands } from './clusterCommands';
import { ClusterTargetSelection, SELECT_CONTEXT_COMMAND } from './clusterTarget';
import { CLUSTER_VIEW_ID, ClusterTree, type ClusterTreeNode } from './clusterTree';
import { PlanDocuments } from './planDocuments';
import { deleteEnvironment, terminateWorkspace, waitForFluxSync } from './teardown';

/** The selection, once registered (read by {@link clusterInitializationOptions} on every server start). */
let selection: ClusterTargetSelection | undefined;

/** The initial trust state (the server refuses cluster work without it) and, when trusted, the selected cluster. */
export function clusterInitializationOptions(): ClusterInitializationOptions {
  const trusted = vscode.workspace.isTrusted;
  return { workspaceTrusted: trusted, ...(trusted && selection ? { cluster: selection.target() } : {}) };
}

/** Registers the cluster commands, status bar item and tree view; returns the cluster selection (shown in the language status too). */
export function registerClusterFeatures(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, output: vscode.OutputChannel): ClusterTargetSelection {
  const commands = new ClusterCommands(client);
  const target = new ClusterTargetSelection(context.workspaceState, commands);
  selection = target;
  // The server's hovers ask the selected cluster (RBAC preview): tell it whenever the choice changes.
  const sendTarget = () => {
    const running = client();
    if (running?.isRunning()) void sendCustomNotification(running, CLUSTER_TARGET_NOTIFICATION, { cluster: vscode.workspace.isTrusted ? target.target() : null });
  };
  // The kubeconfig file itself may change (a context added, a token rotated): read it again, no restart.
  let kubeconfigWatcher: vscode.FileSystemWatcher | undefined;
  const watchKubeconfig = () => {
    kubeconfigWatcher?.dispose();
    const file = target.kubeconfigPath || process.env.KUBECONFIG?.split(process.platform === 'win32' ? ';' : ':')[0] || `${os.homedir()}/.kube/config`;
    kubeconfigWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
    const reread = () => {
      void target.refreshCurrentContext();
      refresh();
    };
    kubeconfigWatcher.onDidChange(reread);
    kubeconfigWatcher.onDidCreate(reread);
    kubeconfigWatcher.onDidDelete(reread);
  };
  watchKubeconfig();
  context.subscriptions.push({ dispose: () => kubeconfigWatcher?.dispose() });
  // The client is created right after the features are registered; read the current-context once it runs.
  void Promise.resolve().then(() => {
    const languageClient = client();
    if (!languageClient) return;
    context.subscriptions.push(
      languageClient.onDidChangeState(({ newState }) => {
        if (newState === State.Running) void target.refreshCurrentContext();
      }),
    );
    if (languageClient.isRunning()) void target.refreshCurrentContext();
  });
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
    target.onDidChange(sendTarget),
    trusted(SELECT_CONTEXT_COMMAND, () => target.pick()),
    trusted('gitlabAgentConfig.applyEnvironment', () => applyEnvironment({ commands, target, documents, output, memory: context.workspaceState, onApplied: refresh })),
    trusted('gitlabAgentConfig.deleteEnvironment', (node?: ClusterTreeNode) => deleteEnvironment(deps, node)),
    trusted('gitlabAgentConfig.terminateWorkspace', (node?: ClusterTreeNode) => terminateWorkspace(deps, node)),
    trusted('gitlabAgentConfig.waitForFluxSync', () => waitForFluxSync(deps)),
    trusted('gitlabAgentConfig.refreshClusterView', refresh),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gitlabAgentConfig.cluster')) {
        watchKubeconfig();
        void target.refreshCurrentContext();
        sendTarget();
        refresh();
      }
    }),
  );
  if (vscode.workspace.isTrusted) target.show();
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      target.show();
      refresh();
      const running = client();
      if (running) void sendCustomNotification(running, WORKSPACE_TRUST_NOTIFICATION, { trusted: true });
      sendTarget();
    }),
  );
  return target;
}
