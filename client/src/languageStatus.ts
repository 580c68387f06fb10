/**
 * "Where do I stand" for agent files: language status items (the `{}` beside the language mode)
 * with the compatibility target and the GitLab version (one click to switch each), the language
 * server's state and the cluster context. The server reads the settings; this only shows and
 * writes them.
 */
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { LANGUAGE_ID } from './documentSelector';
import { SELECT_CONTEXT_COMMAND, type ClusterTargetSelection } from './cluster/clusterTarget';

const SECTION = 'gitlabAgentConfig';
export const SELECT_TARGET_COMMAND = 'gitlabAgentConfig.selectTarget';
export const SELECT_GITLAB_VERSION_COMMAND = 'gitlabAgentConfig.selectGitlabVersion';
/** True while the active editor shows an agent file: package.json's walkthrough completes its first step on it. */
const AGENT_FILE_ACTIVE_CONTEXT = 'gitlabAgentConfig.agentFileActive';

/** Agent configurations and templates, also when a user mapped them back to `yaml`; not `.gitlab-ci.yml`. */
const AGENT_FILES: vscode.DocumentSelector = [
  { language: LANGUAGE_ID },
  { pattern: '**/.gitlab/agents/*/config.{yaml,yml}' },
  { pattern: '**/.gitlab/agents/*/environment_templates/*.{yaml,yml}' },
];

/** One setting as package.json declares it: the quick picks offer exactly its enum. */
interface SettingDeclaration {
  enum: string[];
  enumDescriptions?: string[];
  default: string;
}

export class LanguageStatus implements vscode.Disposable {
  // VS Code lists a language's status items sorted by id: the numbers keep target and version first.
  private readonly target = vscode.languages.createLanguageStatusItem('gitlabAgentConfig.status.1.target', AGENT_FILES);
  private readonly version = vscode.languages.createLanguageStatusItem('gitlabAgentConfig.status.2.gitlabVersion', AGENT_FILES);
  private readonly server = vscode.languages.createLanguageStatusItem('gitlabAgentConfig.status.3.server', AGENT_FILES);
  private readonly cluster = vscode.languages.createLanguageStatusItem('gitlabAgentConfig.status.4.cluster', AGENT_FILES);
  private readonly disposables: vscode.Disposable[] = [];
  private clientState: vscode.Disposable | undefined;

