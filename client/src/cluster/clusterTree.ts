import * as vscode from 'vscode';
import { CLUSTER_COMMANDS, type ClusterInventory } from '../../../server/src/protocol';
import type { ClusterCommands } from './clusterCommands';
import type { ClusterTargetSelection } from './clusterTarget';
import { groupRows, topRows, type ClusterRow } from './clusterTreeRows';

export const CLUSTER_VIEW_ID = 'gitlabAgentConfig.clusterView';

type Node = ClusterRow;

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
    // One coherent state per cluster (clusterTreeRows.ts): never "none found" beside "forbidden".
    if (!node) return topRows(inventory);
    return node.type === 'group' && typeof inventory !== 'string' ? groupRows(inventory, node.label) : [];
  }

  private async load(): Promise<ClusterInventory | string> {
    const result = await this.commands.call(CLUSTER_COMMANDS.listClusterObjects, { ...this.target.operationArgs(), cluster: this.target.target() });
    return result.ok ? result.value : `Could not list the cluster: ${result.message}`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
