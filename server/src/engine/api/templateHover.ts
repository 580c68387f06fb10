import { managedEntries, PLACEHOLDER_AGENT_ID, PLACEHOLDER_PROJECT_ID, templateRenderings } from '../crossFile/agentFiles';
import { templateHover, type TemplateHover } from '../template/templateHover';
import { activeScenarios, type ProjectSettings } from '../settings/projectSettings';
import type { AgentSiblings } from './siblings';

/**
 * The hover of an agent's environment template at `offset`, rendered for the same scenarios and
 * projects as the pair's checks (checkAgentFile), so what the hover shows is what they check.
 */
export function explainTemplateAt(text: string, offset: number, agentName: string, settings: ProjectSettings, siblings: AgentSiblings): TemplateHover | null {
  const config = siblings.config();
  const scenarios = activeScenarios(settings);
  const renderings = templateRenderings({ agentName, scenarios, defaultBranch: settings.defaultBranch }, managedEntries({ config: config?.parsed ?? null, ...(config ? { ciAccess: config.ciAccess } : {}) }) ?? []);
  const projects = [...new Set(renderings.map((r) => r.projectPath))];
  const withoutEnvironment = scenarios.filter((s) => !s.environmentName).map((s) => s.name);
  const footnotes = [
    `Project ${projects.length === 1 ? `\`${projects[0]}\`` : 'per row'}; ids assumed: project ${PLACEHOLDER_PROJECT_ID}, agent ${PLACEHOLDER_AGENT_ID}.`,
    ...(withoutEnvironment.length ? [`Not rendered for ${withoutEnvironment.join(', ')}: GitLab renders the template only for jobs with an environment.`] : []),
  ];
  return templateHover({
    text,
    offset,
    renderings: renderings.map((r) => ({ label: projects.length > 1 ? `${r.job.name} (${r.projectPath})` : r.job.name, data: r.data })),
    footnotes,
  });
}
