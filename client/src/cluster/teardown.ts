import * as vscode from 'vscode';
import {
  CLUSTER_COMMANDS,
  type ClusterInventory,
  type EnvironmentView,
  type WaitForFluxSyncArgs,
  type WorkspaceView,
} from '../../../server/src/protocol';
import type { ClusterCommands } from './clusterCommands';
import type { ClusterTargetSelection } from './clusterTarget';
import type { ClusterTreeNode } from './clusterTree';
import { confirmAlsoDeleted, reportFailure, safeFirst, showReport } from './results';

interface Deps {
  commands: ClusterCommands;
  target: ClusterTargetSelection;
  output: vscode.OutputChannel;
  onChanged: () => void;
}

/** Lists what is on the cluster, for the commands run from the palette (the tree passes its node). */
async function inventory(deps: Deps, title: string): Promise<ClusterInventory | undefined> {
  const cluster = await deps.target.ensure();
  if (!cluster) return undefined;
  const listed = await deps.commands.run(`${title}: reading the cluster`, CLUSTER_COMMANDS.listClusterObjects, { ...deps.target.operationArgs(), cluster });
  return reportFailure(deps.output, title, listed) ? undefined : listed.value;
}

/**
 * "Delete Environment Resources": the plan (exactly the inventory's objects, in deletion order) is
 * shown in a modal before anything is deleted; `delete_resources: never` or a guard is a refusal.
 */
export async function deleteEnvironment(deps: Deps, node?: ClusterTreeNode): Promise<void> {
  const title = 'Delete environment resources';
  let environment: EnvironmentView | undefined = node?.type === 'environment' ? node.environment : undefined;
  if (!environment) {
    const found = await inventory(deps, title);
    if (!found) return;
    if (found.environments.length === 0) return void vscode.window.showInformationMessage(`No managed environments on ${found.context}.`);
    const pick = await vscode.window.showQuickPick(
      found.environments.map((e) => ({ label: e.environment, description: `${e.state} · ${e.objectCount} objects`, detail: `inventory ${e.inventory.namespace}/${e.inventory.name}`, e })),
      { title },
    );
    environment = pick?.e;
  }
  if (!environment) return;
  const cluster = deps.target.target();
  const planned = await deps.commands.run(`Reading what deleting ${environment.environment} removes`, CLUSTER_COMMANDS.planDestroy, { ...deps.target.operationArgs(), cluster, inventory: environment.inventory });
  if (reportFailure(deps.output, title, planned)) return;
  const plan = planned.value;
  if (plan.nothingToDelete) {
    await deps.commands.call(CLUSTER_COMMANDS.discardPlan, { planId: plan.planId });
    return void vscode.window.showInformationMessage(plan.nothingToDelete);
  }
  const answer = await vscode.window.showWarningMessage(
    `Delete ${plan.objects.length} object${plan.objects.length === 1 ? '' : 's'} of ${plan.title} on ${plan.context}?`,
    { modal: true, detail: ['In this order:', ...plan.objects.map((o) => `  ${o}`), ...(plan.skipped.length ? ['Left alone:', ...plan.skipped.map((s) => `  ${s}`)] : [])].join('\n') },
    ...safeFirst('Delete'),
  );
  const deleteOthers = plan.alsoDeleted.length > 0;
  if (answer !== 'Delete' || (deleteOthers && !(await confirmAlsoDeleted(plan.alsoDeleted, 'Deleting the namespace')))) {
    await deps.commands.call(CLUSTER_COMMANDS.discardPlan, { planId: plan.planId });
    return;
  }
  const result = await deps.commands.run(`Deleting ${plan.title} on ${plan.context}`, CLUSTER_COMMANDS.executePlan, { ...deps.target.operationArgs(), cluster, planId: plan.planId, deleteOthers });
  showReport(deps.output, `${title} (${plan.title})`, result);
  deps.onChanged();
}

