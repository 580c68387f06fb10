import type { CodeLens, Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeAtPath, nodeSpan } from '../engine/api/editor';
import { SHOW_SIMULATION_COMMAND } from '../protocol';
import type { DocumentModels } from './documentModels';
import { LastGood } from './lastGood';
import type { PipelineFeature } from './pipeline/pipelineFeature';
import { isPipelineDocument } from './pipeline/pipelineService';
import type { PublishedDiagnostics } from './publishedDiagnostics';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';

/** What a lens says of an entry GitLab would not load: the whole file is rejected, so no access. */
export const INVALID_LENS = 'CI access: invalid: GitLab would reject this file';

/**
 * A code lens above each ci_access entry: the outcome over the active scenarios; it opens the
 * simulation. An entry with errors says it is invalid instead of claiming access. While a
 * half-typed line breaks the YAML, the last good lenses stay on the entries the edit did not touch
 * (the one being edited says it is invalid), so the text does not jump. On `.gitlab-ci.yml`, the
 * pipeline's lens above each job.
 */
export class CodeLensFeature {
  private readonly lastGood = new LastGood<CodeLens>();

  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
    private readonly pipelines: PipelineFeature,
    private readonly published: PublishedDiagnostics,
  ) {
    connection.onCodeLens((params) => this.lenses(params.textDocument.uri));
    documents.onDidClose((e) => this.lastGood.forget(e.document.uri));
  }

  private async lenses(uri: string): Promise<CodeLens[]> {
    if (isPipelineDocument(uri)) return this.pipelines.lenses(uri);
    const document = this.documents.get(uri);
    const config = this.models.agentConfig(uri);
    if (!document) return [];
    if (!config || config.parsed.hasSyntaxErrors) return this.carriedOver(uri, document);
    const { parsed, doc } = config;
    const simulation = this.simulations.get(document, await this.settings.get());
    const errorLines = this.published.errors(uri, document.version).map((d) => d.range.start.line);
    const lenses = simulation.entries.flatMap(({ entry, outcomes }): CodeLens[] => {
      const span = nodeSpan(nodeAtPath(doc, entry.path)?.node);
      if (!span) return [];
      const line = parsed.index.positionAt(span[0]).line;
      const lastLine = parsed.index.positionAt(span[1]).line;
      const errors = errorLines.filter((l) => l >= line && l <= lastLine).length;
      const command = (title: string) => ({ title, command: SHOW_SIMULATION_COMMAND, arguments: [uri, line] });
      const range = { start: { line, character: 0 }, end: { line, character: 0 } };
      if (errors) return [{ range, command: command(`${INVALID_LENS} · ${errors} error${errors === 1 ? '' : 's'} in this entry`) }];
      const allowed = outcomes.filter((o) => o.outcome.authorized);
      const namespaces = [...new Set(allowed.map((o) => o.outcome.namespace).filter((n): n is string => n !== null))];
      const problems = outcomes.reduce((n, o) => n + o.outcome.problems.length, 0);
      const title = `CI access: ${allowed.length}/${outcomes.length} scenarios authorized${namespaces.length ? ` · ${namespaces.slice(0, 3).join(', ')}${namespaces.length > 3 ? ', …' : ''}` : ''}${problems ? ` · ⚠ ${problems} problem(s)` : ''}`;
      return [{ range, command: command(title) }];
    });
    this.lastGood.remember(document, lenses, (lens) => lens.range.start.line);
    return lenses;
  }

  /** The last good lenses on the lines they were on; the entry holding the syntax error says it is invalid. */
  private carriedOver(uri: string, document: TextDocument): CodeLens[] {
    const parsed = this.models.get(document);
    const firstError = parsed.diagnostics.find((d) => d.severity === 'error');
    const moved = this.lastGood.recall(uri, document.getText()).sort((a, b) => a.line - b.line);
    const errorLine = firstError?.range.start.line;
    const edited = errorLine === undefined ? -1 : moved.reduce((found, m, i) => (m.line <= errorLine ? i : found), -1);
    return moved.map(({ line, item }, i): CodeLens => {
      const range = { start: { line, character: 0 }, end: { line, character: 0 } };
      const title = i === edited ? `${INVALID_LENS} · YAML syntax error on line ${errorLine! + 1}` : item.command!.title;
      return { range, command: { title, command: SHOW_SIMULATION_COMMAND, arguments: [uri, line] } };
    });
  }
}
