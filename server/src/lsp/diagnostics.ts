import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { validateAgentConfig } from '../engine/config/validateAgentConfig';
import { classifyPath } from '../engine/files';
import { toLspDiagnostic } from './convert';
import type { DocumentModels } from './documentModels';
import type { SettingsStore } from './settings';
import { simulationContext } from './simulationContext';
import { AgentFileLinks } from './templateDiagnostics';

/** Parsed and validated once at start-up: enough entries for the parser and checks to be compiled hot. */
const WARM_UP_CONFIG = `ci_access:\n  projects:\n${Array.from({ length: 40 }, (_, i) => `    - id: warm/up-${i}\n      default_namespace: ns-${i}\n      access_as:\n        ci_job: {}\n      environments: [production, review/*]\n      rules:\n        - if: $CI_COMMIT_BRANCH == "main"\n          namespace: ns-$CI_ENVIRONMENT_SLUG\n        - when: never\n`).join('')}`;

/** Edits arriving faster than this are validated once, after the last one. */
const DEBOUNCE_MS = 75;

/**
 * Validates agent configurations and environment templates as they change and publishes the
 * results. Each document is validated at most once per version; a stale run is dropped.
 */
export class DiagnosticsFeature {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** When each document was last validated, for the debounce's leading edge. */
  private readonly lastRun = new Map<string, number>();
  /** config.yaml and its environment template are checked together (engine/crossFile). */
  private readonly agentFiles: AgentFileLinks;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: SettingsStore,
    private readonly models: DocumentModels,
  ) {
    this.agentFiles = new AgentFileLinks(documents, models);
    // Compile the schema validators and warm the parser while the editor is still starting, so the
    // first file opened does not wait for them.
    setTimeout(() => validateAgentConfig(WARM_UP_CONFIG, { target: 'proposal' }), 0).unref();
    documents.onDidOpen((e) => void this.validate(e.document));
    // A change (or closing a dirty document, which reverts to the file on disk) alters what the
    // sibling's cross-file checks see. Only edits trigger this, so two siblings never ping-pong.
    documents.onDidChangeContent((e) => this.scheduleDependents(e.document.uri));
    documents.onDidClose((e) => this.scheduleDependents(e.document.uri));
    connection.onDidChangeWatchedFiles((e) => {
      for (const change of e.changes) this.scheduleDependents(change.uri);
    });
    documents.onDidChangeContent((e) => this.schedule(e.document));
    documents.onDidClose((e) => {
      clearTimeout(this.timers.get(e.document.uri));
      this.timers.delete(e.document.uri);
      this.lastRun.delete(e.document.uri);
      models.forget(e.document.uri);
      void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    });
  }

  /** Re-validates every open document (after a settings change). */
  revalidateAll(): void {
    for (const document of this.documents.all()) this.schedule(document);
  }

  private scheduleDependents(uri: string): void {
    for (const dependent of this.agentFiles.dependents(uri)) {
      const document = this.documents.get(dependent);
      if (document) this.schedule(document);
    }
  }

  /**
   * Debounce with a leading edge: an edit after a quiet spell is validated at once (incremental
   * validation makes that cheap, and the user sees the result of one keystroke without waiting);
   * edits arriving faster than DEBOUNCE_MS after it are validated once, after the last one.
   */
  private schedule(document: TextDocument): void {
    const uri = document.uri;
    const pending = this.timers.has(uri);
    clearTimeout(this.timers.get(uri));
    if (!pending && performance.now() - (this.lastRun.get(uri) ?? -Infinity) >= DEBOUNCE_MS) {
      this.timers.delete(uri);
      this.lastRun.set(uri, performance.now());
      void this.validate(document);
      return;
    }
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        this.lastRun.set(uri, performance.now());
        void this.validate(document);
      }, DEBOUNCE_MS),
    );
  }

  private async validate(document: TextDocument): Promise<void> {
    const file = classifyPath(new URL(document.uri).pathname);
    if (file.kind === 'other') return;
    const settings = await this.settings.get();
    const current = this.documents.get(document.uri);
    if (!current || current.version !== document.version) return; // superseded while we waited
    const started = performance.now();
    let diagnostics;
    try {
      diagnostics =
        file.kind === 'agentConfig'
          ? [...this.models.agentConfigDiagnostics(document, { target: settings.target, agentName: file.agentName, rules: simulationContext(document.uri, settings) }, settings), ...this.agentFiles.configDiagnostics(document, file, settings)]
          : this.agentFiles.templateDiagnostics(document, file, settings);
    } catch (err) {
      // The server must stay up whatever the input: report the failure on the document instead.
      this.connection.console.error(`validation failed for ${document.uri}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      diagnostics = [internalError(err)];
    }
    const elapsed = performance.now() - started;
    if (elapsed > 200) this.connection.console.log(`validated ${document.uri} in ${elapsed.toFixed(0)} ms`);
    await this.connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: diagnostics.map(toLspDiagnostic) });
  }
}

function internalError(err: unknown) {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error' as const,
    code: 'internal',
    message: `The GitLab agent config server could not check this file (${err instanceof Error ? err.message : String(err)}). See the "GitLab Agent Config" output for details.`,
  };
}
