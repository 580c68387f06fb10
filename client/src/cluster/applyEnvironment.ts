import * as vscode from 'vscode';
import { CLUSTER_COMMANDS, type ApplyPlanView, type PlanApplyArgs } from '../../../server/src/protocol';
import { confirmAlsoDeleted } from './results';
import type { ClusterCommands } from './clusterCommands';
import type { ClusterTargetSelection } from './clusterTarget';
import { pickScenario, pickTemplate, scenarioArgs } from './environmentInputs';
import type { PlanDocuments } from './planDocuments';
import { reportFailure, showReport } from './results';

const TITLE = 'Apply environment';

/**
 * "Apply Environment" (docs/gitlab-behaviour.md#managed-resources-flow): template → scenario → server-side dry-run plan, shown in the diff
 * editor → a confirmation beside it (a notification that leaves the diff in view) → a second, explicit confirmation when
 * fields owned by other managers would be taken over → apply with progress → the result.
 */
export async function applyEnvironment(deps: {
  commands: ClusterCommands;
  target: ClusterTargetSelection;
  documents: PlanDocuments;
  output: vscode.OutputChannel;
  /** The workspace's memory: ids and the last scenario, so they are asked once. */
  memory: vscode.Memento;
  onApplied: () => void;
}): Promise<void> {
  const cluster = await deps.target.ensure();
  if (!cluster) return;
  const template = await pickTemplate();
  if (!template) return;
  const scenario = await pickScenario(await deps.commands.scenarios(), deps.memory);
  if (!scenario) return;
  const args = await scenarioArgs(template, scenario, deps.memory);
  if (!args) return;

  // Unsaved edits of the template are what the user sees: the server reads the open document.
  if (template.uri) await vscode.workspace.openTextDocument(template.uri);
  const planArgs: PlanApplyArgs = { ...deps.target.operationArgs(), cluster, scenario: args, ...(template.uri ? { templateUri: template.uri.toString() } : {}) };
  const planned = await deps.commands.run(`${TITLE}: planning (server-side dry-run)`, CLUSTER_COMMANDS.planApply, planArgs);
  if (reportFailure(deps.output, TITLE, planned)) return;
  const plan = planned.value;
  // The same plan as text (what the CLI prints), for the record.
  deps.output.appendLine(`[${new Date().toISOString()}] ${TITLE}: plan for ${plan.title} on ${plan.context} (template: ${plan.templateSource})`);
  if (plan.diff) deps.output.appendLine(plan.diff);
  for (const warning of plan.warnings) deps.output.appendLine(`  warning: ${warning}`);

  const decided = await confirm(deps, plan);
  if (decided === undefined) {
    await deps.commands.call(CLUSTER_COMMANDS.discardPlan, { planId: plan.planId });
    await deps.documents.closeDiff(plan);
    return;
  }
  const result = await deps.commands.run(`${TITLE}: applying to ${plan.context}`, CLUSTER_COMMANDS.executePlan, {
    ...deps.target.operationArgs(),
    cluster,
    planId: plan.planId,
    force: decided.force,
    deleteOthers: decided.deleteOthers,
  });
  // The diff showed the state before applying: it is stale now.
  await deps.documents.closeDiff(plan);
  showReport(deps.output, `${TITLE} (${plan.title})`, result);
  deps.onApplied();
}

/** Resolves with the decision, or undefined when the user declined at either step. */
async function confirm(deps: { documents: PlanDocuments }, plan: ApplyPlanView): Promise<{ force: boolean; deleteOthers: boolean } | undefined> {
  if (plan.noop) {
    void vscode.window.showInformationMessage(`${plan.title}: the cluster already matches the template; nothing to apply.`);
    return undefined;
  }
  await deps.documents.showDiff(plan);
  // A notification, not a modal: the diff it asks about stays in view and usable while deciding.
  const counts = (['create', 'update', 'prune'] as const).flatMap((action) => {
    const n = plan.objects.filter((o) => o.action === action).length;
    return n ? [`${action === 'prune' ? 'delete' : action} ${n}`] : [];
  });
  const warned = plan.warnings.length ? ` ⚠ ${plan.warnings.join(' ⚠ ')}` : '';
  const apply = await vscode.window.showInformationMessage(`Apply ${plan.title} to ${plan.context} (${counts.join(', ')})? Review the diff, then choose.${warned}`, 'Apply', 'Cancel');
  if (apply !== 'Apply') return undefined;
  const deleteOthers = plan.alsoDeleted.length > 0;
  if (deleteOthers && !(await confirmAlsoDeleted(plan.alsoDeleted, 'Pruning a namespace the template no longer renders'))) return undefined;
  if (!plan.hasConflicts) return { force: false, deleteOthers };
  const conflicts = plan.objects.flatMap((o) => (o.conflict ? [`${o.id}: fields owned by ${o.conflict.managers.map((m) => `"${m}"`).join(', ')} — ${o.conflict.message}`] : []));
  const force = await vscode.window.showWarningMessage(
    'Other field managers own fields this apply would change. Take them over (force)?',
    { modal: true, detail: `${conflicts.join('\n')}\n\nForcing makes this tool the owner; the other manager may change them back.` },
    'Force Apply',
  );
  return force === 'Force Apply' ? { force: true, deleteOthers } : undefined;
}
