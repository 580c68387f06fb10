/**
 * `agentcfg can-i`: what a CI job may really do in the cluster — the identity and namespace the
 * simulation gives it (through the engine's front door), asked of the connected cluster with
 * SubjectAccessReview (server/src/cluster/rbac). When the cluster cannot answer (no kubeconfig or
 * context, the review itself forbidden, unreachable) it says so and exits 1; it never guesses.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { previewAccess, reviewSubject, templateKinds, type AccessPreview, type AgentServiceAccount, type KnownIds } from '../../cluster/rbac';
import { classifyPath, readAgentConfig, scenarioContext, simulateAccess } from '../../engine/api';
import { parseArgs, UsageError } from '../args';
import { CLUSTER_VALUES, outputFormat, withClusterSession } from '../clusterOptions';
import type { CliCommand } from '../io';
import { checkName, integerOption } from '../options';
import { PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs, settingsForFile } from '../projectSettings';
import { CLUSTER_COMMAND_SUMMARIES } from './clusterSummaries';
import { SCENARIO_OPTIONS, scenarioFromArgs } from './simulate';

const USAGE = `agentcfg can-i <config.yaml> --project <full/path> [--environment <name>] [--tier <tier>] [--ref <ref>] [--tag]
       [--merge-request] [--protected] [--pipeline-source <s>] [--user <login>] [--project-id <id>] [--var K=V]... [--agent <name>]
       [--job-id <id>] [--group-id <group/path>=<id>]... [--agent-service-account <namespace>/<name>] [--template <file>]
       [--context <name>] [--kubeconfig <path>] [--format text|json] ${PROJECT_SETTING_USAGE}
   The job's identity (as simulate gives it) is checked with SubjectAccessReview in its namespace for
   get/list/create/update/patch/delete on the usual resources and the template's kinds.
   Group names whose id is not given (--group-id) are left out and named: what is allowed is certain, what is not may be incomplete.
   exit 0: the cluster answered; 1: the job gets no access, or the cluster cannot answer; 2: usage.`;

export const canICommand: CliCommand = {
  name: 'can-i',
  summary: CLUSTER_COMMAND_SUMMARIES['can-i'],
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, {
      values: [...SCENARIO_OPTIONS, ...CLUSTER_VALUES, 'agent', 'job-id', 'agent-service-account', 'template', ...PROJECT_SETTING_OPTIONS.values],
      repeated: ['var', 'group-id'],
      flags: ['tag', 'merge-request', 'protected', ...PROJECT_SETTING_OPTIONS.flags],
    });
    if (args.positional.length !== 1) throw new UsageError('name exactly one config.yaml');
    if (args.values.agent !== undefined) checkName('agent', args.values.agent, 'label');
    integerOption(args, 'project-id', false);
    integerOption(args, 'job-id', false);
    const format = outputFormat(args);
    const ids = knownIds(args.values['job-id'], args.repeated['group-id'] ?? []);
    const agentAccount = serviceAccount(args.values['agent-service-account']);
    const file = path.resolve(io.cwd, args.positional[0]);
    const settings = settingsForFile(projectSettingsFromArgs(args, io.cwd), file, io.cwd);
    const scenario = scenarioFromArgs(args.values, args.flags, args.repeated.var ?? [], settings.defaultBranch);
    const read = (name: string, shown: string) =>
      readFile(name, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot read ${shown}: ${err.code ?? err.message}`);
      });
    const text = await read(file, args.positional[0]);
    const kinds = args.values.template ? templateKinds(await read(path.resolve(io.cwd, args.values.template), args.values.template)) : [];

    const kind = classifyPath(file);
    const agentName = args.values.agent ?? (kind.kind === 'agentConfig' ? kind.agentName : path.basename(path.dirname(file)));
    const context = scenarioContext(settings, agentName);
    const outcome = simulateAccess(readAgentConfig(text).ciAccess, context.agent, scenario, context.options);
    if (!outcome.authorized || !outcome.identity) {
      const why = `the job gets no access through agent ${agentName}: ${outcome.denial ?? 'not authorized'}`;
      if (format === 'json') io.out(JSON.stringify({ ok: false, authorized: false, denial: outcome.denial }) + '\n');
      else io.err(`${why}\n`);
      return 1;
    }
    const subject = reviewSubject(outcome.identity, ids, agentAccount);
    if (!subject) {
      const why = "the job acts as the agent's own ServiceAccount, which depends on how the agent was installed: name it with --agent-service-account <namespace>/<name> to ask the cluster";
      if (format === 'json') io.out(JSON.stringify({ ok: false, authorized: true, access_as: 'agent', error: { type: 'unknownIdentity', message: why } }) + '\n');
      else io.err(`Cannot ask the cluster: ${why}.\n`);
      return 1;
    }
    return withClusterSession(args, io, format, 'can-i', async (run) => {
      const preview = await previewAccess(run.session, subject, outcome.namespace, { templateKinds: kinds, signal: run.signal });
      if (preview.type !== 'ok') return run.fail(preview);
      io.out((format === 'json' ? JSON.stringify({ ok: true, ...jsonShape(preview.value) }) : previewText(preview.value)) + '\n');
      return 0;
    });
  },
};

function knownIds(jobId: string | undefined, groupIds: readonly string[]): KnownIds {
  const groups: Record<string, string> = {};
  for (const pair of groupIds) {
    const m = /^([^=]+)=(\d+)$/.exec(pair);
    if (!m) throw new UsageError(`--group-id needs <group/path>=<numeric id>, got "${pair}"`);
    groups[m[1].replace(/^\/+|\/+$/g, '')] = m[2];
  }
  return { ...(jobId ? { jobId } : {}), groupIds: groups };
}

function serviceAccount(value: string | undefined): AgentServiceAccount | undefined {
  if (value === undefined) return undefined;
  const [namespace, name, ...rest] = value.split('/');
  if (!namespace || !name || rest.length) throw new UsageError(`--agent-service-account needs <namespace>/<name>, got "${value}"`);
  return { namespace: checkName('agent-service-account', namespace, 'label'), name: checkName('agent-service-account', name, 'subdomain') };
}

/** The documented JSON shape: the subject asked about, the namespace, each answer, and the summary. */
function jsonShape(p: AccessPreview) {
  return {
    context: p.context,
    namespace: p.namespace,
    subject: p.subject,
    summary: p.summary,
    capabilities: p.capabilities,
    checks: p.checks.map((c) => ({ verb: c.verb, group: c.resource.group, resource: c.resource.label, namespace: c.namespace, allowed: c.allowed, ...(c.reason ? { reason: c.reason } : {}), ...(c.evaluationError ? { evaluationError: c.evaluationError } : {}) })),
    unknownKinds: p.unknownKinds,
  };
}