  constructor(
    private readonly manifest: { contributes: { configuration: { properties: Record<string, SettingDeclaration> } } },
    private readonly clusterTarget: ClusterTargetSelection,
  ) {
    this.target.name = 'GitLab Agent: compatibility target';
    this.target.command = { title: 'Switch', command: SELECT_TARGET_COMMAND, tooltip: 'Validate for GitLab as it ships, or with the proposed rules design' };
    this.version.name = 'GitLab Agent: GitLab version';
    this.version.command = { title: 'Switch', command: SELECT_GITLAB_VERSION_COMMAND, tooltip: 'The GitLab release your instance runs' };
    this.server.name = 'GitLab Agent: language server';
    this.cluster.name = 'GitLab Agent: cluster context';
    this.cluster.command = { title: 'Select', command: SELECT_CONTEXT_COMMAND, tooltip: 'The kubeconfig context cluster operations use' };
    this.disposables.push(
      vscode.commands.registerCommand(SELECT_TARGET_COMMAND, () => this.pick('target', 'Compatibility target for validation')),
      vscode.commands.registerCommand(SELECT_GITLAB_VERSION_COMMAND, () => this.pick('gitlabVersion', 'The GitLab release your instance runs')),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.target`) || e.affectsConfiguration(`${SECTION}.gitlabVersion`)) this.renderSettings();
      }),
      clusterTarget.onDidChange(() => this.renderCluster()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.renderCluster()),
      vscode.window.onDidChangeActiveTextEditor((editor) => setAgentFileActive(editor)),
    );
    setAgentFileActive(vscode.window.activeTextEditor);
    this.renderSettings();
    this.renderServer(State.Starting);
    this.renderCluster();
  }

  /** Follows a (new) client's state: called once the client exists, before it starts. */
  follow(client: LanguageClient): void {
    this.clientState?.dispose();
    this.clientState = client.onDidChangeState(({ newState }) => this.renderServer(newState));
    this.renderServer(client.state);
  }

  private declaration(key: string): SettingDeclaration {
    return this.manifest.contributes.configuration.properties[`${SECTION}.${key}`];
  }

  private renderSettings(): void {
    const config = vscode.workspace.getConfiguration(SECTION);
    const target = config.get<string>('target', this.declaration('target').default);
    this.target.text = target === 'gitlab' ? 'Target: GitLab' : `Target: ${target}`;
    this.target.detail = target === 'gitlab' ? 'exactly what GitLab ships' : 'accepts the proposed rules, which GitLab rejects';
    this.version.text = `GitLab ${config.get<string>('gitlabVersion', this.declaration('gitlabVersion').default)}`;
    this.version.detail = 'files are checked as this release reads them';
  }

  /**
   * The client stops for good on its own only when the server crashed more often than it restarts it,
   * or failed to start; a restart asked for passes through Stopped to Starting at once. So a
   * Stopped state that stays is a crash, and its one action is to restart.
   */
  private renderServer(state: State): void {
    this.server.busy = state === State.Starting;
    if (state === State.Running) {
      this.server.text = 'Server ready';
      this.server.severity = vscode.LanguageStatusSeverity.Information;
      this.server.detail = undefined;
      this.server.command = { title: 'Show Output', command: 'gitlabAgentConfig.showOutput' };
    } else if (state === State.Starting) {
      this.server.text = 'Server starting';
      this.server.severity = vscode.LanguageStatusSeverity.Information;
      this.server.detail = undefined;
      this.server.command = { title: 'Show Output', command: 'gitlabAgentConfig.showOutput' };
    } else {
      this.server.text = 'Server crashed';
      this.server.severity = vscode.LanguageStatusSeverity.Error;
      this.server.detail = 'no checks until it runs again; the output says why';
      this.server.command = { title: 'Restart', command: 'gitlabAgentConfig.restartServer' };
    }
  }

  private renderCluster(): void {
    if (!vscode.workspace.isTrusted) {
      this.cluster.text = 'Cluster: untrusted workspace';
      this.cluster.detail = 'cluster operations are disabled';
      return;
    }
    const context = this.clusterTarget.effectiveContext;
    this.cluster.text = `$(server-environment) ${context ?? 'No cluster context'}`;
    this.cluster.detail = context ? 'cluster context' : undefined;
  }

  /** A quick pick of the setting's values; the choice is written where the setting already lives. */
  private async pick(key: 'target' | 'gitlabVersion', title: string): Promise<void> {
    const declaration = this.declaration(key);
    const config = vscode.workspace.getConfiguration(SECTION);
    const current = config.get<string>(key, declaration.default);
    const items = declaration.enum.map((value, i) => ({
      label: value,
      description: [value === current ? 'current' : '', value === declaration.default ? 'default' : ''].filter(Boolean).join(' · '),
      detail: declaration.enumDescriptions?.[i],
    }));
    const choice = await pickOne(items, items.find((i) => i.label === current), title, `${SECTION}.${key}`);
    if (!choice || choice.label === current) return;
    await config.update(key, choice.label, writeTarget(config.inspect(key)));
  }

  dispose(): void {
    this.clientState?.dispose();
    for (const d of [this.target, this.version, this.server, this.cluster, ...this.disposables]) d.dispose();
  }
}

/**
 * Whether the active editor shows an agent file: the walkthrough's first step is done when it turns
 * true. A global context key, because `editorLangId` and `resourceLangId` live in each editor's own
 * context, which the walkthrough does not see; and one that turns false again, because the
 * walkthrough only counts a change (opening the walkthrough itself makes it false). A change is all
 * it counts: when the key is already true as the walkthrough is first loaded, it never fires, so
 * the step's own button completes it too (walkthrough.ts).
 */
function setAgentFileActive(editor: vscode.TextEditor | undefined): void {
  void vscode.commands.executeCommand('setContext', AGENT_FILE_ACTIVE_CONTEXT, editor !== undefined && vscode.languages.match(AGENT_FILES, editor.document) > 0);
}

/** showQuickPick cannot start on an item: the current value is focused, so Enter keeps it. */
function pickOne<T extends vscode.QuickPickItem>(items: T[], active: T | undefined, title: string, placeholder: string): Promise<T | undefined> {
  const quickPick = vscode.window.createQuickPick<T>();
  quickPick.title = title;
  quickPick.placeholder = placeholder;
  quickPick.items = items;
  if (active) quickPick.activeItems = [active];
  return new Promise((resolve) => {
    quickPick.onDidAccept(() => {
      resolve(quickPick.selectedItems[0]);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
}

/**
 * Where a switched setting is written: where it is already set (workspace before user, as VS Code
 * reads them), else the workspace, so a choice for this project does not leak into the others.
 */
function writeTarget(inspected: { workspaceValue?: unknown; globalValue?: unknown } | undefined): vscode.ConfigurationTarget {
  if (inspected?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  if (inspected?.globalValue !== undefined || !vscode.workspace.workspaceFolders) return vscode.ConfigurationTarget.Global;
  return vscode.ConfigurationTarget.Workspace;
}
