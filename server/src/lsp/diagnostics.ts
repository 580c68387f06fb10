import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkAgentFile, classifyPath, shownDiagnostics } from '../engine/api';
import { sizeDiagnostic } from '../engine/api/editor';
import type { AgentSiblingFinder } from './agentSiblings';
import { toLspDiagnostic } from './convert';
import type { DocumentModels } from './documentModels';
import type { SettingsStore } from './settings';
import { projectSettings } from './simulationContext';
import { documentPath } from './uriPaths';
import { WarmUp } from './warmUp';

/** The longest quiet spell between validations of a document being edited (a file whose validation takes 150 ms or more). */
const DEBOUNCE_MS = 75;

/** The shortest quiet spell: edits an editor sends together (a paste, a multi-cursor edit, keys read in one go) are validated together. */
const MIN_QUIET_MS = 10;

/**
 * The wait between validations of a document being edited: half its last validation, between
 * MIN_QUIET_MS and DEBOUNCE_MS. A fixed 75 ms made the last key of a burst wait 75 ms for a
 * validation a fifth as long (5–6× a single edit). Waiting a fraction of the validation keeps the work for
 * a burst bounded (at most one validation per 1.5 validation times) while the answer to the last key
 * comes within about one validation of it.
 */
function quietSpell(lastDurationMs: number | undefined): number {
  return lastDurationMs === undefined ? DEBOUNCE_MS : Math.max(MIN_QUIET_MS, Math.min(DEBOUNCE_MS, lastDurationMs / 2));
}

/**
 * When to validate after an edit, at `now` (ms): at once (`0`), after a wait, or `null` when a
 * timer is already set for the burst (it runs for whatever version is current when it fires).
 * A leading edge, then at most one validation per quiet spell ({@link quietSpell}): an edit that
 * comes a quiet spell or more after the last validation ended (`last.at`) is validated at once
 * (incremental validation makes that cheap, and the user sees the result of one keystroke without
 * waiting); an edit sooner than that is validated when the quiet spell ends, together with the
 * edits that come meanwhile, which do not push that moment back (when each did, the last key of a
 * burst waited a whole quiet spell more than a single edit: up to 1.6× a single edit at 50,000
 * entries, where the spell is its 10 ms floor). The quiet spell counts from the end of the last
 * validation, not its start: edits that queued up while a long validation ran are a burst, not
 * each one a new leading edge (which validated every one of them in turn, each as long, and left
 * the server minutes behind).
 */
export function validationDelay(now: number, last: { readonly at: number; readonly took: number } | undefined, timerSet: boolean): number | null {
  if (timerSet) return null;
  const sinceLast = now - (last?.at ?? -Infinity);
  const quiet = quietSpell(last?.took);
  return sinceLast >= quiet ? 0 : quiet - sinceLast;
}

/**
 * Lets the messages that arrived during a step of a validation be read before the next step.
 * vscode-jsonrpc handles one queued message per `setImmediate`, and a message read from the pipe in
 * the same turn as a single hop is handled after it: two hops let the first waiting edit in.
 */
function messagesRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Validates agent configurations and environment templates as they change and publishes the
 * results. Validation runs on the current version only: a run scheduled for an older version is
 * dropped, at most one run per document is pending, a run gives way between its steps to an edit
 * that arrived meanwhile, and a burst of edits queued behind a long validation is validated once,
 * after the last one (the server never falls behind the user).
 */
