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
  if (choices.length === 1) return choices[0];
  const pick = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.label, description: `agent ${c.agentName}`, choice: c })),
    { title: 'Apply environment (1/2): template' },
  );
  return pick?.choice;
}

/** The server's active scenarios (its order), only those with an environment: GitLab renders templates only for jobs that have one (docs/gitlab-behaviour.md#opting-in-to-managed-resources). */
export async function pickScenario(active: readonly ScenarioSetting[]): Promise<ScenarioSetting | undefined> {
  const scenarios = active.filter((s) => s.environmentName);
  if (scenarios.length === 0) {
    void vscode.window.showWarningMessage('No CI scenario has an environment: add one with "GitLab Agent: Add CI Scenario" (environment templates are rendered only for jobs with an environment).');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    scenarios.map((s) => ({ label: s.name, description: `environment ${s.environmentName} · ref ${s.ref}`, scenario: s })),
    { title: 'Apply environment (2/2): CI scenario' },
  );
  return pick?.scenario;
}

/**
 * The ids GitLab would put in the template data (`.agent.id`, `.project.id`, `.project.path`): from
 * the `gitlabAgentConfig.cluster.*` settings, asked for when unset.
 */
export async function scenarioArgs(template: TemplateChoice, scenario: ScenarioSetting): Promise<EnvironmentScenarioArgs | undefined> {
  const settings = vscode.workspace.getConfiguration('gitlabAgentConfig');
  const cluster = vscode.workspace.getConfiguration('gitlabAgentConfig.cluster');
  const agentId = cluster.get<number>('agentId', 0) || (await askNumber('Numeric id of the agent (.agent.id)', 'gitlabAgentConfig.cluster.agentId'));
  if (agentId === undefined) return undefined;
  const projectId = cluster.get<number>('projectId', 0) || (await askNumber('Numeric id of the CI project (.project.id)', 'gitlabAgentConfig.cluster.projectId'));
  if (projectId === undefined) return undefined;
  const projectPath =
    scenario.projectPath ||
    cluster.get<string>('projectPath', '').trim() ||
    (await vscode.window.showInputBox({ title: 'Apply environment', prompt: 'Full path of the CI project (.project.path), e.g. acme/shop/app', validateInput: (v) => (v.trim() ? null : 'Required') }))?.trim();
  if (!projectPath) return undefined;
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

async function askNumber(prompt: string, setting: string): Promise<number | undefined> {
  const value = await vscode.window.showInputBox({
    title: 'Apply environment',
    prompt: `${prompt}. Set ${setting} to stop being asked.`,
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) > 0 ? null : 'A positive whole number'),
  });
  return value === undefined ? undefined : Number(value.trim());
}
