/**
 * GitLab's labels and annotation on every managed object (docs/gitlab-behaviour.md#managed-object-labels-and-annotation), so what we create looks like
 * what the agent creates, plus the names of the environment's inventory.
 */
import type { EnvironmentTemplateData } from '../../engine/api';

/** The identity suffix `<env_slug>-<project_id>-<agent_id>` (docs/gitlab-behaviour.md#managed-object-labels-and-annotation). */
export function environmentKey(data: EnvironmentTemplateData): string {
  return `${data.environment.slug}-${data.project.id}-${data.agent.id}`;
}

/** Labels of docs/gitlab-behaviour.md#managed-object-labels-and-annotation (all with empty values). */
export function gitlabLabels(data: EnvironmentTemplateData): Record<string, string> {
  return {
    [`agent.gitlab.com/id-${data.agent.id}`]: '',
    [`agent.gitlab.com/project_id-${data.project.id}`]: '',
    [`agent.gitlab.com/env-${environmentKey(data)}`]: '',
    [`agent.gitlab.com/environment_slug-${data.environment.slug}`]: '',
  };
}

/**
 * The annotation of docs/gitlab-behaviour.md#managed-object-labels-and-annotation: key `agent.gitlab.com/env-<slug>-<project_id>-<agent_id>`, value a
 * JSON object with the documented keys in the documented order; ids as JSON numbers and
 * `environment_url` left out when empty (it is the one optional key; our choice).
 */
export function gitlabAnnotations(data: EnvironmentTemplateData, templateName: string): Record<string, string> {
  const value = {
    environment_id: data.environment.id,
    environment_name: data.environment.name,
    environment_slug: data.environment.slug,
    ...(data.environment.url ? { environment_url: data.environment.url } : {}),
    environment_page_url: data.environment.page_url,
    environment_tier: data.environment.tier,
    agent_id: data.agent.id,
    agent_name: data.agent.name,
    agent_url: data.agent.url,
    project_id: data.project.id,
    project_slug: data.project.slug,
    project_path: data.project.path,
    project_url: data.project.url,
    template_name: templateName,
  };
  return { [`agent.gitlab.com/env-${environmentKey(data)}`]: JSON.stringify(value) };
}

/**
 * Annotation on an environment's inventory ConfigMap: the template's `delete_resources` when it was
 * last applied. Rails stores it with the environment at that moment (docs/gitlab-behaviour.md#environment-template-file) and deletes by it;
 * this is where we keep it, so that a deletion that knows only the inventory (the editor's tree)
 * still refuses `never`.
 */
export const DELETE_RESOURCES_ANNOTATION = 'gitlab-agent-config/delete-resources';

/** The namespace the agent runs in, where inventories go unless told otherwise (our choice). */
export const DEFAULT_AGENT_NAMESPACE = 'gitlab-agent';

/** How every environment inventory's name starts. */
export const ENVIRONMENT_INVENTORY_PREFIX = 'gitlab-env-';

/** Name (and id) of an environment's inventory ConfigMap: `gitlab-env-<slug>-<project_id>-<agent_id>` (our choice: GitLab does not document its name). */
export function environmentInventoryName(data: EnvironmentTemplateData): string {
  return `${ENVIRONMENT_INVENTORY_PREFIX}${environmentKey(data)}`;
}

/** Whether an inventory name is an environment's ({@link environmentInventoryName}): environment commands touch no other. */
export function isEnvironmentInventoryName(name: string): boolean {
  return name.startsWith(ENVIRONMENT_INVENTORY_PREFIX) && name.length > ENVIRONMENT_INVENTORY_PREFIX.length;
}
