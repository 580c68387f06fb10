import * as vscode from 'vscode';

/** "Add Scenario": asks for a name, ref and environment, and appends it to the workspace's scenarios. */
export async function addScenario(): Promise<void> {
  const name = await vscode.window.showInputBox({ title: 'Add CI scenario (1/3)', prompt: 'Scenario name', placeHolder: 'hotfix branch → staging', validateInput: (v) => (v.trim() ? null : 'A name is required') });
  if (!name) return;
  const ref = await vscode.window.showInputBox({ title: 'Add CI scenario (2/3)', prompt: 'Branch or tag', placeHolder: 'hotfix/payment', validateInput: (v) => (v.trim() ? null : 'A ref is required') });
  if (!ref) return;
  const environmentName = await vscode.window.showInputBox({ title: 'Add CI scenario (3/3)', prompt: 'Environment name (empty: the job has no environment)', placeHolder: 'staging' });
  if (environmentName === undefined) return;
  const protectedPick = await vscode.window.showQuickPick(['not protected', 'protected'], { title: 'Is the ref protected?' });
  if (!protectedPick) return;
  const config = vscode.workspace.getConfiguration('gitlabAgentConfig');
  const scenarios = [...(config.get<unknown[]>('scenarios') ?? [])];
  scenarios.push({ name: name.trim(), ref: ref.trim(), protectedRef: protectedPick === 'protected', ...(environmentName.trim() ? { environmentName: environmentName.trim() } : {}) });
  await config.update('scenarios', scenarios, vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Scenario "${name.trim()}" added.`);
}

/**
 * "Edit Scenarios": the settings editor filtered to the scenarios, on the tab they are defined in —
 * workspace or user (the setting is window-scoped: folders cannot hold it); where "Add CI Scenario"
 * would write them when they are defined nowhere yet.
 */
export async function editScenarios(): Promise<void> {
  const defined = vscode.workspace.getConfiguration('gitlabAgentConfig').inspect('scenarios');
  const inWorkspace = defined?.workspaceValue !== undefined || (defined?.globalValue === undefined && vscode.workspace.workspaceFolders !== undefined);
  const query = { query: 'gitlabAgentConfig.scenarios' };
  await vscode.commands.executeCommand(inWorkspace ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openGlobalSettings', query);
}
