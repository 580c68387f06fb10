import * as vscode from 'vscode';
import type { EnvironmentScenarioArgs, ScenarioSetting } from '../../../server/src/protocol';
import { agentOfPath } from '../documentSelector';

const BUILT_IN = 'built-in';

/** The template to render: a workspace file, or GitLab's built-in default for an agent. */
export interface TemplateChoice {
  readonly agentName: string;
  /** Absent: the built-in default template (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#built-in-default-template). */
  readonly uri?: vscode.Uri;
  readonly label: string;
}

function agentOf(uri: vscode.Uri | undefined): string | undefined {
  return uri ? agentOfPath(uri.path) : undefined;
}

/**
 * Asks which template to apply. Offers every agent's `environment_templates/default.yaml` (GitLab
 * reads only `default`, docs/gitlab-behaviour.md#environment-template-file), and the built-in default for agents without one; the current
 * editor's agent comes first.
 */
export async function pickTemplate(): Promise<TemplateChoice | undefined> {
  const current = agentOf(vscode.window.activeTextEditor?.document.uri);
  const [templates, configs] = await Promise.all([
    vscode.workspace.findFiles('**/.gitlab/agents/*/environment_templates/default.{yaml,yml}', '**/node_modules/**'),
    vscode.workspace.findFiles('**/.gitlab/agents/*/config.{yaml,yml}', '**/node_modules/**'),
  ]);
  const choices: TemplateChoice[] = templates.map((uri) => ({ agentName: agentOf(uri)!, uri, label: vscode.workspace.asRelativePath(uri) }));
  const withTemplate = new Set(choices.map((c) => c.agentName));
  const agents = new Set([...configs.map((u) => agentOf(u)!), ...(current ? [current] : [])]);
  for (const agent of agents) {
    if (!withTemplate.has(agent)) choices.push({ agentName: agent, label: `GitLab's built-in default template (agent ${agent} has no default.yaml)` });
  }
  if (choices.length === 0) {
    const agent = await vscode.window.showInputBox({ title: 'Apply environment', prompt: 'No agent found in this workspace. Agent name for the built-in default template' });
    return agent?.trim() ? { agentName: agent.trim(), label: BUILT_IN } : undefined;
  }
  choices.sort((a, b) => Number(b.agentName === current) - Number(a.agentName === current));
  // Working in an agent's folder says which agent: its template is taken without asking.
  if (choices.length === 1 || (current && choices[0].agentName === current)) return choices[0];
  const pick = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.label, description: `agent ${c.agentName}`, choice: c })),
    { title: 'Apply environment: template' },
  );
  return pick?.choice;
}

/** The server's active scenarios (its order), only those with an environment: GitLab renders templates only for jobs that have one (docs/gitlab-behaviour.md#opting-in-to-managed-resources). */
export async function pickScenario(active: readonly ScenarioSetting[], memory: vscode.Memento): Promise<ScenarioSetting | undefined> {
  const scenarios = active.filter((s) => s.environmentName);
  if (scenarios.length === 0) {
    void vscode.window.showWarningMessage('No CI scenario has an environment: add one with "GitLab Agent: Add CI Scenario" (environment templates are rendered only for jobs with an environment).');
    return undefined;
  }
  if (scenarios.length === 1) return scenarios[0];
  // The workspace may say which one Apply renders (npm start does for the example): then nothing is asked.
  const named = vscode.workspace.getConfiguration('gitlabAgentConfig.cluster').get<string>('applyScenario', '').trim();
  const chosen = named ? scenarios.find((s) => s.name === named) : undefined;
  if (chosen) return chosen;
  // The scenario applied last comes first: applying the same environment again is one Enter.
  const last = memory.get<string>(LAST_SCENARIO_KEY);
  const ordered = [...scenarios].sort((a, b) => Number(b.name === last) - Number(a.name === last));
  const pick = await vscode.window.showQuickPick(
    ordered.map((s) => ({ label: s.name, description: `environment ${s.environmentName} · ref ${s.ref}${s.name === last ? ' · last applied' : ''}`, scenario: s })),
    { title: 'Apply environment: CI scenario', ...(named ? { placeholder: `No scenario "${named}" (setting gitlabAgentConfig.cluster.applyScenario) has an environment; pick one` } : {}) },
  );
  if (pick) await memory.update(LAST_SCENARIO_KEY, pick.scenario.name);
  return pick?.scenario;
}

