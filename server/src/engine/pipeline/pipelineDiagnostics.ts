import type { EngineDiagnostic } from '../diagnostics';
import { closestMatch } from '../text/didYouMean';
import type { JobAccess } from './accessMap';
import type { Pipeline, PipelineJob, SourceLocation } from './model';

/**
 * Where the pipeline and the agent configurations disagree, on `.gitlab-ci.yml` (and the files it
 * includes, by `file`): a job whose `environment:kubernetes:agent` names an agent that does not
 * authorize it; a job whose namespace would be invalid; a `kubectl --context` no authorized agent
 * provides. Nothing else: general CI linting is other tools' job.
 */
export function pipelineDiagnostics(pipeline: Pipeline, map: readonly JobAccess[], knownContexts: readonly string[]): (EngineDiagnostic & { file: string })[] {
  const out: (EngineDiagnostic & { file: string })[] = [];
  const byJob = new Map<string, JobAccess[]>();
  for (const row of map) (byJob.get(row.job) ?? byJob.set(row.job, []).get(row.job)!).push(row);
  for (const job of pipeline.jobs) {
    const rows = (byJob.get(job.name) ?? []).filter((r) => r.runs !== false);
    // A trigger job gets no context from any agent: there is nothing to disagree about.
    if (!rows.length || job.trigger) continue;
    out.push(...agentDenials(job, rows, knownContexts), ...invalidNamespaces(job, rows), ...unknownContexts(job, rows, knownContexts));
  }
  return once(out);
}

/** Each problem once: the jobs of a `parallel:matrix` (and of its child pipelines) share their places. */
export function once<T extends EngineDiagnostic & { readonly file: string }>(diagnostics: readonly T[]): T[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}:${d.range.start.line}:${d.range.start.character}:${d.code}:${d.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

const at = (location: SourceLocation, severity: EngineDiagnostic['severity'], code: string, message: string) => ({ file: location.file, range: location.range, severity, code, message });

/** "in push to feature/login, merge request from feature/login" */
function scenarios(rows: readonly JobAccess[]): string {
  return rows.map((r) => `"${r.scenario}"`).join(', ');
}

function agentDenials(job: PipelineJob, rows: readonly JobAccess[], knownContexts: readonly string[]) {
  const kubernetes = job.environment?.kubernetes;
  if (!kubernetes?.agent) return [];
  const named = rows.find((r) => r.environment?.agent)?.environment?.agent;
  if (!named) return [];
  if (!knownContexts.includes(named)) {
    const guess = closestMatch(named, knownContexts);
    return [at(kubernetes.location, 'information', 'pipeline.agentUnknown', `No configuration of agent "${named}" is in this workspace, so its access cannot be checked here.${guess ? ` Did you mean "${guess}"?` : ''} Add its config.yaml path to gitlabAgentConfig.agentConfigs (agentcfg: --agent-config).`)];
  }
  const denied = rows.filter((r) => !r.contexts.find((c) => c.context === named)?.authorized);
  if (!denied.length) return [];
  const reasons = [...new Set(denied.map((r) => r.contexts.find((c) => c.context === named)?.reason ?? 'not authorized'))];
  return [at(kubernetes.location, 'warning', 'pipeline.agentDenied', `Agent "${named}" does not authorize job "${job.name}" in ${scenarios(denied)}: ${reasons.join('; ')}. The job gets no context for it.`)];
}

function invalidNamespaces(job: PipelineJob, rows: readonly JobAccess[]) {
  if (!job.environment) return [];
  const found = new Map<string, string[]>();
  for (const row of rows) {
    for (const context of row.contexts) {
      for (const problem of context.problems) {
        if (!/is not a valid Kubernetes namespace/.test(problem)) continue;
        (found.get(problem) ?? found.set(problem, []).get(problem)!).push(`"${row.scenario}" (${context.context})`);
      }
    }
  }
  return [...found].map(([problem, where]) => at(job.environment!.location, 'warning', 'pipeline.invalidNamespace', `Job "${job.name}" would get an invalid namespace in ${where.join(', ')}: ${problem}`));
}

function unknownContexts(job: PipelineJob, rows: readonly JobAccess[], knownContexts: readonly string[]) {
  const out = [];
  for (const [index, use] of job.kubeContexts.entries()) {
    // As the job's shell would see it: a `$AGENT` holding the context's name is expanded first.
    const missing = rows.filter((r) => !r.contexts.some((c) => c.context === r.usedContexts[index]?.context && c.authorized));
    if (!missing.length) continue;
    const name = missing[0].usedContexts[index]?.context ?? null;
    if (name === null || name === '' || name.includes('$')) continue; // not known before the job runs
    const provided = [...new Set(rows.flatMap((r) => r.contexts.filter((c) => c.authorized).map((c) => c.context)))];
    const guess = closestMatch(name, [...provided, ...knownContexts]);
    const shown = name === use.context ? `"${name}"` : `"${name}" (${use.context})`;
    const why = knownContexts.includes(name) ? `agent "${name}" does not authorize this job in ${scenarios(missing)}` : `no agent configuration in this workspace is named "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
    out.push(at(use.location, 'warning', 'pipeline.unknownContext', `kubectl would fail: the job's KUBECONFIG has no context ${shown}: ${why}. Contexts it gets: ${provided.join(', ') || 'none'}.`));
  }
  return out;
}
