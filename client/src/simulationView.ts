import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  PIPELINE_JOBS_REQUEST,
  SIMULATE_REQUEST,
  SIMULATION_ACCESS_REQUEST,
  type PipelineJobsResult,
  type SimulateParams,
  type SimulateResult,
  type SimulationAccessAnswer,
} from '../../server/src/protocol';
import { sendCustomRequest } from './customRequests';
import { matrixPage } from './simulationMatrix/page';
import { escapeHtml, renderView, type ClusterAnswers } from './simulationMatrix/render';

/** What the page posts: see simulationMatrix/webviewScript.ts. */
type ViewMessage =
  | { type: 'ready' }
  | { type: 'reveal'; file: 'config' | 'pipeline'; line: number }
  | { type: 'check'; keys: string[] }
  | { type: 'editScenarios' }
  | { type: 'setProject' };

/**
 * The "Simulate CI access" view: entries × scenarios, each cell what the job gets and what decided
 * it (a click reveals that line), the pipeline's jobs below, and on request the cluster's RBAC
 * answer per cell. It follows one agent configuration and refreshes as it or the settings change.
 */
export class SimulationView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private uri: vscode.Uri | undefined;
  private last: { result: SimulateResult; jobs: PipelineJobsResult } | undefined;
  /** The cluster's answers by access key, kept across refreshes (a key names one identity × namespace). */
  private answers = new Map<string, SimulationAccessAnswer>();
  private clusterStatus: string | null = null;
  private checking = false;
  /** The line of the entry whose lens opened the view: its row is pointed at until the file changes. */
  private entryLine: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!this.panel || !this.uri || e.document.uri.toString() !== this.uri.toString()) return;
        // An edit may move the entry to another line: point at nothing rather than at the wrong row.
        this.entryLine = null;
        this.schedule();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.panel && e.affectsConfiguration('gitlabAgentConfig')) this.schedule();
      }),
    );
  }

  async show(uri: vscode.Uri, entryLine: number | null = null): Promise<void> {
    if (this.uri?.toString() !== uri.toString()) this.forgetCluster();
    this.uri = uri;
    this.entryLine = entryLine;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('gitlabAgentConfig.simulation', 'CI access simulation', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [] });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((message: ViewMessage) => void this.onMessage(message));
      this.panel.webview.html = matrixPage(randomBytes(16).toString('base64'));
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    await this.refresh();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), 300);
  }

  private async refresh(): Promise<void> {
    const client = this.client();
    if (!this.panel || !this.uri) return;
    if (!client?.isRunning()) return this.showMessage('The language server is not running.');
    try {
      // The server only knows open documents: make sure this one is open.
      await vscode.workspace.openTextDocument(this.uri);
      const params = { uri: this.uri.toString() } satisfies SimulateParams;
      const [result, jobs] = await Promise.all([sendCustomRequest(client, SIMULATE_REQUEST, params), sendCustomRequest(client, PIPELINE_JOBS_REQUEST, params)]);
      // Answers from another cluster (the kubeconfig setting or context changed) would mislead: drop them.
      if (this.last && JSON.stringify(this.last.result.cluster) !== JSON.stringify(result.cluster)) this.forgetCluster();
      this.last = { result, jobs };
      this.render();
    } catch (err) {
      this.showMessage(`Simulation failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private render(): void {
    if (!this.panel || !this.uri || !this.last) return;
    const { result, jobs } = this.last;
    this.panel.title = `CI access: ${result.agent}`;
    const cluster: ClusterAnswers = { byKey: this.answers, status: this.clusterStatus, checking: this.checking };
    void this.panel.webview.postMessage({ type: 'render', ...renderView(result, jobs, vscode.workspace.asRelativePath(this.uri), cluster), entryLine: this.entryLine });
  }

  private showMessage(text: string): void {
    void this.panel?.webview.postMessage({ type: 'render', head: `<p class="warn">${escapeHtml(text)}</p>`, matrix: '', jobs: '', entryLine: null });
  }

  private async onMessage(message: ViewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        // A page shown again after being hidden starts empty: give it the last table at once.
        if (this.last) this.render();
        return;
      case 'reveal':
        return this.reveal(message.file, message.line);
      case 'check':
        return this.checkCluster(message.keys);
      case 'editScenarios':
        await vscode.commands.executeCommand('gitlabAgentConfig.editScenarios');
        return;
      case 'setProject':
        return this.askProjectPath();
    }
  }

  /** Shows the line in the config's (or the pipeline's) editor, in the column it is already open in. */
  private async reveal(file: 'config' | 'pipeline', line: number): Promise<void> {
    if (!this.uri || !this.last) return;
    // The pipeline's path is relative to the repository root, three folders above `.gitlab/agents/<agent>/`.
    const uri = file === 'config' ? this.uri : vscode.Uri.joinPath(this.uri, '..', '..', '..', '..', this.last.jobs.pipeline ?? '.gitlab-ci.yml');
    const document = await vscode.workspace.openTextDocument(uri);
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const at = new vscode.Position(line, document.lineAt(Math.min(line, document.lineCount - 1)).firstNonWhitespaceCharacterIndex);
    await vscode.window.showTextDocument(document, { viewColumn: open?.viewColumn ?? vscode.ViewColumn.One, selection: new vscode.Range(at, at) });
  }

  /** One bounded batch, only when asked: the server asks the selected cluster about the keys shown. */
  private async checkCluster(keys: string[]): Promise<void> {
    const client = this.client();
    if (!client?.isRunning() || !this.uri || this.checking) return;
    if (!keys.length) {
      this.clusterStatus = 'No authorized cell shown: nothing to ask (cells acting as the agent are not asked).';
      return this.render();
    }
    this.checking = true;
    this.render();
    try {
      const result = await sendCustomRequest(client, SIMULATION_ACCESS_REQUEST, { uri: this.uri.toString(), keys });
      for (const answer of result.answers) this.answers.set(answer.key, answer);
      const failed = result.answers.filter((a) => !a.ok).length;
      this.clusterStatus = result.unavailable
        ? `Not asked: ${result.unavailable}.`
        : `Asked at ${new Date().toLocaleTimeString()}: ${result.answers.length} identities × namespaces${failed ? `, ${failed} the cluster could not answer` : ''}${result.skipped ? `; ${result.skipped} more not asked (filter the rows to ask about them)` : ''}.`;
    } catch (err) {
      this.clusterStatus = `The check failed: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.checking = false;
      this.render();
    }
  }

  /** Asked once: the agent's configuration project, saved in the workspace's settings (a window-scoped setting: no folder scope). */
  private async askProjectPath(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: 'Agent configuration project',
      prompt: 'Full path of the GitLab project holding .gitlab/agents/ (names the kubeconfig context <project>:<agent>)',
      placeHolder: 'acme/infra/agents',
      validateInput: (v) => (/^[^\s/]+(\/[^\s/]+)+$/.test(v.trim()) ? null : 'A full project path, e.g. group/project'),
    });
    if (!value) return;
    const target = vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await vscode.workspace.getConfiguration('gitlabAgentConfig').update('configProjectPath', value.trim(), target);
  }

  /** Answers belong to one config's identities and one cluster; another config or cluster starts without them. */
  private forgetCluster(): void {
    this.answers = new Map();
    this.clusterStatus = null;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