/** The summary, then one row per resource with a column per verb. */
export function previewText(p: AccessPreview): string {
  const verbs = [...new Set(p.checks.map((c) => c.verb))];
  const labels = [...new Set(p.checks.map((c) => (c.resource.group ? `${c.resource.label}.${c.resource.group}` : c.resource.label)))];
  const cell = (label: string, verb: string) => {
    const check = p.checks.find((c) => c.verb === verb && (c.resource.group ? `${c.resource.label}.${c.resource.group}` : c.resource.label) === label);
    return check ? (check.allowed ? 'yes' : 'no') : '-';
  };
  const width = Math.max(8, ...labels.map((l) => l.length));
  const lines = [
    `context ${p.context} · ${p.subject.user}${p.subject.groups.length ? ` (groups ${p.subject.groups.join(', ')})` : ''}`,
    p.summary,
    '',
    ['resource'.padEnd(width), ...verbs.map((v) => v.padEnd(6))].join('  ').trimEnd(),
    ...labels.map((label) => [label.padEnd(width), ...verbs.map((v) => cell(label, v).padEnd(6))].join('  ').trimEnd()),
  ];
  if (p.unknownKinds.length) lines.push('', `not served by the cluster (no answer): ${p.unknownKinds.join(', ')}`);
  return lines.join('\n');
}
