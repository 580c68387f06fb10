import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isFailure } from '../../cluster/kube/outcome';
import { applyWorkspace, listWorkspaces, runTermination, workspaceGroups, workspaceNamespace, type WorkspaceActualState, type WorkspaceApplyReport } from '../../cluster/workspace/index';
import type { TerminationRun } from '../../cluster/workspace/terminate';
import { parseArgs, UsageError, type ArgsSpec, type ParsedArgs } from '../args';
import { confirmChange, outputFormat, timeoutOption, withClusterSession } from '../clusterOptions';
import type { CliCommand, CliIo } from '../io';
import { checkName, choiceOption, nameOption } from '../options';
import { observeTermination, observeWorkspaceApply } from '../progressLedgers';
import { CLUSTER_COMMAND_SUMMARIES } from './clusterSummaries';

/** The states Rails computes (docs/gitlab-behaviour.md#workspace-states); `--actual-state` is one of them. A Record, so none is missed. */
const ACTUAL_STATE_KEYS: Readonly<Record<WorkspaceActualState, true>> = {
  CreationRequested: true,
  Starting: true,
  Running: true,
  Stopping: true,
  Stopped: true,
  Terminating: true,
  Terminated: true,
  Failed: true,
  Error: true,
  Unknown: true,
};
const ACTUAL_STATES = Object.keys(ACTUAL_STATE_KEYS) as WorkspaceActualState[];

const SESSION_VALUES = ['context', 'kubeconfig', 'format'];
/** Each sub-command's options: one it does not use is a usage error, not silently ignored. */
const SPECS: Readonly<Record<string, ArgsSpec>> = {
  apply: { values: [...SESSION_VALUES, 'config', 'shared-namespace'], flags: ['dry-run', 'yes'] },
  terminate: { values: [...SESSION_VALUES, 'timeout', 'name', 'config', 'namespace', 'shared-namespace', 'actual-state'], flags: ['dry-run', 'yes'] },
  list: { values: [...SESSION_VALUES, 'agent-id', 'shared-namespace'] },
};

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
  const sharedNamespace = nameOption(args, 'shared-namespace', 'namespace');
  const format = outputFormat(args);
  if (!args.values.config) throw new UsageError('--config <file> is required (the workspace config_to_apply)');
  const dryRun = args.flags.has('dry-run');
  const text = await readConfig(args, io);
  return withClusterSession(args, io, format, 'workspace apply', async (run) => {
    const { session, signal } = run;
    const options = { sharedNamespace, progress: run.progress, signal };
    if (!dryRun && !args.flags.has('yes')) {
      // A person confirms after seeing the server-side dry-run.
      const preview = await applyWorkspace(session, text, { ...options, dryRun: true });
      if (isFailure(preview)) return run.fail(preview);
      io.err(applyText(preview.value, true));
      if (!(await confirmChange(io, args, `Apply this workspace to ${session.context}?`))) return 1;
    }
    const groups = workspaceGroups(text);
    if (!dryRun) {
      if (!sharedNamespace) run.ledger.expect('namespace', 'create the workspace namespace (if missing)');
      run.observe(observeWorkspaceApply(run.ledger, isFailure(groups) ? [] : groups.value.map((g) => g.inventory.metadata.name)));
    }
    const result = await applyWorkspace(session, text, { ...options, dryRun });
    if (isFailure(result)) return run.fail(result);
    io.out(format === 'json' ? JSON.stringify({ ok: true, dryRun, ...result.value }) + '\n' : applyText(result.value, dryRun));
    return 0;
  });
}

async function terminate(args: ParsedArgs, io: CliIo): Promise<number> {
  const name = nameOption(args, 'name', 'label');
  if (!name) throw new UsageError('--name <workspace> is required');
  const shared = nameOption(args, 'shared-namespace', 'namespace');
  const given = nameOption(args, 'namespace', 'namespace');
  // gl-rd-ns-<name> must itself be a namespace name.
  const namespace = given ?? checkName('name', workspaceNamespace(name, shared), 'namespace');
  const actualState = choiceOption(args, 'actual-state', ACTUAL_STATES);
  const format = outputFormat(args);
  const timeoutMs = timeoutOption(args);
  const dryRun = args.flags.has('dry-run');
  const configToApply = args.values.config ? await readConfig(args, io) : undefined;
  const target = {
    name,
    namespace,
    mode: shared ? ('shared' as const) : ('unique' as const),
    ...(configToApply !== undefined ? { configToApply } : {}),
    ...(actualState ? { actualState } : {}),
  };
  return withClusterSession(args, io, format, 'workspace terminate', async (run) => {
    const { session, signal, progress } = run;
    if (!dryRun && !args.flags.has('yes')) {
      const preview = await runTermination(session, target, { dryRun: true, progress, signal });
      if (isFailure(preview)) return run.fail(preview);
      io.err(terminationText(name, preview.value, true));
      if (!(await confirmChange(io, args, `Terminate workspace ${name} in ${namespace} on ${session.context}?`))) return 1;
    }
    if (!dryRun) run.observe(observeTermination(run.ledger, name));
    const result = await runTermination(session, target, { dryRun, progress, signal, ...(timeoutMs ? { timeoutMs } : {}) });
    if (isFailure(result)) return run.fail(result);
    io.out(format === 'json' ? JSON.stringify({ ok: true, dryRun, name, namespace, ...result.value }) + '\n' : terminationText(name, result.value, dryRun));
    return 0;
  });
}

async function list(args: ParsedArgs, io: CliIo): Promise<number> {
  const format = outputFormat(args);
  const agentId = args.values['agent-id'];
  // It becomes a label selector: only an agent id (digits) may go there.
  if (agentId !== undefined && !/^\d+$/.test(agentId)) throw new UsageError(`--agent-id must be the agent's numeric id, got "${agentId}"`);
  const sharedNamespace = nameOption(args, 'shared-namespace', 'namespace');
  return withClusterSession(args, io, format, 'workspace list', async (run) => {
    const result = await listWorkspaces(run.session, { agentId, sharedNamespace });
    if (isFailure(result)) return run.fail(result);
    if (format === 'json') io.out(JSON.stringify({ ok: true, workspaces: result.value }) + '\n');
    else if (result.value.length === 0) io.out('No workspaces found.\n');
    else io.out(result.value.map((w) => `${w.namespace}/${w.name}\t${w.mode}\tagent ${w.agentId}\t${w.actualState}`).join('\n') + '\n');
    return 0;
  });
}

/**
 * `agentcfg workspace apply|terminate|list`: a remote development workspace's `config_to_apply` applied
 * and terminated as agentk does (docs/gitlab-behaviour.md#workspace-termination, docs/gitlab-behaviour.md#remote-development-workspaces), and the workspaces found on the cluster.
 */
export const workspaceCommand: CliCommand = {
  name: 'workspace',
  summary: CLUSTER_COMMAND_SUMMARIES.workspace,
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const spec = sub !== undefined && Object.hasOwn(SPECS, sub) ? SPECS[sub] : undefined;
    if (!spec) throw new UsageError(sub === undefined ? 'say what to do: apply, terminate or list' : `unknown sub-command "${sub}"; say what to do: apply, terminate or list`);
    const args = parseArgs(rest, spec);
    if (args.positional.length) throw new UsageError(`unexpected argument ${args.positional[0]}`);
    return sub === 'apply' ? apply(args, io) : sub === 'terminate' ? terminate(args, io) : list(args, io);
  },
};
