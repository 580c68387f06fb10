/**
 * Language server entry point. `createConnection` picks the transport from the command line
 * (`--stdio`, `--node-ipc`, `--socket=`), so the same bundle serves VS Code (IPC), other editors and
 * the protocol tests (stdio).
 */
import { CodeActionKind, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, DidChangeConfigurationNotification } from 'vscode-languageserver/node';
import { DiagnosticsFeature } from './lsp/diagnostics';
import { DocumentModels } from './lsp/documentModels';
import { CodeActionsFeature } from './lsp/codeActions';
import { CodeLensFeature } from './lsp/codeLens';
import { HoverFeature } from './lsp/hover';
import { TemplateHovers } from './lsp/templateHover';
import { AgentSiblingFinder } from './lsp/agentSiblings';
import { InlayHintsFeature } from './lsp/inlayHints';
import { SimulateRequestFeature } from './lsp/simulateRequest';
import { SimulationService } from './lsp/simulation';
import { StructureFeature } from './lsp/structure';
import { SettingsStore } from './lsp/settings';
import { ClusterFeature } from './lsp/cluster/index';
import { COMPLETION_TRIGGER_CHARACTERS, CompletionFeature } from './lsp/completion';
import { DocumentLinksFeature } from './lsp/documentLinks';
import { SEMANTIC_TOKENS_LEGEND, SemanticTokensFeature } from './lsp/semanticTokens';
import { WorkspaceIds, workspaceFolderPaths } from './lsp/workspaceIds';
import { useWorkspaceFolders } from './lsp/simulationContext';
import { PipelineFeature } from './lsp/pipeline/pipelineFeature';
import { PipelineJobsRequest } from './lsp/pipeline/pipelineJobsRequest';
import { AccessDiffRequest } from './lsp/accessDiffRequest';
import { containFailures } from './lsp/containFailures';
import { PublishedDiagnostics } from './lsp/publishedDiagnostics';
import { editedDocuments } from './lsp/editedDocument';

const connection = createConnection(ProposedFeatures.all);
// Before any feature registers: a feature that fails answers empty and is logged once, never a toast.
containFailures(connection, (message) => connection.console.error(message));
// Keystrokes do not copy a big document's text (lsp/editedDocument.ts).
const documents = new TextDocuments(editedDocuments);
let supportsConfiguration = false;
let workspaceFolders: string[] = [];
const settings = new SettingsStore(connection, () => supportsConfiguration);
const cluster = new ClusterFeature(connection, documents);

connection.onInitialize((params) => {
  supportsConfiguration = Boolean(params.capabilities.workspace?.configuration);
  workspaceFolders = workspaceFolderPaths(params);
  useWorkspaceFolders(workspaceFolders);
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
  if (supportsConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'gitlabAgentConfig' });
});

const published = new PublishedDiagnostics(connection);
const models = new DocumentModels(documents);
const diagnostics = new DiagnosticsFeature(connection, documents, settings, models);
const simulations = new SimulationService(models);
const pipelines = new PipelineFeature(connection, documents, settings, models);
new HoverFeature(connection, models, settings, simulations, pipelines, new TemplateHovers(documents, new AgentSiblingFinder(documents, models)), cluster.accessPreview);
new InlayHintsFeature(connection, documents, models, settings, simulations);
new CodeLensFeature(connection, documents, models, settings, simulations, pipelines, published);
new SimulateRequestFeature(connection, documents, settings, simulations, cluster.accessPreview);
new PipelineJobsRequest(connection, settings, pipelines.service);
new AccessDiffRequest(connection, settings);
new CodeActionsFeature(connection);
new StructureFeature(connection, documents, models);
const workspaceIds = new WorkspaceIds(documents, models, () => workspaceFolders);
new CompletionFeature(connection, documents, models, settings, workspaceIds);
new SemanticTokensFeature(connection, models);
new DocumentLinksFeature(connection, models);
documents.onDidClose((e) => simulations.forget(e.document.uri));

connection.onDidChangeConfiguration(() => {
  settings.invalidate();
  diagnostics.revalidateAll();
  pipelines.revalidateAll();
  // Hints and lenses depend on the scenarios: ask the client to fetch them again.
  void connection.languages.inlayHint.refresh().catch(() => undefined);
  void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
});

// A bug in one handler must not take the server down for every open file.
process.on('uncaughtException', (err) => connection.console.error(`uncaught: ${err.stack ?? err.message}`));
process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${String(reason)}`));

documents.listen(connection);
connection.listen();
