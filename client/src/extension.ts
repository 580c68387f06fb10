/**
 * The VS Code side: starts the language server, holds the output channel, and offers the
 * restart command. Everything else lives in the server (see ARCHITECTURE.md).
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { agentOfConfigPath, DOCUMENT_SELECTOR } from './documentSelector';
import { PIPELINE_MIDDLEWARE } from './pipelineMiddleware';
import { clusterInitializationOptions, registerClusterFeatures } from './cluster/index';
import { addScenario, editScenarios } from './scenarioCommands';
import { SimulationView } from './simulationView';
import { registerAccessDiff } from './accessDiffCommand';
import { LanguageStatus } from './languageStatus';
import { registerWalkthroughCommands } from './walkthrough';

const CLIENT_ID = 'gitlabAgentConfig';
const CLIENT_NAME = 'GitLab Agent Config';

let client: LanguageClient | undefined;
let languageStatus: LanguageStatus | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(CLIENT_NAME);
  context.subscriptions.push(output);
  output.appendLine(`Activating ${CLIENT_NAME} ${String(context.extension.packageJSON.version)}`);

  context.subscriptions.push(
    vscode.commands.registerCommand('gitlabAgentConfig.restartServer', async () => {
      output.appendLine('Restarting the language server');
      if (!client) return startClient(context, output);
      try {
        await client.restart();
      } catch (err) {
        reportFailure(output, 'restart the GitLab agent config language server', err);
      }
    }),
    vscode.commands.registerCommand('gitlabAgentConfig.showOutput', () => output.show(true)),
  );

  const simulationView = new SimulationView(() => client);
  context.subscriptions.push(
    simulationView,
    // From a code lens: the config and the entry's line (its row is pointed at in the view).
    vscode.commands.registerCommand('gitlabAgentConfig.simulate', async (uri?: string | vscode.Uri, line?: number) => {
      const target = typeof uri === 'string' ? vscode.Uri.parse(uri) : (uri ?? vscode.window.activeTextEditor?.document.uri ?? agentConfigInTabs());
      if (!target || agentOfConfigPath(target.path) === undefined) {
        void vscode.window.showWarningMessage('Open a .gitlab/agents/<agent>/config.yaml to simulate its CI access.');
        return;
      }
      await simulationView.show(target, typeof line === 'number' ? line : null);
    }),
    vscode.commands.registerCommand('gitlabAgentConfig.addScenario', addScenario),
    vscode.commands.registerCommand('gitlabAgentConfig.editScenarios', editScenarios),
  );
  const clusterTarget = registerClusterFeatures(context, () => client, output);
  languageStatus = new LanguageStatus(context.extension.packageJSON, clusterTarget);
  context.subscriptions.push(languageStatus, registerWalkthroughCommands());
  registerAccessDiff(context, () => client, output);

  await startClient(context, output);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

async function startClient(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    middleware: PIPELINE_MIDDLEWARE,
    outputChannel: output,
    // Agent configs and default templates changed on disk (git checkout, another tool) re-check
    // their open sibling: the two are validated together.
    synchronize: { configurationSection: CLIENT_ID, fileEvents: vscode.workspace.createFileSystemWatcher('**/.gitlab/agents/*/{config,environment_templates/default}.{yaml,yml}') },
    // Cluster commands are refused unless the workspace is trusted (read again on restart).
    initializationOptions: () => clusterInitializationOptions(),
  };
  client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  languageStatus?.follow(client);
  try {
    await client.start();
    output.appendLine('Language server started');
  } catch (err) {
    reportFailure(output, 'start the GitLab agent config language server', err);
  }
}

/**
 * An agent configuration open in a tab, for commands run while something else has the focus (the
 * walkthrough's buttons run with the walkthrough as the active editor).
 */
function agentConfigInTabs(): vscode.Uri | undefined {
  const groups = [vscode.window.tabGroups.activeTabGroup, ...vscode.window.tabGroups.all];
  const inputs = groups.flatMap((group) => group.tabs.map((tab) => tab.input));
  return inputs.find((input): input is vscode.TabInputText => input instanceof vscode.TabInputText && agentOfConfigPath(input.uri.path) !== undefined)?.uri;
}

/** Failures are shown to the user, with the log one click away, never swallowed. */
function reportFailure(output: vscode.OutputChannel, what: string, err: unknown): void {
  const detail = err instanceof Error ? err.message : String(err);
  output.appendLine(`Failed to ${what}: ${err instanceof Error ? (err.stack ?? detail) : detail}`);
  void vscode.window.showErrorMessage(`Could not ${what}: ${detail}`, 'Show Output').then((choice) => {
    if (choice === 'Show Output') output.show(true);
  });
}
