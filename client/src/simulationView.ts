import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PIPELINE_JOBS_REQUEST, SIMULATE_REQUEST, type PipelineJobsResult, type SimulateParams, type SimulateResult } from '../../server/src/protocol';

/**
 * The "Simulate CI access" results view: scenario × entry → authorized, via, rule, namespace,
 * identity, problems. It follows one agent configuration and refreshes as the file or the
 * scenario settings change.
 */
export class SimulationView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private uri: vscode.Uri | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.panel && this.uri && e.document.uri.toString() === this.uri.toString()) this.schedule();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.panel && e.affectsConfiguration('gitlabAgentConfig')) this.schedule();
      }),
    );
  }

  async show(uri: vscode.Uri): Promise<void> {
    this.uri = uri;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('gitlabAgentConfig.simulation', 'CI access simulation', vscode.ViewColumn.Beside, { enableScripts: false });
      this.panel.onDidDispose(() => (this.panel = undefined));
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
    if (!client?.isRunning()) {
      this.panel.webview.html = page('<p>The language server is not running.</p>');
      return;
    }
    try {
      // The server only knows open documents: make sure this one is open.
      await vscode.workspace.openTextDocument(this.uri);
      const params = { uri: this.uri.toString() } satisfies SimulateParams;
      const [result, jobs] = await Promise.all([client.sendRequest<SimulateResult>(SIMULATE_REQUEST, params), client.sendRequest<PipelineJobsResult>(PIPELINE_JOBS_REQUEST, params)]);
      this.panel.title = `CI access: ${result.agent}`;
      this.panel.webview.html = page(render(result, vscode.workspace.asRelativePath(this.uri)) + renderJobs(jobs, result.context));
    } catch (err) {
      this.panel.webview.html = page(`<p class="error">Simulation failed: ${escapeHtml(err instanceof Error ? err.message : String(err))}</p>`);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function render(result: SimulateResult, file: string): string {
  const rows = result.rows
    .map(
      (r) => `<tr class="${r.authorized ? 'yes' : 'no'}">
  <td>${escapeHtml(r.scenario)}</td><td>${escapeHtml(r.project)}</td><td>${r.authorized ? '✓ yes' : '✗ no'}</td>
  <td>${escapeHtml(r.via ?? '—')}</td><td>${r.rule ?? '—'}</td><td><code>${escapeHtml(r.namespace ?? '—')}</code></td>
  <td>${escapeHtml(r.identity ?? '—')}</td>
  <td>${escapeHtml([...r.problems, ...(r.denial ? [r.denial] : [])].filter(Boolean).join('; '))}</td></tr>`,
    )
    .join('\n');
  return `<h2>Agent <code>${escapeHtml(result.agent)}</code> — kubeconfig context <code>${escapeHtml(result.context)}</code></h2>
<p>${escapeHtml(file)} · scenarios: ${result.scenarios.map(escapeHtml).join(', ')}</p>
<table><thead><tr><th>scenario</th><th>project</th><th>authorized</th><th>via</th><th>rule</th><th>namespace</th><th>identity</th><th>problems</th></tr></thead>
<tbody>${rows || '<tr><td colspan="8">No ci_access entries.</td></tr>'}</tbody></table>`;
}

/** The jobs of the pipeline beside the agent that get (or are refused) this agent's context. */
function renderJobs(jobs: PipelineJobsResult, context: string): string {
  if (jobs.pipeline === null) return '';
  const rows = jobs.rows
    .map(
      (r) => `<tr class="${r.authorized ? 'yes' : 'no'}">
  <td>${escapeHtml(r.job)}</td><td>${escapeHtml(r.scenario)}</td><td>${r.authorized ? '✓ yes' : '✗ no'}</td>
  <td>${escapeHtml(r.environment ?? '—')}</td><td><code>${escapeHtml(r.namespace ?? '—')}</code></td><td>${escapeHtml(r.identity ?? '—')}</td>
  <td>${escapeHtml([r.runs === 'depends' ? 'runs depending on changed files' : r.when === 'manual' ? 'manual job' : '', r.managedEnvironment ? 'managed environment prepared first' : '', r.reason ?? ''].filter(Boolean).join('; '))}</td></tr>`,
    )
    .join('\n');
  return `<h2>Jobs of this repository's pipeline</h2>
<p>${escapeHtml(jobs.pipeline)} of <code>${escapeHtml(jobs.project)}</code>: the jobs that run, and what context <code>${escapeHtml(context)}</code> gives them</p>
<table><thead><tr><th>job</th><th>situation</th><th>authorized</th><th>environment</th><th>namespace</th><th>identity</th><th>notes</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No job runs in any situation.</td></tr>'}</tbody></table>`;
}

function page(body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>body{font-family:var(--vscode-font-family);color:var(--vscode-foreground)}table{border-collapse:collapse;width:100%}
td,th{border:1px solid var(--vscode-panel-border);padding:3px 6px;text-align:left;vertical-align:top}tr.no td:nth-child(3){color:var(--vscode-errorForeground)}
tr.yes td:nth-child(3){color:var(--vscode-testing-iconPassed)}.error{color:var(--vscode-errorForeground)}</style></head><body>${body}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