const LAST_SCENARIO_KEY = 'gitlabAgentConfig.apply.lastScenario';
const rememberedKey = (what: string, of: string) => `gitlabAgentConfig.apply.${what}:${of}`;

/**
 * A value from the settings, else remembered for this workspace, else asked once (and remembered):
 * ids GitLab knows but the files do not.
 */
async function knownOrAsked<T extends string | number>(memory: vscode.Memento, key: string, fromSettings: T | undefined, ask: () => Promise<T | undefined>): Promise<T | undefined> {
  if (fromSettings) return fromSettings;
  const remembered = memory.get<T>(key);
  if (remembered) return remembered;
  const asked = await ask();
  if (asked) await memory.update(key, asked);
  return asked;
}

/** The project path of the workspace's git remote `origin` (`git@host:acme/shop.git` → `acme/shop`), read from `.git/config`: the project this workspace is. */
async function projectPathFromGitRemote(): Promise<string | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.git', 'config')));
      const origin = /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(text)?.[1];
      const path = origin && /^(?:[a-z+]+:\/\/[^/]+\/|[^@/]+@[^:]+:)(.+?)(?:\.git)?\/?$/.exec(origin)?.[1];
      if (path) return path;
    } catch {
      // No git repository here: the path is asked for.
    }
  }
  return undefined;
}

/**
 * The ids GitLab would put in the template data (`.agent.id`, `.project.id`, `.project.path`): from
 * the settings, else what this workspace remembers, else read or asked once. The project path is
 * the scenario's, `cluster.projectPath`, or the project whose pipeline the workspace holds
 * (`pipelineProjectPath`), else the git remote's (the project this workspace is); the numeric ids
 * are in no file, so they are asked when no setting gives them.
 */
export async function scenarioArgs(template: TemplateChoice, scenario: ScenarioSetting, memory: vscode.Memento): Promise<EnvironmentScenarioArgs | undefined> {
  const settings = vscode.workspace.getConfiguration('gitlabAgentConfig');
  const cluster = vscode.workspace.getConfiguration('gitlabAgentConfig.cluster');
  const agentId = await knownOrAsked(memory, rememberedKey('agentId', template.agentName), cluster.get<number>('agentId', 0), () => askNumber(`Numeric id of agent ${template.agentName} (.agent.id; asked once for this workspace)`));
  if (agentId === undefined) return undefined;
  // Read, not remembered: a changed setting or remote is followed.
  const known = scenario.projectPath || cluster.get<string>('projectPath', '').trim() || settings.get<string>('pipelineProjectPath', '').trim() || (await projectPathFromGitRemote());
  const projectPath = await knownOrAsked(memory, rememberedKey('projectPath', template.agentName), known, async () => {
    return (
      await vscode.window.showInputBox({
        title: 'Apply environment',
        prompt: 'Full path of the CI project (.project.path), e.g. acme/shop/app; asked once for this workspace',
        validateInput: (v) => (v.trim() ? null : 'Required'),
      })
    )?.trim();
  });
  if (!projectPath) return undefined;
  const projectId = await knownOrAsked(memory, rememberedKey('projectId', projectPath), cluster.get<number>('projectId', 0), () => askNumber(`Numeric id of project ${projectPath} (.project.id; asked once for this workspace)`));
  if (projectId === undefined) return undefined;
  const agentProjectPath = settings.get<string>('configProjectPath', '').trim();
  return {
    agentName: template.agentName,
    agentId,
    projectId,
    projectPath,
    environmentName: scenario.environmentName!,
    scenarioName: scenario.name,
    ref: scenario.ref,
    ...(scenario.environmentTier ? { environmentTier: scenario.environmentTier } : {}),
    ...(scenario.userLogin ? { userLogin: scenario.userLogin } : {}),
    ...(agentProjectPath ? { agentProjectPath } : {}),
  };
}

async function askNumber(prompt: string): Promise<number | undefined> {
  const value = await vscode.window.showInputBox({
    title: 'Apply environment',
    prompt,
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) > 0 ? null : 'A positive whole number'),
  });
  return value === undefined ? undefined : Number(value.trim());
}
