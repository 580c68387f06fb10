import type { Connection } from 'vscode-languageserver';
import { onCustomNotification } from '../customRequests';
import { WORKSPACE_TRUST_NOTIFICATION, type ClusterInitializationOptions } from '../../protocol/cluster';

/**
 * Whether the editor trusts the workspace. Cluster commands act on real clusters with the user's
 * credentials, so a workspace nobody vouched for must not be able to trigger them (a malicious
 * repository could ship a template that deletes things). The initial state comes with
 * `initializationOptions.workspaceTrusted`; absent means untrusted, so editors that say nothing get
 * validation but no cluster operations.
 */
export class WorkspaceTrust {
  private trusted = false;

  /** Reads the initial state; call from `onInitialize`. */
  initialize(options: unknown): void {
    this.trusted = (options as ClusterInitializationOptions | null | undefined)?.workspaceTrusted === true;
  }

  /** Follows the client's trust notifications (VS Code grants trust while running, never revokes). */
  listen(connection: Connection): void {
    onCustomNotification(connection, WORKSPACE_TRUST_NOTIFICATION, (params) => {
      this.trusted = params?.trusted === true;
    });
  }

  get isTrusted(): boolean {
    return this.trusted;
  }
}

/** The message an untrusted client gets. */
export const UNTRUSTED_MESSAGE =
  'Cluster operations are disabled because this workspace is not trusted. Trust the workspace (Manage Workspace Trust) to apply, delete or terminate on a cluster.';
