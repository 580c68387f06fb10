/**
 * `agentcfg apply`: the three steps of docs/gitlab-behaviour.md#managed-resources-flow from the command line — render, plan (server-side
 * dry-run and diff), confirm, server-side apply and wait until ready. With `--yes` (and no
 * `--dry-run`) nobody reads a preview: the plan reads and guards without dry-running, and the apply
 * itself says what changed.
 */
import { applyLockSubject, executeApply } from '../../cluster/apply/execute';
import type { HeldLock } from '../../cluster/operationLock';
import { conflictsOf, isNoop, planApply, type ApplyPlan } from '../../cluster/apply/plan';
import { describeForbidden } from '../../cluster/kube/forbidden';
import { formatRef } from '../../cluster/kube/objectRef';
import { describeOutcome, isFailure } from '../../cluster/kube/outcome';
import { CLI_ADVICE } from '../../cluster/kube/advice';
import { parseArgs } from '../args';
import type { CliCommand } from '../io';
import { askYesNo, CLUSTER_VALUES, outputFormat, timeoutOption, withClusterSession, withPlanLock, type ClusterRun } from '../clusterOptions';
import { observeApply } from '../progressLedgers';
import { diagnosticLines, ENVIRONMENT_USAGE, ENVIRONMENT_VALUES, environmentFromArgs } from './environmentArgs';
import { CLUSTER_COMMAND_SUMMARIES } from './clusterSummaries';

const USAGE = `agentcfg apply ${ENVIRONMENT_USAGE}
       [--context <name>] [--kubeconfig <path>] [--dry-run] [--yes] [--force-conflicts] [--adopt] [--delete-others] [--timeout <5m>] [--format text|json]`;

/** The plan as text: one line per object, then the diffs (a plan without preview has none: its existing objects are `apply`). */
export function planText(plan: ApplyPlan): string {
  const env = plan.environment;
  const lines = [`Context ${plan.context} (${plan.server}); inventory ${env.inventory.namespace}/${env.inventory.name}${plan.createsInventoryNamespace ? ` (namespace ${env.inventory.namespace} will be created)` : ''}`];
  if (!plan.previewed) lines.push('  (--yes: no server-side dry-run; the cluster checks each object as it is applied)');
  for (const o of plan.objects) {
    const action = !plan.previewed && o.action === 'update' ? 'apply' : o.action;
    const note = o.validated || !plan.previewed ? '' : '  (validated when applied: its namespace is new)';
    lines.push(`  ${action.padEnd(9)} ${formatRef(o.ref)}${o.conflict ? `  CONFLICT with ${o.conflict.managers.map((m) => `"${m}"`).join(', ')}` : ''}${note}`);
  }
  for (const p of plan.prunes) lines.push(`  ${'prune'.padEnd(9)} ${formatRef(p.ref)}`);
  for (const s of plan.skipped) lines.push(`  ${'forget'.padEnd(9)} ${formatRef({ ...s.ref, version: '*' })}: ${s.reason}`);
  // The 403s as one line (who was refused, each verb × resource × namespace once), as the editor says them; the rest one line each.
  const forbidden = plan.blocked.filter((b) => b.type === 'forbidden');
  if (forbidden.length) lines.push(`  ${'BLOCKED'.padEnd(9)} ${describeForbidden(forbidden, { advice: CLI_ADVICE })}`);
  for (const b of plan.blocked) if (b.type !== 'forbidden') lines.push(`  ${'BLOCKED'.padEnd(9)} ${describeOutcome(b, CLI_ADVICE)}`);
  for (const c of plan.pruneCascades) for (const o of [...c.objects.map((x) => formatRef(x)), ...c.unlisted]) lines.push(`  ${'ALSO'.padEnd(9)} ${o}: goes with namespace ${c.namespace} (not created by this environment; needs --delete-others)`);
  for (const a of plan.adoptions) for (const o of [...a.objects.map((x) => formatRef(x)), ...a.unlisted]) lines.push(`  ${'adopts'.padEnd(9)} namespace ${a.namespace}, which also holds ${o}: deleting the environment later deletes it too`);
  const diffs = plan.objects.filter((o) => o.diff !== '').map((o) => o.diff);
  return [...lines, ...(diffs.length ? ['', ...diffs] : [])].join('\n') + '\n';
}

function planJson(plan: ApplyPlan): Record<string, unknown> {
  const env = plan.environment;
  return {
    context: plan.context,
    server: plan.server,
    inventory: { name: env.inventory.name, namespace: env.inventory.namespace, createsNamespace: plan.createsInventoryNamespace },
    previewed: plan.previewed,
    noop: isNoop(plan),
    objects: plan.objects.map((o) => ({ ref: o.ref, action: o.action, validated: o.validated, conflict: o.conflict ?? null, diff: o.diff })),
    prunes: plan.prunes.map((p) => ({ ref: p.ref })),
    skipped: plan.skipped,
    blocked: plan.blocked.map((b) => ({ type: b.type, ref: b.ref ?? null, message: describeOutcome(b, CLI_ADVICE) })),
    alsoDeleted: plan.pruneCascades.map((c) => ({ namespace: c.namespace, objects: c.objects, unlisted: c.unlisted })),
    adoptions: plan.adoptions.map((a) => ({ namespace: a.namespace, objects: a.objects, unlisted: a.unlisted })),
  };
}

