import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, WorkDoneProgress, type LanguageClient, type WorkDoneProgressBegin, type WorkDoneProgressReport } from 'vscode-languageclient/node';
import { SCENARIOS_REQUEST, type ClusterCommandArgs, type ClusterCommandId, type ClusterCommandResult, type ClusterCommandValue, type ScenarioSetting } from '../../../server/src/protocol';
import { sendCustomRequest } from '../customRequests';

/**
 * Calls the server's cluster commands (`workspace/executeCommand`). Long operations run under a
 * cancellable VS Code progress notification fed by the server's `$/progress` for a token this side
 * creates; Cancel sends `$/cancelRequest`, which the server turns into an AbortSignal.
 */
export class ClusterCommands {
  constructor(private readonly client: () => LanguageClient | undefined) {}

  /** A quick command (no progress UI). */
  async call<C extends ClusterCommandId>(command: C, args: ClusterCommandArgs<C>, token?: vscode.CancellationToken): Promise<ClusterCommandResult<ClusterCommandValue<C>>> {
    const client = this.client();
    if (!client?.isRunning()) return { ok: false, kind: 'failed', message: 'The GitLab agent config language server is not running (GitLab Agent: Restart Language Server).' };
    try {
      // The server answers every command with the result type its protocol entry declares.
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] }, token)) as ClusterCommandResult<ClusterCommandValue<C>>;
    } catch (err) {
      if (token?.isCancellationRequested) return { ok: false, kind: 'cancelled', message: 'Cancelled.' };
      return { ok: false, kind: 'failed', message: err instanceof Error ? err.message : String(err) };
    }
  }

  /** The active CI scenarios, in the server's order; empty when the server is not running. */
  async scenarios(): Promise<readonly ScenarioSetting[]> {
    const client = this.client();
    if (!client?.isRunning()) return [];
    return (await sendCustomRequest(client, SCENARIOS_REQUEST)).scenarios;
  }

  /** A long operation, shown as a cancellable notification with the server's progress messages. */
  async run<C extends ClusterCommandId>(title: string, command: C, args: ClusterCommandArgs<C>): Promise<ClusterCommandResult<ClusterCommandValue<C>>> {
    const client = this.client();
    if (!client?.isRunning()) return this.call(command, args);
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const workDoneToken = randomUUID();
      let reported = 0;
      const listener = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
        if (value.kind === 'end') return;
        const step = value as WorkDoneProgressBegin | WorkDoneProgressReport;
        const increment = step.percentage !== undefined && step.percentage > reported ? step.percentage - reported : undefined;
        if (step.percentage !== undefined) reported = Math.max(reported, step.percentage);
        progress.report({ message: step.message, increment });
      });
      try {
        return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args], workDoneToken }, token)) as ClusterCommandResult<ClusterCommandValue<C>>;
      } catch (err) {
        if (token.isCancellationRequested) return { ok: false, kind: 'cancelled', message: `${title}: cancelled.` } as const;
        return { ok: false, kind: 'failed', message: err instanceof Error ? err.message : String(err) } as const;
      } finally {
        listener.dispose();
      }
    });
  }
}
