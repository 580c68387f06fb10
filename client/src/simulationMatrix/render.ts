/**
 * The simulation view's HTML, from the server's data: the header (agent, context name, cluster),
 * the entries × scenarios matrix, and the pipeline's jobs. Pure functions (no vscode), so the page
 * can be re-rendered into the open webview without reloading it: scroll position and filter stay.
 */
import type { PipelineJobsResult, SimulateResult, SimulationAccessAnswer, SimulationRow } from '../../../server/src/protocol';

/** What "Check in cluster" has learnt so far, kept by the view across refreshes. */
export interface ClusterAnswers {
  readonly byKey: ReadonlyMap<string, SimulationAccessAnswer>;
  /** One line on the last check (when, how many, what was left out); null before the first. */
  readonly status: string | null;
  readonly checking: boolean;
}

export interface MatrixHtml {
  readonly head: string;
  readonly matrix: string;
  readonly jobs: string;
}

export function renderView(result: SimulateResult, jobs: PipelineJobsResult, file: string, cluster: ClusterAnswers): MatrixHtml {
  return { head: renderHead(result, file, cluster), matrix: renderMatrix(result, cluster) + renderClusterAnswers(result, cluster), jobs: renderJobs(jobs, result.context) };
}

function renderHead(result: SimulateResult, file: string, cluster: ClusterAnswers): string {
  const context =
    result.contextSource === null
      ? `<p class="warn" role="status">The agent's configuration project is unknown, so its kubeconfig context is shown as <code>${escapeHtml(result.context)}</code>.
Set <code>gitlabAgentConfig.configProjectPath</code> (or give this repository a git remote): <button data-action="setProject">Set configuration project…</button></p>`
      : `<p>Kubeconfig context <code class="context">${escapeHtml(result.context)}</code> <span class="muted">(project from the ${result.contextSource})</span></p>`;
  const clusterLine =
    'unavailable' in result.cluster
      ? `<p class="muted">What the jobs may do in the cluster: not asked — ${escapeHtml(result.cluster.unavailable)}.</p>`
      : `<p><button data-action="check"${cluster.checking ? ' disabled' : ''}>${cluster.checking ? 'Checking…' : cluster.status ? 'Check again in cluster' : 'Check in cluster'}</button>
<span class="muted">asks ${result.cluster.context ? `context <code>${escapeHtml(result.cluster.context)}</code>` : "the kubeconfig's current context"} (SubjectAccessReview) what each authorized identity shown may do in its namespace.</span>
${cluster.status ? `<span class="status">${escapeHtml(cluster.status)}</span>` : ''}</p>`;
  const entries = new Set(result.rows.map(entryKey)).size;
  return `<h2>Agent <code>${escapeHtml(result.agent)}</code></h2>
${context}
<p class="muted">${escapeHtml(file)} · ${entries} ${entries === 1 ? 'entry' : 'entries'} × ${result.scenarios.length} scenarios · <button class="link" data-action="editScenarios">Edit CI Scenarios</button></p>
${clusterLine}`;
}

const entryKey = (row: SimulationRow) => `${row.entry}@${row.line ?? ''}`;

function renderMatrix(result: SimulateResult, cluster: ClusterAnswers): string {
  const entries = new Map<string, SimulationRow[]>();
  for (const row of result.rows) entries.set(entryKey(row), [...(entries.get(entryKey(row)) ?? []), row]);
  const header = result.scenarios.map((s) => `<th scope="col" title="${escapeHtml(s)}"><span class="scenario">${escapeHtml(s)}</span></th>`).join('');
  const body = [...entries.values()].map((rows, r) => renderEntry(rows, r, result.scenarios, cluster)).join('\n');
  return `<table class="matrix" role="grid" aria-label="CI access per entry and scenario"><thead><tr><th class="corner" scope="col">entry</th>${header}</tr></thead>
<tbody>${body ? body + noMatch(result.scenarios.length + 1) : `<tr><td colspan="${result.scenarios.length + 1}">No ci_access entries.</td></tr>`}</tbody></table>`;
}

function renderEntry(rows: SimulationRow[], r: number, scenarios: readonly string[], cluster: ClusterAnswers): string {
  const first = rows[0];
  const [kind, ...id] = first.entry.split(' ');
  const problems = rows.reduce((n, row) => n + row.problems.length, 0);
  const denied = rows.some((row) => !row.authorized);
  const text = [first.entry, ...rows.flatMap((row) => [row.project, row.namespace ?? '', row.identity ?? ''])].join(' ').toLowerCase();
  const cells = scenarios.map((scenario, c) => {
    const row = rows.find((x) => x.scenario === scenario);
    return row ? renderCell(row, r, c + 1, cluster) : '<td class="cell">—</td>';
  });
  const line = first.line === null ? '' : ` data-line="${first.line}"`;
  return `<tr data-text="${escapeHtml(text)}"${denied ? ' data-denied="1"' : ''}${problems ? ' data-problems="1"' : ''}>
<th class="entry" scope="row" tabindex="0" data-nav="${r},0" data-file="config"${line} title="Go to the entry"><span class="kind">${escapeHtml(kind)}</span> <span class="id">${breakable(id.join(' '))}</span>${first.line === null ? '' : ` <span class="muted">line ${first.line + 1}</span>`}${problems ? ` <span class="problem-count">⚠ ${problems}</span>` : ''}</th>
${cells.join('\n')}</tr>`;
}

