import { TRIGGER_JOB_ACCESS, usedContextText, type JobAccess } from '../../engine/api';

const escape = (text: string) => text.replace(/[|\\`*_]/g, (c) => `\\${c}`);

/** The short name of a context for a lens: the agent's name. */
const agentOf = (context: string) => context.slice(context.lastIndexOf(':') + 1);

/** One line above a job: what it gets, over the situations where it runs. */
export function jobLensTitle(rows: readonly JobAccess[]): string {
  const running = rows.filter((r) => r.runs !== false);
  if (!running.length) return `☸ does not run in any of ${rows.length} situations`;
  if (rows[0].trigger) return `☸ trigger job: no KUBECONFIG · runs in ${running.length}/${rows.length} situations`;
  const grants = new Map<string, number>();
  for (const row of running) {
    for (const c of row.contexts) {
      if (!c.authorized) continue;
      const grant = `${agentOf(c.context)} → ${c.namespace ?? '(no namespace)'} as ${c.accessAs ?? 'agent'}${c.managedEnvironment ? ' (managed)' : ''}`;
      grants.set(grant, (grants.get(grant) ?? 0) + 1);
    }
  }
  const where = `${running.length}/${rows.length} situations`;
  if (!grants.size) return `☸ no cluster access · runs in ${where}`;
  const shown = [...grants.keys()].slice(0, 2).join(', ');
  return `☸ ${shown}${grants.size > 2 ? `, +${grants.size - 2}` : ''} · runs in ${where}`;
}

/** One row of a job's table: a situation, whether it runs, its environment and every context. */
function situationRow(r: JobAccess, label = r.scenario): string {
  const runs = r.runs === true ? (r.when === 'manual' ? 'manual' : '✓ runs') : r.runs === false ? '✗ no' : '? depends';
  const contexts = r.runs === false ? '—' : r.trigger ? escape(TRIGGER_JOB_ACCESS) : r.contexts.map((c) => (c.authorized ? `\`${escape(c.context)}\` → \`${escape(c.namespace ?? '(none)')}\` as ${escape(c.identity ?? '')}${c.managedEnvironment ? ' · managed environment' : ''}` : `\`${escape(c.context)}\` ✗ ${escape(c.reason ?? 'not authorized')}`)).join('<br>') || 'no agent configuration found';
  return `| ${escape(label)} | ${runs} | ${escape(r.environment?.name ?? '—')} | ${contexts} |`;
}

/** The hover on a job: one row per situation, with every context; for a trigger job, its child pipelines' jobs too. */
export function jobHover(job: string, rows: readonly JobAccess[], children: readonly JobAccess[] = []): string {
  const lines = rows.map((r) => situationRow(r));
  const child = children.length
    ? ['', '**Its child pipeline**', '', '| job · situation | runs | environment | contexts in KUBECONFIG |', '|---|---|---|---|', ...children.map((r) => situationRow(r, `${r.parent} ▸ ${r.job} · ${r.scenario}`))]
    : [];
  const why = rows.map((r) => `- ${escape(r.scenario)}: ${escape(r.reason)}`).join('\n');
  const selected = [...new Set(rows.filter((r) => r.runs !== false).flatMap((r) => r.usedContexts.map(usedContextText)))];
  const selects = selected.length ? ['', `The script selects ${selected.map(escape).join(', ')}.`] : [];
  return [`**Cluster access of job \`${escape(job)}\`**`, '', '| situation | runs | environment | contexts in KUBECONFIG |', '|---|---|---|---|', ...lines, '', why, ...selects, ...child].join('\n');
}
