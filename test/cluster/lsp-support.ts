/**
 * Speaking to the built language server's cluster commands over stdio, as an editor does:
 * `workspace/executeCommand` with a `workDoneToken`, collecting the `$/progress` it reports.
 */
import { after, before } from 'node:test';
import type { KubeConfig } from '@kubernetes/client-node';
import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver-protocol';
import type { ClusterCommandId, ClusterCommandResult } from '../../server/src/protocol/cluster';
import { LspTestClient } from '../support/lspClient';
import { clusterEnv, kubeConfig, type ClusterEnv } from './harness';

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

/** What the tests of one file share: the cluster, the admin kubeconfig, one trusted server and its progress. */
export interface ClusterServerFixture {
  readonly env: ClusterEnv;
  readonly kc: KubeConfig;
  readonly client: LspTestClient;
  readonly progress: Map<ProgressToken, ProgressValue[]>;
}

/**
 * One trusted server for a whole test file: started in `before` (after `prepare`, e.g. installing
 * CRDs, with the admin kubeconfig) and stopped in `after`. The fields are there once `before` ran.
 */
export function trustedServerForFile(prepare?: (kc: KubeConfig) => Promise<unknown>): ClusterServerFixture {
  const fixture: Partial<{ -readonly [K in keyof ClusterServerFixture]: ClusterServerFixture[K] }> = {};
  before(async () => {
    fixture.env = await clusterEnv();
    fixture.kc = await kubeConfig('admin');
    await prepare?.(fixture.kc);
    Object.assign(fixture, await startClusterServer({ trusted: true }));
  });
  after(async () => {
    await fixture.client?.stop();
  });
  return fixture as ClusterServerFixture;
}

let tokens = 0;

/** `workspace/executeCommand` with one argument and a fresh workDoneToken; resolves with the token too. */
export async function execute<T>(client: LspTestClient, command: ClusterCommandId, argument: unknown): Promise<{ result: ClusterCommandResult<T>; token: string }> {
  const token = `test-progress-${++tokens}`;
  const result = await client.request<ClusterCommandResult<T>>('workspace/executeCommand', { command, arguments: [argument], workDoneToken: token });
  return { result, token };
}
