import { PLACEHOLDER_AGENT_ID, PLACEHOLDER_PROJECT_ID } from '../crossFile/agentFiles';
import { asRecord } from '../data';
import { DEFAULT_ENVIRONMENT_TEMPLATE } from '../template/defaultTemplate';
import { renderEnvironmentTemplate } from '../template/renderTemplate';
import { buildTemplateData } from '../template/templateVariables';
import type { Scenario } from '../vars/scenario';

/**
 * What a managed environment creates for a job, one line per object: `Kind namespace/name`, and for
 * role bindings the subjects and role they bind (`→ Group gitlab:project_env:… as ClusterRole admin`).
 * Enough to see a renamed namespace or a binding that now reaches other subjects, small enough for a table cell.
 */
export type ObjectSummary = readonly string[];

/**
 * Renders objects of environment templates for scenarios, each distinct (template, project,
 * environment) once: a diff asks for the same rendering for every scenario sharing an environment.
 */
export class TemplateObjects {
  private readonly cache = new Map<string, ObjectSummary>();

  /** The objects `templateText` (null: GitLab's built-in template) creates for a job of `scenario` with agent `agentName`. */
  objects(templateText: string | null, scenario: Scenario, agentName: string): ObjectSummary {
    const text = templateText ?? DEFAULT_ENVIRONMENT_TEMPLATE;
    const key = JSON.stringify([text, agentName, scenario.projectPath, scenario.environmentName, scenario.environmentTier ?? null, scenario.userLogin ?? null]);
    let summary = this.cache.get(key);
    if (!summary) this.cache.set(key, (summary = this.render(text, scenario, agentName)));
    return summary;
  }

  private render(text: string, scenario: Scenario, agentName: string): ObjectSummary {
    const data = buildTemplateData(scenario, { agentId: PLACEHOLDER_AGENT_ID, agentName, projectId: PLACEHOLDER_PROJECT_ID });
    if (!data.ok) return [];
    const rendered = renderEnvironmentTemplate(text, data.data);
    if (!rendered.ok) return [`rendering fails: ${rendered.errors[0]?.message ?? 'unknown error'}`];
    return rendered.objects.map(describeObject);
  }
}

/** `Kind namespace/name`, plus what a (Cluster)RoleBinding binds. */
function describeObject(object: unknown): string {
  const data = asRecord(object);
  const metadata = asRecord(data?.metadata);
  const kind = typeof data?.kind === 'string' ? data.kind : '(no kind)';
  const name = typeof metadata?.name === 'string' ? metadata.name : '(no name)';
  const namespace = typeof metadata?.namespace === 'string' ? `${metadata.namespace}/` : '';
  let text = `${kind} ${namespace}${name}`;
  if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') {
    const subjects = (Array.isArray(data?.subjects) ? data.subjects : []).map(asRecord).map((s) => `${String(s?.kind ?? '?')} ${String(s?.name ?? '?')}`);
    const role = asRecord(data?.roleRef);
    text += ` → ${subjects.join(', ') || 'no subjects'} as ${String(role?.kind ?? '?')} ${String(role?.name ?? '?')}`;
  }
  return text;
}
