import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { CodeAction, Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Speaks LSP over stdio to the built server (dist/server.js), as an editor would. Tests wait on
 * real `textDocument/publishDiagnostics` notifications, never on sleeps.
 */
export class LspTestClient {
  private readonly waiters: { uri: string; predicate: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  readonly published = new Map<string, PublishDiagnosticsParams>();
  readonly stderr: string[] = [];
  /** What the server answered to `initialize` (its capabilities). */
  initializeResult: unknown = null;
  private versions = new Map<string, number>();

  private constructor(
    readonly process: ChildProcess,
    readonly connection: MessageConnection,
  ) {}

  /** `node`: the Node binary that runs the server (the one running the tests when not given). */
  static async start(options: { settings?: Record<string, unknown>; initializationOptions?: unknown; windowCapabilities?: Record<string, unknown>; workspaceFolder?: string; node?: string } = {}): Promise<LspTestClient> {
    const child = spawn(options.node ?? process.execPath, [path.join(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspTestClient(child, connection);
    child.stderr!.on('data', (chunk: Buffer) => client.stderr.push(chunk.toString()));
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      client.published.set(params.uri, params);
      for (const waiter of [...client.waiters]) {
        if (waiter.uri === params.uri && waiter.predicate(params)) {
          client.waiters.splice(client.waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    });
    connection.onNotification('window/logMessage', () => undefined);
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => params.items.map(() => options.settings ?? {}));
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    client.initializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(options.workspaceFolder ?? repoRoot).href,
      ...(options.workspaceFolder ? { workspaceFolders: [{ uri: pathToFileURL(options.workspaceFolder).href, name: path.basename(options.workspaceFolder) }] } : {}),
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: { publishDiagnostics: { versionSupport: true } },
        ...(options.windowCapabilities ? { window: options.windowCapabilities } : {}),
      },
      ...(options.initializationOptions !== undefined ? { initializationOptions: options.initializationOptions } : {}),
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  /** Opens a document and resolves with the first diagnostics published for this version. */
  open(uri: string, text: string): Promise<PublishDiagnosticsParams> {
    this.versions.set(uri, 1);
    const waiting = this.nextDiagnostics(uri, (p) => p.version === undefined || p.version === 1);
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return waiting;
  }

  /** Replaces the whole text and resolves with the diagnostics of the new version. */
  change(uri: string, text: string): Promise<PublishDiagnosticsParams> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const waiting = this.nextDiagnostics(uri, (p) => p.version === undefined || p.version === version);
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return waiting;
  }

  /** Applies one incremental edit (as editors send while typing). */
  edit(uri: string, range: Diagnostic['range'], text: string): Promise<PublishDiagnosticsParams> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const waiting = this.nextDiagnostics(uri, (p) => p.version === undefined || p.version === version);
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return waiting;
  }

  close(uri: string): void {
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  nextDiagnostics(uri: string, predicate: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 60_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${this.stderr.join('')}`)), timeoutMs);
      this.waiters.push({
        uri,
        predicate,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  /** The code actions the server offers for one diagnostic, asked at its range (as the lightbulb does). */
  codeActions(uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
    return this.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
  }

  async stop(): Promise<void> {
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill();
  }
}

/** A `file://` URI for a path inside a (virtual) agent directory: the server classifies by path. */
export function agentConfigUri(agent: string, file = 'config.yaml'): string {
  return pathToFileURL(path.join(repoRoot, 'test-output', 'lsp-workspace', '.gitlab', 'agents', agent, file)).href;
}
