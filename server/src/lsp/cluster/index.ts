/**
 * The cluster commands of the language server, assembled: trust state, the command router and one
 * module per command group. server.ts creates one {@link ClusterFeature}.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ClusterCommandRouter } from './commandRouter';
import { registerContextsCommand } from './contextsCommand';
import { WorkspaceTrust } from './trust';
import { registerWorkspaceCommands } from './workspaceCommands';
import { registerPlanCommands } from './planCommands';
import { PlanStore } from './planStore';
import { registerFluxCommand } from './fluxCommand';
import { registerClusterObjectsCommand } from './clusterObjectsCommand';

export class ClusterFeature {
  private readonly trust = new WorkspaceTrust();
  private readonly router = new ClusterCommandRouter(this.trust);
  private readonly plans = new PlanStore();

  constructor(connection: Connection, documents: TextDocuments<TextDocument>) {
    registerContextsCommand(this.router);
    registerPlanCommands(this.router, connection, documents, this.plans);
    registerWorkspaceCommands(this.router, connection);
    registerFluxCommand(this.router, connection);
    registerClusterObjectsCommand(this.router, connection);
    this.trust.listen(connection);
    this.router.listen(connection);
  }

  /** Reads `initializationOptions` (workspace trust); call from `onInitialize`. */
  initialize(initializationOptions: unknown): void {
    this.trust.initialize(initializationOptions);
  }

  /** For `executeCommandProvider.commands`. */
  get commandIds(): string[] {
    return this.router.commandIds;
  }
}
