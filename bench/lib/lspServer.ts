import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node";

/** A range as LSP sends it. */
export interface LspRange {
  readonly start: { line: number; character: number };
  readonly end: { line: number; character: number };
}

interface Published {
  readonly uri: string;
  readonly version?: number;
  readonly diagnostics: readonly unknown[];
}

/**
 * One language server process spoken to over stdio, the same way for every server the editing
 * benchmark compares: open, edit, hover, complete, and the process's peak memory. Settings are
 * answered per section from `settings` (a `workspace/configuration` pull).
 */
export class BenchServer {
  private readonly waiters: {
    uri: string;
    accept: (p: Published) => boolean;
    resolve: (p: Published) => void;
  }[] = [];
  private readonly versions = new Map<string, number>();
  private readonly rssSamples: number[] = [];
  private sampler: NodeJS.Timeout | undefined;
  capabilities: Record<string, unknown> = {};

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
  ) {}

  static async start(
    name: string,
    command: readonly string[],
    rootUri: string,
    settings: Record<string, unknown>,
  ): Promise<BenchServer> {
    const child = spawn(command[0], command.slice(1), {
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stderr!.resume();
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    const server = new BenchServer(name, child, connection);
    connection.onNotification(
      "textDocument/publishDiagnostics",
      (p: Published) => server.published(p),
    );
    connection.onNotification(() => undefined);
    connection.onRequest(
      "workspace/configuration",
      (params: { items: { section?: string }[] }) =>
        params.items.map((item) =>
          item.section ? (settings[item.section] ?? null) : settings,
        ),
    );
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("window/workDoneProgress/create", () => null);
    connection.onRequest(() => null);
    connection.listen();
    const result = (await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "bench" }],
      capabilities: {
        workspace: {
          configuration: true,
          didChangeConfiguration: { dynamicRegistration: true },
          workspaceFolders: true,
        },
        textDocument: {
          publishDiagnostics: { versionSupport: true },
          synchronization: { didSave: false, dynamicRegistration: false },
          hover: { contentFormat: ["markdown", "plaintext"] },
          completion: {
            completionItem: {
              snippetSupport: true,
              documentationFormat: ["markdown", "plaintext"],
            },
          },
        },
      },
    })) as { capabilities: Record<string, unknown> };
    server.capabilities = result.capabilities;
    await connection.sendNotification("initialized", {});
    await connection.sendNotification("workspace/didChangeConfiguration", {
      settings,
    });
    server.sampler = setInterval(() => server.sampleRss(), 25);
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Opens a document; resolves with the milliseconds until its first diagnostics. */
  async open(
    uri: string,
    text: string,
  ): Promise<{ ms: number; count: number }> {
    return this.untilDiagnostics(uri, 1, "textDocument/didOpen", {
      textDocument: { uri, languageId: "yaml", version: 1, text },
    });
  }

  /** Applies one incremental edit; resolves with the milliseconds until the diagnostics of that version. */
  async edit(
    uri: string,
    range: LspRange,
    text: string,
  ): Promise<{ ms: number; count: number }> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    return this.untilDiagnostics(uri, version, "textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
  }

  /**
   * Types a burst: the edits `gapMs` apart, none waiting for diagnostics; resolves with the
   * milliseconds from the last one to the diagnostics of its version (a server that does not
   * publish versions: to its first publication after the last edit).
   */
  async burst(
    uri: string,
    edits: readonly { range: LspRange; text: string }[],
    gapMs: number,
  ): Promise<{ ms: number; count: number }> {
    for (const { range, text } of edits.slice(0, -1)) {
      await this.type(uri, range, text);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    const last = edits.at(-1)!;
    return this.edit(uri, last.range, last.text);
  }

  /** Sends one edit and waits for nothing: a request sent next queues behind the server's handling of it. */
  async type(uri: string, range: LspRange, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
  }

  /** Sends a notification that makes `version` of `uri`; the milliseconds until that version's diagnostics. */
  private async untilDiagnostics(
    uri: string,
    version: number,
    method: string,
    params: unknown,
  ): Promise<{ ms: number; count: number }> {
    this.versions.set(uri, version);
    const started = performance.now();
    const waiting = this.diagnostics(uri, version);
    await this.connection.sendNotification(method, params);
    const published = await waiting;
    return {
      ms: performance.now() - started,
      count: published.diagnostics.length,
    };
  }

  /** Milliseconds one request takes, and whether it answered something. */
  async timed(
    method: string,
    params: unknown,
  ): Promise<{ ms: number; answered: boolean }> {
    const started = performance.now();
    const result = await this.connection.sendRequest(method, params);
    const ms = performance.now() - started;
    const items =
      result && typeof result === "object" && "items" in result
        ? (result as { items: unknown[] }).items
        : result;
    return {
      ms,
      answered: Array.isArray(items)
        ? items.length > 0
        : items !== null && items !== undefined,
    };
  }

  /** Peak resident memory of the server process in bytes (the kernel's high-water mark, else the highest sample). */
  peakRss(): number {
    this.sampleRss();
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(
        readFileSync(`/proc/${this.pid}/status`, "utf8"),
      );
      if (hwm) return Number(hwm[1]) * 1024;
    } catch {
      // not Linux: fall back to the samples
    }
    return Math.max(0, ...this.rssSamples);
  }

  /**
   * CPU time the server's main thread (the one running JavaScript) has used, in milliseconds, from
   * /proc/<pid>/schedstat (nanoseconds); NaN where that is not available. Unlike wall time it does
   * not count the time the thread waited for a core, so it stays readable on a loaded machine.
   */
  mainThreadCpuMs(): number {
    try {
      return Number(readFileSync(`/proc/${this.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    } catch {
      return NaN;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.sampler);
    try {
      await Promise.race([
        this.connection.sendRequest("shutdown"),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
      await this.connection.sendNotification("exit");
    } catch {
      // already gone
    }
    this.connection.dispose();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, "exit");
      this.child.kill();
      // The next measurement starts once this process is gone: a server still tearing down (giving
      // back hundreds of MiB) takes a core from the next one's cold start.
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
  }

  private sampleRss(): void {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(
        readFileSync(`/proc/${this.pid}/status`, "utf8"),
      );
      if (rss) this.rssSamples.push(Number(rss[1]) * 1024);
    } catch {
      // the process is gone or this is not Linux
    }
  }

  /**
   * The diagnostics of `version`. A server that publishes versions is matched on the version; one
   * that does not (yaml-language-server) on the first publication after the request.
   */
  private diagnostics(uri: string, version: number): Promise<Published> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `${this.name}: no diagnostics for ${uri} version ${version} within 10 minutes`,
            ),
          ),
        600_000,
      );
      this.waiters.push({
        uri,
        accept: (p) => p.version === undefined || p.version === version,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  private published(p: Published): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.uri === p.uri && waiter.accept(p)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(p);
      }
    }
  }
}
