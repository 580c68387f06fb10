import { environmentSlug } from '../vars/slug';
import type { AgentRef, Via } from './authorize';
import type { AccessEntry } from './model';
import { ancestorGroups } from './projectPath';

/** The Kubernetes identity a job's requests carry (docs/gitlab-behaviour.md#access_as-identities). */
export interface JobIdentity {
  readonly mode: 'agent' | 'ci_job' | 'impersonate';
  /** Kubernetes user name; for `agent`, a description of the agent's ServiceAccount. */
  readonly username: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export interface IdentityFacts {
  readonly projectPath: string;
  readonly projectId?: number | string;
  readonly environmentName?: string;
  readonly environmentTier?: string;
  readonly jobId?: number | string;
  readonly pipelineId?: number | string;
  readonly userLogin?: string;
  readonly agentId?: number | string;
  readonly configProjectId?: number | string;
}

/** Ids a simulation cannot know are shown as readable placeholders rather than invented numbers. */
const placeholder = (what: string, value: number | string | undefined) => (value === undefined || value === '' ? `<${what}>` : String(value));

/**
 * The identity for an authorization. `ci_job`: user `gitlab:ci_job:<job id>` with groups
 * `gitlab:ci_job`, per ancestor group `gitlab:group:<id>` and `gitlab:group_env_tier:<id>:<tier>`,
 * then `gitlab:project:<id>`, `gitlab:project_env:<id>:<env slug>`,
 * `gitlab:project_env_tier:<id>:<tier>` (environment groups only with an environment).
 */
export function jobIdentity(entry: AccessEntry | null, facts: IdentityFacts): JobIdentity {
  const mode = entry?.accessAs ?? 'agent';
  if (mode === 'impersonate' && entry?.impersonate) {
    const { username, uid, groups, extra } = entry.impersonate;
    return { mode, username, groups, ...(uid !== undefined ? { uid } : {}), extra: Object.fromEntries(extra.map((e) => [e.key, e.val])) };
  }
  if (mode === 'agent') return { mode, username: "the agent's ServiceAccount (agentk)", groups: [], extra: {} };

  const projectId = placeholder('project id', facts.projectId);
  const tier = facts.environmentName !== undefined ? facts.environmentTier : undefined;
  const groups = ['gitlab:ci_job'];
  for (const group of [...ancestorGroups(facts.projectPath)].reverse()) {
    const id = `<id of ${group}>`;
    groups.push(`gitlab:group:${id}`);
    if (tier) groups.push(`gitlab:group_env_tier:${id}:${tier}`);
  }
  groups.push(`gitlab:project:${projectId}`);
  const extra: Record<string, string[]> = {
    'agent.gitlab.com/id': [placeholder('agent id', facts.agentId)],
    'agent.gitlab.com/config_project_id': [placeholder('configuration project id', facts.configProjectId)],
    'agent.gitlab.com/project_id': [projectId],
    'agent.gitlab.com/ci_pipeline_id': [placeholder('pipeline id', facts.pipelineId)],
    'agent.gitlab.com/ci_job_id': [placeholder('job id', facts.jobId)],
    'agent.gitlab.com/username': [placeholder('user', facts.userLogin)],
  };
  if (facts.environmentName !== undefined) {
    const slug = environmentSlug(facts.environmentName);
    groups.push(`gitlab:project_env:${projectId}:${slug}`);
    if (tier) groups.push(`gitlab:project_env_tier:${projectId}:${tier}`);
    extra['agent.gitlab.com/environment_slug'] = [slug];
    if (tier) extra['agent.gitlab.com/environment_tier'] = [tier];
  }
  return { mode, username: `gitlab:ci_job:${placeholder('job id', facts.jobId)}`, groups, extra };
}

/** The kubeconfig context GitLab generates for the agent: `<config project full path>:<agent name>` (docs/gitlab-behaviour.md#job-kubeconfig). */
export function kubeContextName(agent: AgentRef): string {
  return `${agent.configProjectPath || '<agent configuration project>'}:${agent.name}`;
}

export type { Via };