export class DiagnosticsFeature {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** When each document's last validation ended and how long it took, for the debounce. */
  private readonly lastEnd = new Map<string, { at: number; took: number }>();
  /** The latest run asked for each document: an earlier run still waiting for settings gives way to it. */
  private readonly latestRun = new Map<string, number>();
  private runs = 0;
  /** config.yaml and its environment template are checked together: where each finds the other. */
  private readonly warmUp = new WarmUp();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: SettingsStore,
    private readonly models: DocumentModels,
    private readonly siblings: AgentSiblingFinder,
  ) {
    // The warm-up (startWarmUp) gives way to the first real document for good.
    documents.onDidOpen(() => this.warmUp.stop());
    // A change (or closing a dirty document, which reverts to the file on disk) alters what the
    // sibling's cross-file checks see. Only edits trigger this, so two siblings never ping-pong.
    documents.onDidChangeContent((e) => this.scheduleDependents(e.document.uri));
    documents.onDidClose((e) => this.scheduleDependents(e.document.uri));
    connection.onDidChangeWatchedFiles((e) => {
      for (const change of e.changes) this.scheduleDependents(change.uri);
    });
    // Opening a document fires this too: its first validation is a leading edge.
    documents.onDidChangeContent((e) => this.schedule(e.document));
    documents.onDidClose((e) => {
      clearTimeout(this.timers.get(e.document.uri));
      this.timers.delete(e.document.uri);
      this.lastEnd.delete(e.document.uri);
      this.latestRun.delete(e.document.uri);
      models.forget(e.document.uri);
      void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    });
  }

  /**
   * Runs the paths of a first open and of the first edits on small configs, in short steps while
   * the server is idle (after `initialize` was answered, before any document is open), so the first
   * real file does not wait for V8 to compile them.
   */
  startWarmUp(): void {
    if (!this.documents.all().length) void this.warmUp.start();
  }

  /** Re-validates every open document (after a settings change). */
  revalidateAll(): void {
    for (const document of this.documents.all()) this.schedule(document);
  }

  private scheduleDependents(uri: string): void {
    for (const dependent of this.siblings.dependents(uri)) {
      const document = this.documents.get(dependent);
      if (document) this.schedule(document);
    }
  }

  /**
   * Validates `document` when {@link validationDelay} says. An edit read between the steps of a
   * validation ({@link validate}) stops that validation: what it would publish is already out of date.
   */
  private schedule(document: TextDocument): void {
    const uri = document.uri;
    const delay = validationDelay(performance.now(), this.lastEnd.get(uri), this.timers.has(uri));
    if (delay === null) return;
    if (delay === 0) {
      void this.validate(uri, document.version);
      return;
    }
    // The version is read when the timer fires: the run is for whatever is current by then.
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        const current = this.documents.get(uri);
        if (current) void this.validate(uri, current.version);
      }, delay),
    );
  }

  private async validate(uri: string, version: number): Promise<void> {
    const file = classifyPath(documentPath(uri));
    if (file.kind === 'other') return;
    const run = ++this.runs;
    this.latestRun.set(uri, run);
    const settings = await this.settings.get();
    // Superseded: a newer version, or a later run of this one, does the work.
    const current = (): TextDocument | undefined => {
      const document = this.documents.get(uri);
      return document && document.version === version && this.latestRun.get(uri) === run ? document : undefined;
    };
    // Edits already waiting (read behind the last validation) make this version old before any work.
    await messagesRead();
    const document = current();
    if (!document) return;
    const started = performance.now();
    let diagnostics;
    try {
      // In steps, each followed by a look at the messages: the last key of a burst, arriving while
      // an earlier version is checked, waits for the end of a step, not of the whole validation.
      // The engine's front door decides every check; the editor brings the text (read only if a
      // check needs all of it), its cached incremental model of a config (settings are the owner of
      // its cached checks) and the siblings.
      const model = file.kind === 'agentConfig' ? this.models.configModel(document, settings) : undefined;
      await messagesRead();
      if (!current()) return;
      diagnostics = checkAgentFile({ path: documentPath(uri), content: () => document.getText() }, projectSettings(uri, settings), this.siblings.siblingsOf(uri), model);
    } catch (err) {
      // The server must stay up whatever the input: report the failure on the document instead.
      this.connection.console.error(`validation failed for ${document.uri}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const text = document.getText();
      const firstLine = { start: { line: 0, character: 0 }, end: { line: 0, character: Math.max(0, text.search(/\r|\n|$/)) } };
      const tooLarge = file.kind === 'agentConfig' ? sizeDiagnostic(Buffer.byteLength(text, 'utf8'), firstLine) : null;
      diagnostics = [internalError(err), ...(tooLarge ? [tooLarge] : [])];
    }
    const ended = performance.now();
    this.lastEnd.set(uri, { at: ended, took: ended - started });
    if (ended - started > 200) this.connection.console.log(`validated ${document.uri} in ${(ended - started).toFixed(0)} ms`);
    await this.connection.sendDiagnostics({ uri: document.uri, version, diagnostics: shownDiagnostics(diagnostics).map(toLspDiagnostic) });
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
