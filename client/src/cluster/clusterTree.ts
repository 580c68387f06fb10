import * as vscode from 'vscode';
import { CLUSTER_COMMANDS, type ClusterInventory, type EnvironmentView, type WorkspaceView } from '../../../server/src/protocol';
import type { ClusterCommands } from './clusterCommands';
import type { ClusterTargetSelection } from './clusterTarget';

export const CLUSTER_VIEW_ID = 'gitlabAgentConfig.clusterView';

type Node =
  | { readonly type: 'group'; readonly label: 'Environments' | 'Workspaces' }
  | { readonly type: 'environment'; readonly environment: EnvironmentView }
  | { readonly type: 'workspace'; readonly workspace: WorkspaceView }
  | { readonly type: 'message'; readonly text: string };

/** Tree items that carry what their inline actions need. */
export type ClusterTreeNode = Node;

/**
 * The managed environments and workspaces found on the selected cluster by GitLab's labels, with
 * their state; delete/terminate are inline actions (package.json `view/item/context`).
 */
export class ClusterTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private inventory: Promise<ClusterInventory | string> | undefined;

  constructor(
    private readonly commands: ClusterCommands,
    private readonly target: ClusterTargetSelection,
  ) {}

  refresh(): void {
    this.inventory = undefined;
    this.changed.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'group':
        return Object.assign(new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded), { contextValue: 'group' });
      case 'environment': {
        const e = node.environment;
        const item = new vscode.TreeItem(e.environment, vscode.TreeItemCollapsibleState.None);
        item.description = `${e.state} · ${e.objectCount} object${e.objectCount === 1 ? '' : 's'}${e.namespace ? ` · ${e.namespace}` : ''}`;
        item.tooltip = `${e.projectPath ? `Project ${e.projectPath}\n` : ''}Inventory ${e.inventory.namespace}/${e.inventory.name}`;
        item.iconPath = new vscode.ThemeIcon('package');
        item.contextValue = 'environment';
        return item;
      }
      case 'workspace': {
        const w = node.workspace;
        const item = new vscode.TreeItem(w.name, vscode.TreeItemCollapsibleState.None);
        item.description = `${w.state} · ${w.namespace} (${w.mode} namespace)`;
        item.iconPath = new vscode.ThemeIcon('vm');
        item.contextValue = 'workspace';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.tooltip = node.text;
        return item;
      }
    }
  }

  async getChildren(node?: Node): Promise<Node[]> {
    // No context yet: no children, so the view shows its welcome content (package.json viewsWelcome).
    if (!this.target.effectiveContext) return [];
    this.inventory ??= this.load();
    const inventory = await this.inventory;
    if (typeof inventory === 'string') return node ? [] : [{ type: 'message', text: inventory }];
    // One state per list: what was found, that none was found, or why it could not be read — never two of them side by side.
    if (!node) return [{ type: 'group', label: 'Environments' }, { type: 'group', label: 'Workspaces' }];
    if (node.type !== 'group') return [];
    if (node.label === 'Environments') {
      if (inventory.environmentsProblem) return [{ type: 'message', text: `Cannot list: ${inventory.environmentsProblem}` }];
      return inventory.environments.length ? inventory.environments.map((environment) => ({ type: 'environment', environment })) : [{ type: 'message', text: 'No managed environments' }];
    }
    if (inventory.workspacesProblem) return [{ type: 'message', text: `Cannot list: ${inventory.workspacesProblem}` }];
    return inventory.workspaces.length ? inventory.workspaces.map((workspace) => ({ type: 'workspace', workspace })) : [{ type: 'message', text: 'No workspaces' }];
  }

  private async load(): Promise<ClusterInventory | string> {
    const result = await this.commands.call(CLUSTER_COMMANDS.listClusterObjects, { ...this.target.operationArgs(), cluster: this.target.target() });
    return result.ok ? result.value : `Could not list the cluster: ${result.message}`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
