/**
 * The data an environment template is rendered with (docs/gitlab-behaviour.md#template-variables-and-functions): what Rails sends KAS as
 * `TemplatingInfo`, built here from a CI scenario plus the ids a scenario does not carry.
 */
import { guessEnvironmentTier } from '../vars/environment-tier';
import type { Scenario } from '../vars/scenario';
import { environmentSlug } from '../vars/slug';
import { GITLAB_FUNCTION_NAMES, GO_BUILTIN_NAMES } from './render/functions';

export { GITLAB_FUNCTION_DOCS, GITLAB_FUNCTION_NAMES, GO_BUILTIN_NAMES, type GitLabFunctionDoc } from './render/functions';

/** Every function name a template may call: GitLab's functions, then Go's builtins. */
export const TEMPLATE_FUNCTION_NAMES: readonly string[] = [...GITLAB_FUNCTION_NAMES, ...GO_BUILTIN_NAMES];

/** The template data of docs/gitlab-behaviour.md#template-variables-and-functions, keyed as templates read it (`.project.slug`). */
export interface EnvironmentTemplateData {
  readonly agent: { readonly id: number; readonly name: string; readonly url: string };
  readonly environment: {
    readonly id: number;
    readonly name: string;
    readonly slug: string;
    readonly url: string;
    readonly page_url: string;
    readonly tier: string;
  };
  readonly project: { readonly id: number; readonly slug: string; readonly path: string; readonly url: string };
  readonly ci_pipeline: { readonly id: number };
  readonly ci_job: { readonly id: number };
  readonly user: { readonly id: number; readonly username: string };
  readonly legacy_namespace: string;
}

/** What a scenario does not say but the template data needs. */
export interface TemplateIds {
  readonly agentId: number;
  readonly agentName: string;
  /** Full path of the agent's configuration project (for `.agent.url`); default: the scenario's project. */
  readonly agentProjectPath?: string;
  /** Overrides the scenario's `projectId`. */
  readonly projectId?: number;
  /** Default 0 (only `.environment.id` and `.environment.page_url` use it). */
  readonly environmentId?: number;
  /** Default 0, GitLab's own default when unset (docs/gitlab-behaviour.md#template-variables-and-functions). */
  readonly pipelineId?: number;
  /** Default 0, GitLab's own default when unset (docs/gitlab-behaviour.md#template-variables-and-functions). */
  readonly jobId?: number;
  /** Default 0. */
  readonly userId?: number;
  /** Base URL of the GitLab instance; default `https://gitlab.com`. */
  readonly gitlabUrl?: string;
}

/** Outcome of {@link buildTemplateData}. */
export type TemplateDataResult =
  | { readonly ok: true; readonly data: EnvironmentTemplateData }
  | { readonly ok: false; readonly reason: 'noEnvironment' | 'noProjectId'; readonly message: string };

/** `NamespaceSanitizer.sanitize` (docs/gitlab-behaviour.md#legacy-namespace): every character outside `[-a-z0-9]` → `-`, leading dashes removed. */
export function sanitizeNamespace(name: string): string {
  return name.replace(/[^-a-z0-9]/gu, '-').replace(/^-+/, '');
}

/** Kubernetes' namespace length limit, which the legacy derivation fits the name into. */
const NAMESPACE_MAX_LENGTH = 63;

/**
 * `.legacy_namespace` — the namespace the certificate-based integration would have used, project-namespace
 * branch with one namespace per environment (docs/gitlab-behaviour.md#legacy-namespace): suffix `-<project id>-<environment slug>`, prefix
 * the sanitized lower-cased project path (its last component) cut to `63 - suffix length`, and the whole
 * sanitized again. `My_App`, 42, `review-feature-x-bjrazc` → `my-app-42-review-feature-x-bjrazc`.
 */
export function legacyNamespace(projectPathComponent: string, projectId: number, envSlug: string): string {
  const suffix = `-${projectId}-${envSlug}`;
  const prefix = Array.from(sanitizeNamespace(projectPathComponent.toLowerCase()))
    .slice(0, Math.max(0, NAMESPACE_MAX_LENGTH - suffix.length))
    .join('');
  return sanitizeNamespace(prefix + suffix);
}

function toId(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) ? n : undefined;
}

