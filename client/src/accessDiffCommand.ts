/**
 * "Compare CI Access with Branch…": reads the agent files of a chosen branch through VS Code's git
 * extension and the current ones from the editor, asks the server for the access diff (the same as
 * `agentcfg diff --base <branch>`), shows its markdown, and puts a lens on each changed entry.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ACCESS_DIFF_REQUEST, type AccessDiffFile, type AccessDiffLens, type AccessDiffParams, type AccessDiffResult } from '../../server/src/protocol';
import { sendCustomRequest } from './customRequests';

export const COMPARE_ACCESS_COMMAND = 'gitlabAgentConfig.compareAccessWithBranch';
const SHOW_ACCESS_DIFF_COMMAND = 'gitlabAgentConfig.showAccessDiff';

// The part of the built-in git extension's API (version 1, extensions/git/src/api/git.d.ts) used here.
interface GitRef {
  readonly name?: string;
  readonly remote?: string;
}
interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  getBranches(query: { remote?: boolean }): Promise<GitRef[]>;
  /** The file's text at `ref`; `path` is the file's absolute path. */
  show(ref: string, path: string): Promise<string>;
  diffWith(ref: string): Promise<GitChange[]>;
}
interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}
interface GitExtension {
  getAPI(version: 1): GitApi;
}

/** The two files GitLab reads of an agent; the client's reading of agent paths (the server's is engine/files). */
const AGENT_FILE = /(?:^|\/)\.gitlab\/agents\/[^/]+\/(?:config\.yaml|environment_templates\/default\.yaml)$/;

/** Registers the command, the lenses it leaves on changed entries, and the command those lenses run. */
export function registerAccessDiff(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, output: vscode.OutputChannel): void {
  const lenses = new AccessDiffLenses();
  let last: vscode.TextDocument | undefined;
  const showLast = async () => {
    if (last) await vscode.commands.executeCommand('markdown.showPreview', last.uri);
  };
  context.subscriptions.push(
    lenses,
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/.gitlab/agents/**' }, lenses),
    vscode.commands.registerCommand(SHOW_ACCESS_DIFF_COMMAND, showLast),
    vscode.commands.registerCommand(COMPARE_ACCESS_COMMAND, async () => {
      try {
        const compared = await compareWithBranch(client());
        if (!compared) return;
        lenses.set(compared.repository.rootUri, compared.result.lenses);
        if (!compared.result.count) {
          void vscode.window.showInformationMessage(`No CI/CD job's access changes compared with ${compared.branch}.`);
          return;
        }
        last = await vscode.workspace.openTextDocument({ content: compared.result.markdown, language: 'markdown' });
        await showLast();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        output.appendLine(`Compare CI Access with Branch failed: ${message}`);
        void vscode.window.showErrorMessage(`Could not compare CI access: ${message}`);
      }
    }),
  );
}

async function compareWithBranch(client: LanguageClient | undefined): Promise<{ repository: GitRepository; branch: string; result: AccessDiffResult } | undefined> {
  if (!client) throw new Error('the language server is not running (GitLab Agent: Restart Language Server)');
  const git = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!git) throw new Error("VS Code's built-in Git extension is disabled; it reads the branch's files");
  const api = (git.isActive ? git.exports : await git.activate()).getAPI(1);
  const active = vscode.window.activeTextEditor?.document.uri;
  const repository = (active && api.getRepository(active)) || api.repositories[0];
  if (!repository) throw new Error('no git repository is open in this window');
  const branches = await repository.getBranches({ remote: true });
  const names = [...new Set(branches.map((b) => b.name).filter((n): n is string => !!n))];
  const branch = await vscode.window.showQuickPick(names, { title: 'Compare CI Access with Branch', placeHolder: 'The branch whose agent configurations are the base (for example the target of your merge request)' });
  if (!branch) return undefined;
  const files = await agentFiles(repository, branch);
  const params: AccessDiffParams = { base: branch, rootUri: repository.rootUri.toString(), files };
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Comparing CI access with ${branch}` }, () => sendCustomRequest(client, ACCESS_DIFF_REQUEST, params));
  return { repository, branch, result };
}

/** Every agent file of the work tree, plus those the branch has and the work tree lost, in both versions. */
async function agentFiles(repository: GitRepository, branch: string): Promise<AccessDiffFile[]> {
  const root = repository.rootUri;
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(root, '**/.gitlab/agents/*/{config.yaml,environment_templates/default.yaml}'), '**/node_modules/**');
  const changed = await repository.diffWith(branch);
  const relative = (uri: vscode.Uri) => uri.path.slice(root.path.replace(/\/$/, '').length + 1);
  const paths = [...new Set([...found.map(relative), ...changed.flatMap((c) => [relative(c.uri), relative(c.originalUri)])])].filter((p) => AGENT_FILE.test(p)).sort();
  return Promise.all(
    paths.map(async (path) => {
      const uri = vscode.Uri.joinPath(root, path);
      const before = await repository.show(branch, uri.fsPath).catch(() => null);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const after = open ? open.getText() : await vscode.workspace.fs.readFile(uri).then((bytes) => new TextDecoder().decode(bytes), () => null);
      return { path, before, after };
    }),
  );
}

/** The lenses of the last comparison, per file; a file's lenses go when it is edited (their lines would drift). */
class AccessDiffLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private byFile = new Map<string, AccessDiffLens[]>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly editing = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.contentChanges.length && this.byFile.delete(e.document.uri.toString())) this.changed.fire();
  });

  set(root: vscode.Uri, lenses: readonly AccessDiffLens[]): void {
    this.byFile = new Map();
    for (const lens of lenses) {
      const key = vscode.Uri.joinPath(root, lens.path).toString();
      this.byFile.set(key, [...(this.byFile.get(key) ?? []), lens]);
    }
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return (this.byFile.get(document.uri.toString()) ?? []).map((l) => new vscode.CodeLens(new vscode.Range(l.line, 0, l.line, 0), { title: l.title, command: SHOW_ACCESS_DIFF_COMMAND }));
  }

  dispose(): void {
    this.editing.dispose();
    this.changed.dispose();
  }
}
