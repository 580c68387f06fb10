import { matchEnvironment } from './environmentMatcher';
import type { AccessEntry, CiAccessModel } from './model';
import { ancestorGroups, topLevelNamespace } from './projectPath';

export type Via = 'project' | 'implicit' | 'group' | 'instance';

/** The agent being simulated: its configuration project and name. */
export interface AgentRef {
  /** Full path of the agent's configuration project (from the git remote or a setting); '' when unknown. */
  readonly configProjectPath: string;
  readonly name: string;
}

/** What GitLab knows about a job when it decides which agents it gets. */
export interface JobRef {
  readonly projectPath: string;
  /** The job's environment name, if it deploys to one. */
  readonly environment?: string;
  /** Whether the pipeline's ref is protected (`protected_ref`). */
  readonly protectedRef: boolean;
}

export interface Candidate {
  readonly via: Via;
  /** Null for the implicit authorization, which has no entry in the file. */
  readonly entry: AccessEntry | null;
}

export type GitLabDecision =
  | { readonly authorized: true; readonly candidate: Candidate; readonly steps: readonly string[]; readonly problems: readonly string[] }
  | { readonly authorized: false; readonly candidate: Candidate | null; readonly reason: string; readonly steps: readonly string[]; readonly problems: readonly string[] };

/** The implicit authorization of an agent in its own configuration project: config `{}` (docs/gitlab-behaviour.md#authorization-order). */
const IMPLICIT: AccessEntry = {
  kind: 'project',
  id: null,
  path: [],
  accessAs: 'agent',
  environments: [],
  protectedBranchesOnly: false,
  resourceManagement: false,
};

/**
 * Candidate authorizations in GitLab's order (docs/gitlab-behaviour.md#authorization-order): the explicit project entry, the
 * implicit authorization in the agent's own project, group entries from the closest ancestor
 * outward, then the instance entry (its position is inferred: last).
 */
export function candidateAuthorizations(model: CiAccessModel, agent: AgentRef, job: JobRef, options: { instanceLevel?: boolean } = {}): Candidate[] {
  const out: Candidate[] = [];
  const sameTopLevel = (id: string) => options.instanceLevel || !agent.configProjectPath || topLevelNamespace(id) === topLevelNamespace(agent.configProjectPath);
  const project = model.projectsById.get(job.projectPath.toLowerCase());
  if (project && sameTopLevel(project.id!)) out.push({ via: 'project', entry: project });
  if (agent.configProjectPath && agent.configProjectPath.toLowerCase() === job.projectPath.toLowerCase()) out.push({ via: 'implicit', entry: null });
  for (const group of ancestorGroups(job.projectPath)) {
    const entry = model.groupsById.get(group.toLowerCase());
    if (entry && sameTopLevel(entry.id!)) out.push({ via: 'group', entry });
  }
  if (model.instance) out.push({ via: 'instance', entry: model.instance });
  return out;
}

/**
 * GitLab's decision for one agent and one job, as shipped: the first candidate wins (no merging),
 * and only then are the environment and protected-ref filters applied to it (docs/gitlab-behaviour.md#authorization-order,
 * 6) — so a project entry limited to `production` denies a staging job even when a group entry
 * would have allowed it.
 */
export function decideAsGitLab(model: CiAccessModel, agent: AgentRef, job: JobRef, options: { instanceLevel?: boolean } = {}): GitLabDecision {
  const steps: string[] = [];
  const problems: string[] = [];
  const candidates = candidateAuthorizations(model, agent, job, options);
  if (!candidates.length) {
    return { authorized: false, candidate: null, reason: `no ci_access entry covers ${job.projectPath}`, steps, problems };
  }
  const [winner, ...shadowed] = candidates;
  steps.push(`${describeCandidate(winner)} is the closest authorization`);
  if (shadowed.length) steps.push(`it shadows ${shadowed.map(describeCandidate).join(', ')} (first per agent wins)`);
  const entry = winner.entry ?? IMPLICIT;

  if (entry.environments.length) {
    if (job.environment === undefined) {
      return { authorized: false, candidate: winner, reason: `the job has no environment and the entry only allows environments ${entry.environments.join(', ')}`, steps, problems };
    }
    let matched: string | null = null;
    for (const pattern of entry.environments) {
      const result = matchEnvironment(pattern, job.environment);
      if (result.problem) problems.push(result.problem);
      if (result.matches) {
        matched = pattern;
        break;
      }
    }
    if (matched === null) {
      return { authorized: false, candidate: winner, reason: `environment "${job.environment}" matches none of ${entry.environments.join(', ')}`, steps, problems };
    }
    steps.push(`environment "${job.environment}" matches "${matched}"`);
  }

  if (entry.protectedBranchesOnly) {
    if (!job.protectedRef) return { authorized: false, candidate: winner, reason: 'protected_branches_only is true and the ref is not protected', steps, problems };
    steps.push('the ref is protected');
  }
  return { authorized: true, candidate: winner, steps, problems };
}

function describeCandidate(c: Candidate): string {
  switch (c.via) {
    case 'project':
      return `project entry "${c.entry!.id}"`;
    case 'implicit':
      return "the agent's own configuration project (implicit)";
    case 'group':
      return `group entry "${c.entry!.id}"`;
    case 'instance':
      return 'the instance entry';
  }
}
