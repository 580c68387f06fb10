import os from 'node:os';
import * as vscode from 'vscode';
import { CLUSTER_COMMANDS, type ClusterTarget } from '../../../server/src/protocol';
import type { ClusterCommands } from './clusterCommands';

const SELECTED_CONTEXT_KEY = 'gitlabAgentConfig.cluster.selectedContext';
export const SELECT_CONTEXT_COMMAND = 'gitlabAgentConfig.selectClusterContext';

/**
 * The cluster the commands act on: the kubeconfig (setting `gitlabAgentConfig.cluster.kubeconfig`,
 * else `KUBECONFIG`, else `~/.kube/config`, resolved by the server) and the context the user picked.
 * The choice lives in the workspace's memento and the status bar; the kubeconfig file itself is
 * never written (no `use-context`).
 */
export class ClusterTargetSelection implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly commands: ClusterCommands,
  ) {
    this.item = vscode.window.createStatusBarItem('gitlabAgentConfig.clusterContext', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'GitLab Agent: cluster context';
    this.item.command = SELECT_CONTEXT_COMMAND;
    this.render();
  }

  /** Shows the status bar item (only in trusted workspaces: cluster work is disabled otherwise). */
  show(): void {
    this.item.show();
  }

  /** The context the user picked; undefined: the kubeconfig's current-context is used. */
  get context(): string | undefined {
    return this.state.get<string>(SELECTED_CONTEXT_KEY) || undefined;
  }

  /** The kubeconfig's current-context as last read (undefined: none, or the kubeconfig cannot be read). */
  private currentContext: string | undefined;
  private currentProblem: string | undefined;

  /**
   * Reads the kubeconfig's current-context again (on start, when the setting or the file changes):
   * without a picked context it is the one the commands use and the status bar shows.
   */
  async refreshCurrentContext(): Promise<void> {
    const listed = await this.commands.call(CLUSTER_COMMANDS.listContexts, { ...(this.kubeconfigPath ? { kubeconfigPath: this.kubeconfigPath } : {}) });
    const [current, problem] = listed.ok ? [listed.value.currentContext || undefined, listed.value.currentContext ? undefined : `the kubeconfig (${listed.value.source}) has no current-context`] : [undefined, listed.message];
    if (current === this.currentContext && problem === this.currentProblem) return;
    this.currentContext = current;
    this.currentProblem = problem;
    this.render();
    this.changed.fire();
  }

  /** The context operations use: the picked one, else the kubeconfig's current-context. */
  get effectiveContext(): string | undefined {
    return this.context ?? this.currentContext;
  }

  /** The kubeconfig path from settings; empty means the server's default lookup. */
  get kubeconfigPath(): string {
    const value = vscode.workspace.getConfiguration('gitlabAgentConfig.cluster').get<string>('kubeconfig', '').trim();
    // `~/.kube/other` as people write it in settings; the server takes paths literally.
    return value.replace(/^~(?=$|[\\/])/, os.homedir());
  }

  target(): ClusterTarget {
    const context = this.context;
    return { ...(this.kubeconfigPath ? { kubeconfigPath: this.kubeconfigPath } : {}), ...(context ? { context } : {}) };
  }

  /** The settings every operation passes: its timeout and the agent's (protected) namespace. */
  operationArgs(): { timeoutSeconds: number; agentNamespace?: string } {
    const settings = vscode.workspace.getConfiguration('gitlabAgentConfig.cluster');
    const agentNamespace = settings.get<string>('agentNamespace', '').trim();
    return { timeoutSeconds: settings.get<number>('readyTimeoutSeconds', 120), ...(agentNamespace ? { agentNamespace } : {}) };
  }

  /** Quick pick of the kubeconfig's contexts; resolves with the chosen one (undefined: dismissed). */
  async pick(): Promise<string | undefined> {
    const listed = await this.commands.call(CLUSTER_COMMANDS.listContexts, { ...(this.kubeconfigPath ? { kubeconfigPath: this.kubeconfigPath } : {}) });
    if (!listed.ok) {
      void vscode.window.showErrorMessage(`Could not read the kubeconfig contexts: ${listed.message}`);
      return undefined;
    }
    const { contexts, currentContext, source } = listed.value;
    if (contexts.length === 0) {
      void vscode.window.showWarningMessage(`The kubeconfig (${source}) has no contexts.`);
      return undefined;
    }
    const selected = this.context;
    const items = contexts.map((c) => ({
      label: c.name,
      description: [c.name === selected ? 'selected' : '', c.name === currentContext ? 'kubeconfig current-context' : ''].filter(Boolean).join(' · '),
      detail: `${c.server ?? c.cluster} as ${c.user}${c.namespace ? ` · namespace ${c.namespace}` : ''}`,
    }));
    const choice = await vscode.window.showQuickPick(items, { title: 'Select cluster context', placeHolder: `Contexts of ${source}` });
    if (!choice) return undefined;
    await this.state.update(SELECTED_CONTEXT_KEY, choice.label);
    this.render();
    this.changed.fire();
    return choice.label;
  }

  /** The selected context, asking for one first when none is selected yet. */
  async ensure(): Promise<ClusterTarget | undefined> {
    if (!this.context && !this.currentContext) await this.refreshCurrentContext();
    if (!this.effectiveContext && !(await this.pick())) return undefined;
    return this.target();
  }

  private render(): void {
    const picked = this.context;
    const context = this.effectiveContext;
    this.item.text = `$(server-environment) ${context ?? 'No cluster context'}`;
    this.item.tooltip = picked
      ? `GitLab Agent: cluster operations use the kubeconfig context "${picked}". Click to change (the kubeconfig is not modified).`
      : context
        ? `GitLab Agent: cluster operations use the kubeconfig's current-context "${context}". Click to pick another (the kubeconfig is not modified).`
        : `GitLab Agent: no cluster context${this.currentProblem ? ` (${this.currentProblem})` : ''}. Click to select one, or set gitlabAgentConfig.cluster.kubeconfig.`;
  }

  dispose(): void {
    this.item.dispose();
    this.changed.dispose();
  }
}