function renderCell(row: SimulationRow, r: number, c: number, cluster: ClusterAnswers): string {
  // Compact, for a narrow split: the namespace or why not, then what decided and who acts; the full
  // explanation is the cell's tooltip.
  const via = row.via && row.via !== row.entry ? `via ${row.via}` : '';
  const who = row.accessAs === 'impersonate' ? `as ${row.identity ?? 'the impersonated user'}` : (row.accessAs ?? '');
  const how = (row.authorized ? [row.rule !== null ? `rule ${row.rule}` : '', via, who] : [via]).filter(Boolean).join(' · ');
  const verdict = row.authorized
    ? `<div class="verdict">✓ ${row.namespace ? `<code>${escapeHtml(row.namespace)}</code>` : '(no namespace)'}</div>`
    : `<div class="verdict">✗ denied</div><div class="why">${escapeHtml(row.denial ?? '')}</div>`;
  const problems = row.problems.map((p) => `<div class="problem">⚠ ${escapeHtml(p)}</div>`).join('');
  const answer = row.accessKey ? cluster.byKey.get(row.accessKey) : undefined;
  const rbac = answer ? `<div class="rbac ${answer.ok ? 'ok' : 'unknown'}" title="${escapeHtml(answer.text)}">☸ ${escapeHtml(compactAnswer(answer))}</div>` : '';
  const line = row.decidedLine ?? row.line;
  const title = [`${row.scenario} — ${row.project}`, ...row.explanation, row.identity ? `identity: ${row.identity}` : '', line === null ? '' : 'Enter or click: go to what decided this'].filter(Boolean).join('\n');
  return `<td class="cell ${row.authorized ? 'yes' : 'no'}" tabindex="0" data-nav="${r},${c}" data-file="config"${line === null ? '' : ` data-line="${line}"`}${row.accessKey ? ` data-key="${escapeHtml(row.accessKey)}"` : ''} title="${escapeHtml(title)}">
${verdict}${how ? `<div class="how">${escapeHtml(how)}</div>` : ''}${problems}${rbac}</td>`;
}

/** A cell's share of the cluster's answer: what the identity can do, the rest counted (the whole sentence is below the matrix). */
function compactAnswer(answer: SimulationAccessAnswer): string {
  if (!answer.ok) return 'the cluster cannot answer';
  const can = answer.capabilities.filter((c) => c.allowed).map((c) => c.text);
  const cannot = answer.capabilities.length - can.length;
  if (!can.length) return `all ${cannot} refused`;
  return `${can.join(', ')}${cannot ? ` · ${cannot} refused` : ''}`;
}

/** The cluster's answers in full, each with the cells it answers for. */
function renderClusterAnswers(result: SimulateResult, cluster: ClusterAnswers): string {
  const cells = new Map<string, string[]>();
  for (const row of result.rows) {
    if (row.accessKey && cluster.byKey.has(row.accessKey)) cells.set(row.accessKey, [...(cells.get(row.accessKey) ?? []), `${row.entry} × ${row.scenario}`]);
  }
  if (!cells.size) return '';
  const items = [...cells].map(([key, where]) => {
    const answer = cluster.byKey.get(key)!;
    return `<li><span class="muted">${escapeHtml(where.join('; '))}</span><br>${answer.ok ? escapeHtml(answer.text) : `<span class="warn">the cluster cannot answer: ${escapeHtml(answer.text)}</span>`}</li>`;
  });
  return `<div class="answers"><h3>What the jobs may do in the cluster</h3><ul>${items.join('\n')}</ul></div>`;
}

/** The jobs of the pipeline beside the agent that get (or are refused) this agent's context. */
function renderJobs(jobs: PipelineJobsResult, context: string): string {
  if (jobs.pipeline === null) return '';
  const rows = jobs.rows.map((r) => {
    const notes = [r.runs === 'depends' ? 'runs depending on changed files' : r.when === 'manual' ? 'manual job' : '', r.managedEnvironment ? 'managed environment prepared first' : ''].filter(Boolean);
    const result = r.authorized ? `✓ <code>${escapeHtml(r.namespace ?? '(no namespace)')}</code>${r.identity ? ` <span class="how">as ${escapeHtml(r.identity)}</span>` : ''}` : `✗ <span class="why">${escapeHtml(r.reason ?? 'denied')}</span>`;
    const text = [r.job, r.scenario, r.environment ?? '', r.namespace ?? '', r.identity ?? ''].join(' ').toLowerCase();
    return `<tr data-text="${escapeHtml(text)}"${r.authorized ? '' : ' data-denied="1"'}>
<th class="entry" scope="row" tabindex="0" data-file="pipeline" data-line="${r.line}" title="Go to the job">${escapeHtml(r.job)}</th><td>${escapeHtml(r.scenario)}${r.environment ? `<div class="how">environment ${escapeHtml(r.environment)}</div>` : ''}</td>
<td class="${r.authorized ? 'yes' : 'no'}"${r.reason ? ` title="${escapeHtml(r.reason)}"` : ''}>${result}${notes.length ? `<div class="how">${escapeHtml(notes.join('; '))}</div>` : ''}</td></tr>`;
  });
  return `<h3>Jobs of this repository's pipeline</h3>
<p class="muted">${escapeHtml(jobs.pipeline)} of <code>${escapeHtml(jobs.project)}</code>: the jobs that run, and what context <code>${escapeHtml(context)}</code> gives them</p>
<table class="jobs"><thead><tr><th scope="col">job</th><th scope="col">situation</th><th scope="col">this agent's context</th></tr></thead>
<tbody>${rows.length ? rows.join('\n') + noMatch(3) : '<tr><td colspan="3">No job runs in any situation.</td></tr>'}</tbody></table>`;
}

/** The row the page shows when the filter hides every other row of a table. */
function noMatch(columns: number): string {
  return `<tr class="no-match" hidden><td colspan="${columns}" class="muted">No row matches the filter.</td></tr>`;
}

/** Escaped, with a line-break opportunity after each `/`: long group paths wrap between their parts. */
function breakable(path: string): string {
  return escapeHtml(path).replaceAll('/', '/<wbr>');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