/** "Terminate Workspace" (docs/gitlab-behaviour.md#workspace-termination): confirm, then run the termination to Terminated with progress. */
export async function terminateWorkspace(deps: Deps, node?: ClusterTreeNode): Promise<void> {
  const title = 'Terminate workspace';
  let workspace: WorkspaceView | undefined = node?.type === 'workspace' ? node.workspace : undefined;
  if (!workspace) {
    const found = await inventory(deps, title);
    if (!found) return;
    if (found.workspaces.length === 0) return void vscode.window.showInformationMessage(`No workspaces on ${found.context}.`);
    const pick = await vscode.window.showQuickPick(
      found.workspaces.map((w) => ({ label: w.name, description: `${w.state} · ${w.namespace} (${w.mode} namespace)`, w })),
      { title },
    );
    workspace = pick?.w;
  }
  if (!workspace) return;
  const args = { ...deps.target.operationArgs(), cluster: deps.target.target(), name: workspace.name, namespace: workspace.namespace, mode: workspace.mode };
  // The preview: what the first termination step deletes, read from the cluster (nothing changes).
  const preview = await deps.commands.run(`${title} ${workspace.name}: preview`, CLUSTER_COMMANDS.terminateWorkspace, { ...args, dryRun: true });
  if (reportFailure(deps.output, title, preview)) return;
  const then =
    workspace.mode === 'unique'
      ? `Then its namespace ${workspace.namespace} and everything left in it is deleted.`
      : `Then its inventory ConfigMaps in the shared namespace ${workspace.namespace} are deleted.`;
  const answer = await vscode.window.showWarningMessage(
    `Terminate workspace ${workspace.name}?`,
    { modal: true, detail: [preview.value.summary, ...preview.value.lines.map((l) => `  ${l.object}`), then].join('\n') },
    ...safeFirst('Terminate'),
  );
  if (answer !== 'Terminate') return;
  const result = await deps.commands.run(`Terminating workspace ${workspace.name}`, CLUSTER_COMMANDS.terminateWorkspace, args);
  showReport(deps.output, `${title} ${workspace.name}`, result);
  deps.onChanged();
}

/** "Wait for Flux Sync" (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job): which object, which revision, then wait with progress. */
export async function waitForFluxSync(deps: Deps): Promise<void> {
  const title = 'Wait for Flux sync';
  const cluster = await deps.target.ensure();
  if (!cluster) return;
  const kinds: WaitForFluxSyncArgs['kind'][] = ['Kustomization', 'OCIRepository'];
  const picked = await vscode.window.showQuickPick(kinds, { title: `${title} (1/3): what to watch` });
  const kind = kinds.find((k) => k === picked);
  if (!kind) return;
  const ref = await vscode.window.showInputBox({
    title: `${title} (2/3)`,
    prompt: `The ${kind} as <namespace>/<name>`,
    placeHolder: 'flux-system/app',
    validateInput: (v) => (/^[a-z0-9-.]+\/[a-z0-9-.]+$/.test(v.trim()) ? null : 'Write <namespace>/<name>'),
  });
  if (!ref) return;
  const revision = await vscode.window.showInputBox({
    title: `${title} (3/3)`,
    prompt: 'Revision: <ref>@sha1:<commit>, sha256:<digest>, or a commit SHA',
    validateInput: (v) => (v.trim() ? null : 'Required'),
  });
  if (!revision) return;
  const [namespace, name] = ref.trim().split('/');
  const timeoutSeconds = vscode.workspace.getConfiguration('gitlabAgentConfig.cluster').get<number>('fluxTimeoutSeconds', 300);
  const args: WaitForFluxSyncArgs = { cluster, kind, namespace, name, revision: revision.trim(), timeoutSeconds };
  const result = await deps.commands.run(`${title}: ${kind} ${ref.trim()}`, CLUSTER_COMMANDS.waitForFluxSync, args);
  showReport(deps.output, `${title} (${kind} ${ref.trim()})`, result);
}