/**
 * Builds the template data for a job of `scenario`. Like Rails, which only renders for a job with an
 * environment (docs/gitlab-behaviour.md#opting-in-to-managed-resources, docs/gitlab-behaviour.md#template-variables-and-functions), it fails without an environment name; it also needs a project id.
 */
export function buildTemplateData(scenario: Scenario, ids: TemplateIds): TemplateDataResult {
  const envName = scenario.environmentName;
  if (envName === undefined || envName === '') {
    return { ok: false, reason: 'noEnvironment', message: 'The scenario has no environment: GitLab renders environment templates only for jobs with an environment.' };
  }
  const projectId = ids.projectId ?? toId(scenario.projectId);
  if (projectId === undefined) {
    return { ok: false, reason: 'noProjectId', message: 'The scenario has no numeric project id; set projectId to render `.project.id`.' };
  }
  const base = (ids.gitlabUrl ?? 'https://gitlab.com').replace(/\/+$/, '');
  const projectPath = scenario.projectPath;
  const projectSlug = projectPath.split('/').pop() ?? projectPath;
  const projectUrl = `${base}/${projectPath}`;
  const envSlug = environmentSlug(envName);
  const environmentId = ids.environmentId ?? 0;
  return {
    ok: true,
    data: {
      agent: { id: ids.agentId, name: ids.agentName, url: `${base}/${ids.agentProjectPath ?? projectPath}/-/cluster_agents/${ids.agentName}` },
      environment: {
        id: environmentId,
        name: envName,
        slug: envSlug,
        url: scenario.environmentUrl ?? '',
        page_url: `${projectUrl}/-/environments/${environmentId}`,
        tier: scenario.environmentTier ?? guessEnvironmentTier(envName),
      },
      project: { id: projectId, slug: projectSlug, path: projectPath, url: projectUrl },
      ci_pipeline: { id: ids.pipelineId ?? 0 },
      ci_job: { id: ids.jobId ?? 0 },
      user: { id: ids.userId ?? 0, username: scenario.userLogin ?? '' },
      legacy_namespace: legacyNamespace(projectSlug, projectId, envSlug),
    },
  };
}

/** One variable a template can read. */
export interface TemplateVariableInfo {
  /** As written in a template, e.g. `.environment.slug`. */
  readonly path: string;
  readonly type: 'int' | 'string';
  readonly description: string;
}

/** The variables of docs/gitlab-behaviour.md#template-variables-and-functions, in the documentation's order. */
export const TEMPLATE_VARIABLES: readonly TemplateVariableInfo[] = [
  { path: '.agent.id', type: 'int', description: 'ID of the agent.' },
  { path: '.agent.name', type: 'string', description: 'Name of the agent.' },
  { path: '.agent.url', type: 'string', description: 'URL of the agent in GitLab.' },
  { path: '.environment.id', type: 'int', description: 'ID of the environment.' },
  { path: '.environment.name', type: 'string', description: 'Name of the environment.' },
  { path: '.environment.slug', type: 'string', description: 'Slug of the environment (at most 24 characters).' },
  { path: '.environment.url', type: 'string', description: 'External URL of the environment; empty when unset.' },
  { path: '.environment.page_url', type: 'string', description: 'URL of the environment page in GitLab.' },
  { path: '.environment.tier', type: 'string', description: 'Deployment tier of the environment.' },
  { path: '.project.id', type: 'int', description: 'ID of the project.' },
  { path: '.project.slug', type: 'string', description: 'Last component of the project path, unmodified (may contain `_`, `.`, capitals).' },
  { path: '.project.path', type: 'string', description: 'Full path of the project.' },
  { path: '.project.url', type: 'string', description: 'URL of the project.' },
  { path: '.ci_pipeline.id', type: 'int', description: 'ID of the pipeline; 0 when unset.' },
  { path: '.ci_job.id', type: 'int', description: 'ID of the CI/CD job; 0 when unset.' },
  { path: '.user.id', type: 'int', description: 'ID of the user who runs the job.' },
  { path: '.user.username', type: 'string', description: 'Username of the user who runs the job.' },
  { path: '.legacy_namespace', type: 'string', description: 'Namespace the certificate-based integration would have used (for migrations).' },
];

/** The variable paths of {@link TEMPLATE_VARIABLES}. */
export const TEMPLATE_VARIABLE_PATHS: readonly string[] = TEMPLATE_VARIABLES.map((v) => v.path);
