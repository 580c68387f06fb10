import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isFailure } from '../../cluster/kube/outcome';
import { applyWorkspace, listWorkspaces, runTermination, workspaceNamespace, type WorkspaceApplyReport } from '../../cluster/workspace/index';
import type { TerminationRun } from '../../cluster/workspace/terminate';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import { CLUSTER_VALUES, confirmChange, outputFormat, printFailure, stderrProgress, timeoutOption, withClusterSession } from '../clusterOptions';
import type { CliCommand, CliIo } from '../io';

const USAGE = `agentcfg workspace apply --config <config_to_apply.yaml> [--shared-namespace <ns>] [--dry-run] [--yes]
       agentcfg workspace terminate --name <workspace> [--config <termination config_to_apply.yaml>] [--namespace <ns>]
                 [--shared-namespace <ns>] [--actual-state <state>] [--timeout <300s>] [--dry-run] [--yes]
       agentcfg workspace list [--agent-id <id>] [--shared-namespace <ns>]
   common: [--context <name>] [--kubeconfig <path>] [--format text|json]`;

async function readConfig(args: ParsedArgs, io: CliIo): Promise<string> {
  const file = args.values.config!;
  return readFile(path.resolve(io.cwd, file), 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
  });
}

function applyText(report: WorkspaceApplyReport, dryRun: boolean): string {
  const lines = [`${dryRun ? 'Dry run: would apply' : 'Applied'} workspace in ${report.mode}-namespace mode, namespace ${report.namespace}${report.namespaceCreated ? (dryRun ? ' (would be created)' : ' (created)') : ''}`];
  for (const inv of report.inventories) {
    const [applied, pruned] = dryRun ? ['pass the server-side dry-run', 'would be pruned'] : ['applied', 'pruned'];
    lines.push(`  inventory ${inv.inventory.name}: ${inv.applied.length} ${applied}, ${inv.pruned.length} ${pruned}${inv.terminating.length ? `, ${inv.terminating.length} terminating` : ''}`);
    for (const a of inv.abandoned) lines.push(`    left alone: ${a.ref.kind} ${a.ref.namespace}/${a.ref.name} (${a.reason})`);
  }
  return lines.join('\n') + '\n';
}

function terminationText(name: string, run: TerminationRun, dryRun: boolean): string {
  const lines = run.cycles.map((c) => `  ${c.step}${c.deleted.length ? `: ${dryRun ? 'would delete' : 'deleted'} ${c.deleted.join(', ')}` : ''}`);
  const state = run.progress ?? 'forgotten (Rails already has it Terminated)';
  return `${dryRun ? 'Dry run: next step for' : 'Workspace'} ${name}: ${state}${run.reported.length ? `; progress reported: ${run.reported.join(' → ')}` : ''}\n${lines.join('\n')}\n`;
}

async function apply(args: ParsedArgs, io: CliIo): Promise<number> {
  if (!args.values.config) throw new UsageError('--config <file> is required (the workspace config_to_apply)');
  const format = outputFormat(args);
  const dryRun = args.flags.has('dry-run');
  const text = await readConfig(args, io);
  const options = { sharedNamespace: args.values['shared-namespace'], progress: stderrProgress(io, 'workspace apply') };
  return withClusterSession(args, io, format, async (session) => {
    if (!dryRun && !args.flags.has('yes')) {
      // A person confirms after seeing the server-side dry-run.
      const preview = await applyWorkspace(session, text, { ...options, dryRun: true });
      if (isFailure(preview)) return printFailure(io, format, preview);
      io.err(applyText(preview.value, true));
      if (!(await confirmChange(io, args, `Apply this workspace to ${session.context}?`))) return 1;
    }
    const result = await applyWorkspace(session, text, { ...options, dryRun });
    if (isFailure(result)) return printFailure(io, format, result);
    io.out(format === 'json' ? JSON.stringify({ ok: true, dryRun, ...result.value }) + '\n' : applyText(result.value, dryRun));
    return 0;
  });
}

async function terminate(args: ParsedArgs, io: CliIo): Promise<number> {
  const name = args.values.name;
  if (!name) throw new UsageError('--name <workspace> is required');
  const format = outputFormat(args);
  const dryRun = args.flags.has('dry-run');
  const shared = args.values['shared-namespace'];
  const namespace = args.values.namespace ?? workspaceNamespace(name, shared);
  const configToApply = args.values.config ? await readConfig(args, io) : undefined;
  const timeoutMs = timeoutOption(args);
  const target = {
    name,
    namespace,
    mode: shared ? ('shared' as const) : ('unique' as const),
    ...(configToApply !== undefined ? { configToApply } : {}),
    ...(args.values['actual-state'] ? { actualState: args.values['actual-state'] } : {}),
  };
  const progress = stderrProgress(io, 'workspace terminate');
  return withClusterSession(args, io, format, async (session) => {
    if (!dryRun && !args.flags.has('yes')) {
      const preview = await runTermination(session, target, { dryRun: true, progress });
      if (isFailure(preview)) return printFailure(io, format, preview);
      io.err(terminationText(name, preview.value, true));
      if (!(await confirmChange(io, args, `Terminate workspace ${name} in ${namespace} on ${session.context}?`))) return 1;
    }
    const run = await runTermination(session, target, { dryRun, progress, ...(timeoutMs ? { timeoutMs } : {}) });
    if (isFailure(run)) return printFailure(io, format, run);
    io.out(format === 'json' ? JSON.stringify({ ok: true, dryRun, name, namespace, ...run.value }) + '\n' : terminationText(name, run.value, dryRun));
    return 0;
  });
}

async function list(args: ParsedArgs, io: CliIo): Promise<number> {
  const format = outputFormat(args);
  const agentId = args.values['agent-id'];
  // It becomes a label selector: only an agent id (digits) may go there.
  if (agentId !== undefined && !/^\d+$/.test(agentId)) throw new UsageError(`--agent-id must be the agent's numeric id, got "${agentId}"`);
  return withClusterSession(args, io, format, async (session) => {
    const result = await listWorkspaces(session, { agentId, sharedNamespace: args.values['shared-namespace'] });
    if (isFailure(result)) return printFailure(io, format, result);
    if (format === 'json') io.out(JSON.stringify({ ok: true, workspaces: result.value }) + '\n');
    else if (result.value.length === 0) io.out('No workspaces found.\n');
    else io.out(result.value.map((w) => `${w.namespace}/${w.name}\t${w.mode}\tagent ${w.agentId}\t${w.actualState}`).join('\n') + '\n');
    return 0;
  });
}

/**
 * `agentcfg workspace apply|terminate|list`: a remote development workspace's `config_to_apply` applied
 * and terminated as agentk does (seed 001, spec §5), and the workspaces found on the cluster.
 */
export const workspaceCommand: CliCommand = {
  name: 'workspace',
  summary: 'Apply, terminate or list remote development workspaces as the agent does.',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parseArgs(rest, {
      values: [...CLUSTER_VALUES, 'config', 'shared-namespace', 'name', 'namespace', 'actual-state', 'agent-id'],
      flags: ['dry-run', 'yes'],
    });
    if (args.positional.length) throw new UsageError(`unexpected argument ${args.positional[0]}`);
    switch (sub) {
      case 'apply':
        return apply(args, io);
      case 'terminate':
        return terminate(args, io);
      case 'list':
        return list(args, io);
      default:
        throw new UsageError('say what to do: apply, terminate or list');
    }
  },
};
