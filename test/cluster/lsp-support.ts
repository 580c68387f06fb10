/**
 * Speaking to the built language server's cluster commands over stdio, as an editor does:
 * `workspace/executeCommand` with a `workDoneToken`, collecting the `$/progress` it reports.
 */
import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver-protocol';
import type { ClusterCommandId, ClusterCommandResult } from '../../server/src/lsp/cluster/protocol';
import { LspTestClient } from '../support/lspClient';

export type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/** A server started with the given trust, recording every `$/progress` by token. */
export async function startClusterServer(options: { trusted: boolean | undefined }): Promise<{ client: LspTestClient; progress: Map<ProgressToken, ProgressValue[]> }> {
  const client = await LspTestClient.start({
    ...(options.trusted === undefined ? {} : { initializationOptions: { workspaceTrusted: options.trusted } }),
    windowCapabilities: { workDoneProgress: true },
  });
  const progress = new Map<ProgressToken, ProgressValue[]>();
  client.connection.onNotification('$/progress', (params: { token: ProgressToken; value: ProgressValue }) => {
    const list = progress.get(params.token) ?? [];
    list.push(params.value);
    progress.set(params.token, list);
  });
  client.connection.onRequest('window/workDoneProgress/create', () => null);
  return { client, progress };
}

let tokens = 0;

/** `workspace/executeCommand` with one argument and a fresh workDoneToken; resolves with the token too. */
export async function execute<T>(client: LspTestClient, command: ClusterCommandId, argument: unknown): Promise<{ result: ClusterCommandResult<T>; token: string }> {
  const token = `test-progress-${++tokens}`;
  const result = await client.request<ClusterCommandResult<T>>('workspace/executeCommand', { command, arguments: [argument], workDoneToken: token });
  return { result, token };
}
