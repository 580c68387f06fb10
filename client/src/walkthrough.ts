import * as vscode from 'vscode';

export const OPEN_AGENT_CONFIGURATION_COMMAND = 'gitlabAgentConfig.openAgentConfiguration';
/**
 * Set once an agent configuration was opened through {@link OPEN_AGENT_CONFIGURATION_COMMAND}: the
 * walkthrough's first step completes on it. VS Code's walkthroughs ignore an `onContext` condition
 * that already holds when they load (gettingStartedService keeps it as a session event and never
 * progresses on it), so "an agent file is active" alone missed the step when a config was already
 * open; completing on the command itself advanced the walkthrough while its file picker was still
 * open, and the moved focus closed the picker.
 */
const CONFIG_OPENED_CONTEXT = 'gitlabAgentConfig.walkthrough.configOpened';

/** The walkthrough's "Open Agent Configuration": the workspace's agent configurations, one picked and opened. */
export function registerWalkthroughCommands(): vscode.Disposable {
  return vscode.commands.registerCommand(OPEN_AGENT_CONFIGURATION_COMMAND, async () => {
    const files = await vscode.workspace.findFiles('**/.gitlab/agents/*/config.yaml', '**/node_modules/**', 100);
    if (files.length === 0) {
      void vscode.window.showInformationMessage('This workspace has no .gitlab/agents/<agent>/config.yaml: create one (the agent is named after its folder) and it is checked as you type.');
      return;
    }
    const items = files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })).sort((a, b) => a.label.localeCompare(b.label));
    const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: 'Open an agent configuration', placeHolder: 'The config.yaml of an agent' });
    if (!picked) return;
    // Pinned: a preview editor would take the place of the walkthrough's own (preview) tab.
    await vscode.window.showTextDocument(picked.uri, { preview: false });
    await vscode.commands.executeCommand('setContext', CONFIG_OPENED_CONTEXT, true);
  });
}
