import { CodeActionKind, DidChangeConfigurationNotification, TextDocuments, TextDocumentSyncKind, type Connection } from 'vscode-languageserver';
import { AccessDiffRequest } from './accessDiffRequest';
import { AgentSiblingFinder } from './agentSiblings';
import { ClusterFeature } from './cluster/index';
import { CodeActionsFeature } from './codeActions';
import { CodeLensFeature } from './codeLens';
import { COMPLETION_TRIGGER_CHARACTERS, CompletionFeature } from './completion';
import { containFailures } from './containFailures';
import { DiagnosticsFeature } from './diagnostics';
import { DocumentLinksFeature } from './documentLinks';
import { DocumentModels } from './documentModels';
import { editedDocuments } from './editedDocument';
import { HoverFeature } from './hover';
import { InlayHintsFeature } from './inlayHints';
import { PipelineFeature } from './pipeline/pipelineFeature';
import { PipelineJobsRequest } from './pipeline/pipelineJobsRequest';
import { PublishedDiagnostics } from './publishedDiagnostics';
import { SEMANTIC_TOKENS_LEGEND, SemanticTokensFeature } from './semanticTokens';
import { SettingsStore } from './settings';
import { SimulateRequestFeature } from './simulateRequest';
import { SimulationService } from './simulation';
import { useWorkspaceFolders } from './simulationContext';
import { StructureFeature } from './structure';
import { TemplateHovers } from './templateHover';
import { WorkspaceIds, workspaceFolderPaths } from './workspaceIds';

/**
 * The language server over one connection: every service built once, each feature holding the
 * ones it reads (the sibling finder, the document models, the settings), and a handle on each.
 */
export function createServer(connection: Connection) {
  // Before any feature registers: a feature that fails answers empty and is logged once, never a toast.
  containFailures(connection, (message) => connection.console.error(message));
  // Keystrokes do not copy a big document's text (lsp/editedDocument.ts).
  const documents = new TextDocuments(editedDocuments);
  const client = { supportsConfiguration: false, workspaceFolders: [] as string[] };
  const settings = new SettingsStore(connection, () => client.supportsConfiguration);
  const cluster = new ClusterFeature(connection, documents);
  const published = new PublishedDiagnostics(connection);
  const models = new DocumentModels(documents);
  const siblings = new AgentSiblingFinder(documents, models);
  const diagnostics = new DiagnosticsFeature(connection, documents, settings, models, siblings);
  const simulations = new SimulationService(models);
  const pipelines = new PipelineFeature(connection, documents, settings, models);
  const workspaceIds = new WorkspaceIds(documents, models, () => client.workspaceFolders);
  const features = {
    hover: new HoverFeature(connection, models, settings, simulations, pipelines, new TemplateHovers(documents, siblings), cluster.accessPreview),
    inlayHints: new InlayHintsFeature(connection, documents, models, settings, simulations),
    codeLenses: new CodeLensFeature(connection, documents, models, settings, simulations, pipelines, published),
    simulateRequest: new SimulateRequestFeature(connection, documents, settings, simulations, cluster.accessPreview),
    pipelineJobs: new PipelineJobsRequest(connection, settings, pipelines.service),
    accessDiff: new AccessDiffRequest(connection, settings),
    codeActions: new CodeActionsFeature(connection, documents, models),
    structure: new StructureFeature(connection, documents, models),
    completion: new CompletionFeature(connection, documents, models, settings, workspaceIds),
    semanticTokens: new SemanticTokensFeature(connection, models),
    documentLinks: new DocumentLinksFeature(connection, models),
  };
  documents.onDidClose((e) => simulations.forget(e.document.uri));

  connection.onInitialize((params) => {
    client.supportsConfiguration = Boolean(params.capabilities.workspace?.configuration);
    client.workspaceFolders = workspaceFolderPaths(params);
    useWorkspaceFolders(client.workspaceFolders);
    cluster.initialize(params.initializationOptions);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        inlayHintProvider: true,
        codeLensProvider: { resolveProvider: false },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        selectionRangeProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: cluster.commandIds },
        completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS },
        semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: true },
        documentLinkProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'gitlab-agent-config', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    settings.prefetch();
    diagnostics.startWarmUp();
    void workspaceIds.refresh();
    if (client.supportsConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'gitlabAgentConfig' });
  });

  connection.onDidChangeConfiguration(() => {
    settings.invalidate();
    diagnostics.revalidateAll();
    pipelines.revalidateAll();
    // Hints and lenses depend on the scenarios: ask the client to fetch them again.
    void connection.languages.inlayHint.refresh().catch(() => undefined);
    void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  });

  return {
    documents,
    settings,
    models,
    siblings,
    published,
    diagnostics,
    simulations,
    pipelines,
    workspaceIds,
    cluster,
    ...features,
    /** Starts reading the connection: documents first, so no open is missed. */
    listen(): void {
      documents.listen(connection);
      connection.listen();
    },
  };
}
