/**
 * GitLab's three steps of docs/gitlab-behaviour.md#managed-resources-flow, the first two here (pure): get the template (the repository's
 * `default.yaml`, or the built-in default when it is absent, docs/gitlab-behaviour.md#environment-template-file) and render it for a scenario
 * (docs/gitlab-behaviour.md#template-variables-and-functions); then the objects to apply and the environment's inventory. planApply/executeApply do
 * the third step, ensuring them on the cluster.
 */
import { buildTemplateData, DEFAULT_ENVIRONMENT_TEMPLATE, renderEnvironmentTemplate, type EngineDiagnostic, type EnvironmentTemplateData, type RenderedEnvironmentTemplate, type Scenario, type TemplateIds } from '../../engine/api';
import type { Inventory } from '../inventory/configMap';
import { desiredObjects, type DesiredObject, type ObjectProblem } from './desiredObjects';
import { DEFAULT_AGENT_NAMESPACE, DELETE_RESOURCES_ANNOTATION, environmentInventoryName, gitlabAnnotations, gitlabLabels } from './gitlabMetadata';

/** What to render and where the inventory goes. */
export interface EnvironmentInput {
  /** Text of `environment_templates/default.yaml`; undefined → GitLab's built-in default template. */
  readonly templateText?: string;
  /** Default `default` (GitLab's only template name). */
  readonly templateName?: string;
  readonly scenario: Scenario;
  readonly ids: TemplateIds;
  /** Namespace of the agent, home of the inventory ConfigMap; default `gitlab-agent`. */
  readonly agentNamespace?: string;
}

/** A rendered environment, ready to plan. */
export interface PreparedEnvironment {
  readonly data: EnvironmentTemplateData;
  readonly templateName: string;
  readonly usedDefaultTemplate: boolean;
  readonly rendered: RenderedEnvironmentTemplate;
  readonly objects: readonly DesiredObject[];
  /** Objects that cannot be applied (unsupported kind, no namespace…): nothing is applied while any exists. */
  readonly problems: readonly ObjectProblem[];
  /** Where the environment's inventory lives (objects: the desired ones). */
  readonly inventory: Inventory;
  /**
   * The inventory ConfigMap's labels and annotations: GitLab's (docs/gitlab-behaviour.md#managed-object-labels-and-annotation), so environments can be found, and
   * the deletion strategy ({@link DELETE_RESOURCES_ANNOTATION}).
   */
  readonly inventoryLabels: Readonly<Record<string, string>>;
  readonly inventoryAnnotations: Readonly<Record<string, string>>;
  /** `delete_resources` as GitLab stores it (raw template), `on_stop` when absent. */
  readonly deleteResources: string;
}

/** Outcome of {@link prepareEnvironment}: template errors keep their line/column in the template. */
export type PrepareResult =
  | { readonly ok: true; readonly environment: PreparedEnvironment }
  | { readonly ok: false; readonly stage: 'data'; readonly message: string }
  | { readonly ok: false; readonly stage: 'render'; readonly errors: readonly EngineDiagnostic[]; readonly usedDefaultTemplate: boolean };

/** Renders the template for the scenario and decorates the objects (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#template-variables-and-functions, docs/gitlab-behaviour.md#managed-object-labels-and-annotation, docs/gitlab-behaviour.md#inventories). */
export function prepareEnvironment(input: EnvironmentInput): PrepareResult {
  const built = buildTemplateData(input.scenario, input.ids);
  if (!built.ok) return { ok: false, stage: 'data', message: built.message };
  const data = built.data;
  const usedDefaultTemplate = input.templateText === undefined;
  const templateName = input.templateName ?? 'default';
  const rendered = renderEnvironmentTemplate(input.templateText ?? DEFAULT_ENVIRONMENT_TEMPLATE, data, { name: templateName });
  if (!rendered.ok) return { ok: false, stage: 'render', errors: rendered.errors, usedDefaultTemplate };
  const name = environmentInventoryName(data);
  const deleteResources = rendered.deleteResources ?? 'on_stop';
  const { objects, problems } = desiredObjects(rendered.objects, { data, templateName, inventoryId: name });
  return {
    ok: true,
    environment: {
      data,
      templateName,
      usedDefaultTemplate,
      rendered,
      objects,
      problems,
      inventory: { name, namespace: input.agentNamespace ?? DEFAULT_AGENT_NAMESPACE, objects: objects.map((o) => o.ref) },
      inventoryLabels: gitlabLabels(data),
      inventoryAnnotations: { ...gitlabAnnotations(data, templateName), [DELETE_RESOURCES_ANNOTATION]: deleteResources },
      deleteResources,
    },
  };
}
