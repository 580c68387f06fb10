import type { CodeLens, Connection, Diagnostic, Hover, TextDocuments } from 'vscode-languageserver';
import { MarkupKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { classifyPath } from '../../engine/api';
import { toLspDiagnostic } from '../convert';
import type { DocumentModels } from '../documentModels';
import type { SettingsStore } from '../settings';
import { documentPath } from '../uriPaths';
import { isPipelineDocument, PipelineService } from './pipelineService';
import { jobHover, jobLensTitle } from './pipelineViews';

/** Edits to `.gitlab-ci.yml` arriving faster than this are mapped once, after the last one. */
const DEBOUNCE_MS = 150;

/**
 * `.gitlab-ci.yml` in the editor: diagnostics where the pipeline and the agent configurations
 * disagree, a lens above each job with its cluster access, and a hover with the per-situation table.
 * Nothing else on that file (no general CI diagnostics: other extensions do those).
 */
export class PipelineFeature {
  readonly service: PipelineService;
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: SettingsStore,
    models: DocumentModels,
  ) {
    this.service = new PipelineService(documents, models);
    documents.onDidChangeContent((e) => {
      if (isPipelineDocument(e.document.uri)) this.schedule(e.document.uri);
      // An agent configuration's edit changes every pipeline's map.
      else if (classifyPath(documentPath(e.document.uri)).kind === 'agentConfig') this.revalidateAll();
    });
    documents.onDidClose((e) => {
      // A closed agent configuration reverts to its file on disk.
      if (classifyPath(documentPath(e.document.uri)).kind === 'agentConfig') this.revalidateAll();
      if (!isPipelineDocument(e.document.uri)) return;
      clearTimeout(this.timers.get(e.document.uri));
      this.timers.delete(e.document.uri);
      this.service.forget(e.document.uri);
      void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    });
  }

  revalidateAll(): void {
    for (const document of this.documents.all()) if (isPipelineDocument(document.uri)) this.schedule(document.uri);
  }

  async lenses(uri: string): Promise<CodeLens[]> {
    const document = this.documents.get(uri);
    if (!document) return [];
    const access = this.service.get(document, await this.settings.get());
    return access.pipeline.jobs
      .filter((job) => job.location.file === '.gitlab-ci.yml')
      .map((job) => {
        const line = job.location.range.start.line;
        return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, command: { title: jobLensTitle(access.map.filter((r) => r.job === job.name)), command: '' } };
      });
  }

  async hover(uri: string, position: { line: number; character: number }): Promise<Hover | null> {
    const document = this.documents.get(uri);
    if (!document) return null;
    const access = this.service.get(document, await this.settings.get());
    const job = access.pipeline.jobs.find((j) => j.location.file === '.gitlab-ci.yml' && j.location.range.start.line === position.line);
    if (!job) return null;
    // A trigger job's matrix jobs share its key: their child pipelines' jobs are shown with it.
    const triggers = new Set(access.pipeline.jobs.filter((j) => j.location === job.location).map((j) => j.name));
    const children = access.children.filter((r) => r.parent !== undefined && triggers.has(r.parent));
    return { contents: { kind: MarkupKind.Markdown, value: jobHover(job.name, access.map.filter((r) => r.job === job.name), children) }, range: job.location.range };
  }

  private schedule(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        void this.publish(uri);
      }, DEBOUNCE_MS),
    );
  }

  private async publish(uri: string): Promise<void> {
    const settings = await this.settings.get();
    const document = this.documents.get(uri);
    if (!document) return;
    const version = document.version;
    let diagnostics: Diagnostic[];
    try {
      diagnostics = this.service.get(document, settings).diagnostics.filter((d) => d.file === '.gitlab-ci.yml').map(toLspDiagnostic);
    } catch (err) {
      this.connection.console.error(`pipeline map failed for ${uri}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      diagnostics = [];
    }
    await this.connection.sendDiagnostics({ uri, version, diagnostics });
  }
}