async function confirm(plan: ApplyPlan, yes: boolean, force: boolean): Promise<'go' | 'declined' | 'noTerminal'> {
  if (yes) return 'go';
  const first = await askYesNo(`Apply these changes to ${plan.context}?`);
  if (first === undefined) return 'noTerminal';
  if (!first) return 'declined';
  if (force && conflictsOf(plan).length > 0) {
    // Taking fields from other managers needs a second, explicit answer.
    const second = await askYesNo(`Force: take over the fields owned by ${[...new Set(conflictsOf(plan).flatMap((o) => o.conflict?.managers ?? []))].join(', ')}?`);
    if (!second) return 'declined';
  }
  return 'go';
}

export const applyCommand: CliCommand = {
  name: 'apply',
  summary: CLUSTER_COMMAND_SUMMARIES.apply,
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: [...ENVIRONMENT_VALUES, ...CLUSTER_VALUES], flags: ['dry-run', 'yes', 'force-conflicts', 'adopt', 'delete-others'] });
    const format = outputFormat(args);
    const timeoutMs = timeoutOption(args);
    const prepared = await environmentFromArgs(args, io);
    if (!prepared.ok) {
      if (format === 'json') io.out(JSON.stringify({ ok: false, errors: prepared.errors }) + '\n');
      else io.err(diagnosticLines(prepared.templateFile, prepared.errors));
      return 1;
    }
    const environment = prepared.environment;
    // Nobody reviews the plan of `--yes` without `--dry-run`: no dry-run in it (the apply is the server's verdict).
    const preview = !args.flags.has('yes') || args.flags.has('dry-run');
    const dryRun = args.flags.has('dry-run');
    return withClusterSession(args, io, format, 'apply', (run) => withPlanLock(run, dryRun ? null : applyLockSubject(environment), 'apply', timeoutMs, (lock) => applyRun(run, lock)));

    async function applyRun(run: ClusterRun, heldLock: HeldLock | undefined): Promise<number> {
      const { session, signal, progress } = run;
      const planned = await planApply(session, environment, { progress, signal, adopt: args.flags.has('adopt'), preview });
      if (isFailure(planned)) return run.fail(planned);
      const plan = planned.value;
      const force = args.flags.has('force-conflicts');
      const blocked = plan.blocked.length > 0;
      const conflicted = conflictsOf(plan).length > 0 && !force;
      if (format === 'text') io.out(planText(plan));
      if (dryRun || blocked || conflicted) {
        if (format === 'json') io.out(JSON.stringify({ ok: !blocked && !conflicted, dryRun: true, plan: planJson(plan), requests: session.requests.snapshot() }) + '\n');
        else if (conflicted) io.err('Not applied: fields are owned by other field managers (see CONFLICT). Run again with --force-conflicts to take them over.\n');
        else if (blocked) io.err('Not applied: the plan is blocked (see BLOCKED); nothing was changed.\n');
        return blocked || conflicted ? 1 : 0;
      }
      if (isNoop(plan)) {
        if (format === 'json') io.out(JSON.stringify({ ok: true, dryRun: false, plan: planJson(plan), result: null, requests: session.requests.snapshot() }) + '\n');
        else io.out('Nothing to do: the cluster already matches the template.\n');
        return 0;
      }
      run.observe(observeApply(run.ledger, plan));
      const answer = await confirm(plan, args.flags.has('yes'), force);
      if (answer !== 'go') {
        io.err(answer === 'noTerminal' ? 'Not applied: no terminal to confirm on; pass --yes to apply without asking.\n' : 'Not applied.\n');
        return 1;
      }
      const result = await executeApply(session, plan, { force, progress, signal, heldLock, deleteOthers: args.flags.has('delete-others'), ...(timeoutMs ? { timeoutMs } : {}) });
      if (isFailure(result)) return run.fail(result);
      const r = result.value;
      if (format === 'json') io.out(JSON.stringify({ ok: true, dryRun: false, plan: planJson(plan), result: r, requests: session.requests.snapshot() }) + '\n');
      else if (!r.changed) io.out('Nothing to do: the cluster already matches the template.\n');
      else io.out(`Applied: ${r.applied.filter((a) => a.action !== 'unchanged').length} changed, ${r.applied.filter((a) => a.action === 'unchanged').length} unchanged, ${r.pruned.length} pruned; all ready. Inventory ${r.inventory.namespace}/${r.inventory.name}.\n`);
      return 0;
    }
  },
};
