/**
 * The cluster commands of the language server, assembled: trust state, the command router and one
 * module per command group. server.ts creates one {@link ClusterFeature}.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AccessPreviewService } from './accessPreview';
import { ClusterCommandRouter } from './commandRouter';
import { CLUSTER_COMMANDS } from '../../protocol/cluster';
import { WorkspaceTrust } from './trust';
import { PlanStore } from './planStore';

export class ClusterFeature {
  private readonly trust = new WorkspaceTrust();
  private readonly router = new ClusterCommandRouter(this.trust);
  private readonly plans = new PlanStore();
  /** The RBAC section of hovers (asks the cluster the client selected). */
  readonly accessPreview = new AccessPreviewService(this.trust);

  constructor(connection: Connection, documents: TextDocuments<TextDocument>) {
    // The command groups (and the Kubernetes client under them) load on the first cluster command;
    // until then every id is served by a placeholder that loads them and hands the call over.
    this.router.registerLazily(Object.values(CLUSTER_COMMANDS), async () => {
      const { registerCommandGroups } = await import('./commandGroups');
      registerCommandGroups(this.router, connection, documents, this.plans);
    });
    this.trust.listen(connection);
    this.accessPreview.listen(connection);
    this.router.listen(connection);
  }

  /** Reads `initializationOptions` (workspace trust); call from `onInitialize`. */
  initialize(initializationOptions: unknown): void {
    this.trust.initialize(initializationOptions);
    this.accessPreview.initialize(initializationOptions);
  }

  /** For `executeCommandProvider.commands`. */
  get commandIds(): string[] {
    return this.router.commandIds;
  }
}
