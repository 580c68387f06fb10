import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeOutcome, isFailure, type ClusterFailure, type ClusterOutcome } from '../../cluster/kube/outcome';
import { openSession, type ClusterSession } from '../../cluster/kube/session';
import { applyWorkspace, listWorkspaces, runTermination, workspaceNamespace, type WorkspaceApplyReport } from '../../cluster/workspace/index';
import type { TerminationRun } from '../../cluster/workspace/terminate';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import type { CliCommand, CliIo } from '../io';

const USAGE = `agentcfg workspace apply --config <config_to_apply.yaml> [--shared-namespace <ns>] [--dry-run] [--yes]
       agentcfg workspace terminate --name <workspace> [--config <termination config_to_apply.yaml>] [--namespace <ns>]
                 [--shared-namespace <ns>] [--actual-state <state>] [--timeout <300s>] [--dry-run] [--yes]
       agentcfg workspace list [--agent-id <id>] [--shared-namespace <ns>]
   common: [--context <name>] [--kubeconfig <path>] [--format text|json]`;

/** Options every cluster command of the CLI takes. */
export const CLUSTER_VALUES = ['context', 'kubeconfig', 'format', 'timeout'];

/** `--format text|json`. */
export function outputFormat(args: ParsedArgs): 'text' | 'json' {
  const format = args.values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  return format;
}

/** `--timeout 90s|5m|1500ms|90` (seconds when no unit) in milliseconds. */
export function timeoutOption(args: ParsedArgs): number | undefined {
  const text = args.values.timeout;
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m || Number(m[1]) <= 0) throw new UsageError(`--timeout needs a duration such as 90s, 5m or 1500ms, got "${text}"`);
  return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000);
}

/** Opens the session of `--kubeconfig`/`--context` (KUBECONFIG and the current context by default). */
export function cliSession(args: ParsedArgs, io: CliIo): ClusterOutcome<ClusterSession> {
  const kubeconfig = args.values.kubeconfig;
  return openSession({ ...(kubeconfig ? { kubeconfigPath: path.resolve(io.cwd, kubeconfig) } : {}), ...(args.values.context ? { context: args.values.context } : {}) });
}

/** Progress goes to stderr so that stdout stays the result (text or JSON). */
export function stderrProgress(io: CliIo, command: string): { report(message: string): void } {
  return { report: (message) => io.err(`agentcfg ${command}: ${message}\n`) };
}

/** Prints a failure (JSON or a sentence) and returns exit status 1. */
export function printFailure(io: CliIo, format: 'text' | 'json', failure: ClusterFailure): number {
  if (format === 'json') io.out(JSON.stringify({ ok: false, error: { type: failure.type, message: failure.message, description: describeOutcome(failure) } }) + '\n');
  else io.err(`${describeOutcome(failure)}\n`);
  return 1;
}

async function readConfig(args: ParsedArgs, io: CliIo): Promise<string> {
  const file = args.values.config!;
  return readFile(path.resolve(io.cwd, file), 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
  });
}

function applyText(report: WorkspaceApplyReport, dryRun: boolean): string {
  const lines = [`${dryRun ? 'Dry run: would apply' : 'Applied'} workspace in ${report.mode}-namespace mode, namespace ${report.namespace}${report.namespaceCreated ? (dryRun ? ' (would be created)' : ' (created)') : ''}`];
  for (const inv of report.inventories) {
    lines.push(`  inventory ${inv.inventory.name}: ${inv.applied.length} applied, ${inv.pruned.length} pruned${inv.terminating.length ? `, ${inv.terminating.length} terminating` : ''}`);
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
  if (!dryRun && !args.flags.has('yes')) throw new UsageError('applying changes the cluster: pass --yes (or --dry-run to see what would happen)');
  const text = await readConfig(args, io);
  const session = cliSession(args, io);
  if (isFailure(session)) return printFailure(io, format, session);
  try {
    const result = await applyWorkspace(session.value, text, { sharedNamespace: args.values['shared-namespace'], dryRun, progress: stderrProgress(io, 'workspace apply') });
    if (isFailure(result)) return printFailure(io, format, result);
    io.out(format === 'json' ? JSON.stringify({ ok: true, dryRun, ...result.value }) + '\n' : applyText(result.value, dryRun));
    return 0;
  } finally {
    session.value.close();
  }
}

async function terminate(args: ParsedArgs, io: CliIo): Promise<number> {
  const name = args.values.name;
  if (!name) throw new UsageError('--name <workspace> is required');
  const format = outputFormat(args);
  const dryRun = args.flags.has('dry-run');
  if (!dryRun && !args.flags.has('yes')) throw new UsageError('terminating deletes the workspace: pass --yes (or --dry-run to see the next step)');
  const shared = args.values['shared-namespace'];
  const namespace = args.values.namespace ?? workspaceNamespace(name, shared);
  const configToApply = args.values.config ? await readConfig(args, io) : undefined;
  const timeoutMs = timeoutOption(args);
  const session = cliSession(args, io);
  if (isFailure(session)) return printFailure(io, format, session);
  try {
    const run = await runTermination(
      session.value,
      { name, namespace, mode: shared ? 'shared' : 'unique', ...(configToApply !== undefined ? { configToApply } : {}), ...(args.values['actual-state'] ? { actualState: args.values['actual-state'] } : {}) },
      { dryRun, progress: stderrProgress(io, 'workspace terminate'), ...(timeoutMs ? { timeoutMs } : {}) },
    );
    if (isFailure(run)) return printFailure(io, format, run);
    io.out(format === 'json' ? JSON.stringify({ ok: true, dryRun, name, namespace, ...run.value }) + '\n' : terminationText(name, run.value, dryRun));
    return 0;
  } finally {
    session.value.close();
  }
}

async function list(args: ParsedArgs, io: CliIo): Promise<number> {
  const format = outputFormat(args);
  const session = cliSession(args, io);
  if (isFailure(session)) return printFailure(io, format, session);
  try {
    const result = await listWorkspaces(session.value, { agentId: args.values['agent-id'], sharedNamespace: args.values['shared-namespace'] });
    if (isFailure(result)) return printFailure(io, format, result);
    if (format === 'json') io.out(JSON.stringify({ ok: true, workspaces: result.value }) + '\n');
    else if (result.value.length === 0) io.out('No workspaces found.\n');
    else io.out(result.value.map((w) => `${w.namespace}/${w.name}\t${w.mode}\tagent ${w.agentId}\t${w.actualState}`).join('\n') + '\n');
    return 0;
  } finally {
    session.value.close();
  }
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
