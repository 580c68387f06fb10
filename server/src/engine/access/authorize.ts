import { authorizedEntityLimit, ciEntryPath, hasBehaviour, keyAddedAfter, NEWEST_GITLAB_VERSION, VERSIONED_BEHAVIOURS, type GitlabVersion } from '../gitlab/gitlabVersions';
import { INSTANCE_LEVEL_SETTING } from './crossTopLevel';
import { matchEnvironment } from './environmentMatcher';
import { honouredEntries, listIndex, type AccessEntry, type CiAccessModel, type EntryKind } from './model';
import { ancestorGroups, topLevelNamespace } from './projectPath';
import { BoundedCache } from '../cache';

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

/** What decides which entries GitLab counts, besides the file. */
export interface AuthorizationOptions {
  /** The administrator enabled instance-level authorization (`organization_cluster_agent_authorization_enabled`). */
  readonly instanceLevel?: boolean;
  /** The release: how many entries of each list it reads, and whether it counts entries of another top-level group (default the newest). */
  readonly gitlabVersion?: GitlabVersion;
  /**
   * Count an entry whatever its top-level group and place in the list. Not GitLab's decision: the
   * checks of one entry (its rules, its namespaces) exercise the entry itself.
   */
  readonly anyEntry?: boolean;
}

/**
 * Candidate authorizations in GitLab's order (docs/gitlab-behaviour.md#authorization-order): the explicit project entry, the
 * implicit authorization in the agent's own project, group entries from the closest ancestor
 * outward, then the instance entry (its position is inferred: last).
 */
export function candidateAuthorizations(model: CiAccessModel, agent: AgentRef, job: JobRef, options: AuthorizationOptions = {}): Candidate[] {
  return candidatesWithSkips(model, agent, job, options, null);
}

/**
 * The candidates, and in words (into `skipped`, when given) each entry for the job's project or one
 * of its groups that GitLab leaves out: past the release's list limit
 * (docs/gitlab-behaviour.md#top-level-keys-and-list-limits), or in another top-level group than the
 * agent's configuration project without instance-level authorization, or before 18.1
 * (docs/gitlab-behaviour.md#authorization-order).
 */
function candidatesWithSkips(model: CiAccessModel, agent: AgentRef, job: JobRef, options: AuthorizationOptions, skipped: string[] | null): Candidate[] {
  const version = options.gitlabVersion ?? NEWEST_GITLAB_VERSION;
  const read = options.anyEntry ? model : honouredEntries(model, version);
  const candidates: Candidate[] = [];
  const home = topLevelNamespace(agent.configProjectPath);
  const crossAllowed = options.anyEntry || (options.instanceLevel === true && hasBehaviour('crossTopLevelCiAccess', version));
  const counted = (entry: AccessEntry): boolean => {
    if (!home || crossAllowed || topLevelNamespace(entry.id!) === home) return true;
    if (skipped) {
      const added = VERSIONED_BEHAVIOURS.crossTopLevelCiAccess.added;
      const why = hasBehaviour('crossTopLevelCiAccess', version)
        ? `GitLab ${version} counts it only with instance-level authorization, which is off here (--instance-level)`
        : `GitLab ${version} ignores it (from ${added}, with instance-level authorization)`;
      skipped.push(`${entry.kind} entry "${entry.id}" is outside "${home}", the top-level group of the agent configuration project ${agent.configProjectPath}: ${why}`);
    }
    return false;
  };
  // Only a release's view of the lists (read !== model) leaves entries out by their place.
  const beyondLimit = (kind: 'project' | 'group', lowerId: string) => {
    const entry = (kind === 'project' ? model.projectsById : model.groupsById).get(lowerId);
    if (entry) skipped?.push(`${kind} entry "${entry.id}" is entry ${listIndex(entry) + 1} of ci_access.${kind}s: GitLab ${version} reads only the first ${authorizedEntityLimit(version)}`);
  };
  const projectId = job.projectPath.toLowerCase();
  const project = read.projectsById.get(projectId);
  if (project) {
    if (counted(project)) candidates.push({ via: 'project', entry: project });
  } else if (read !== model) beyondLimit('project', projectId);
  if (agent.configProjectPath && agent.configProjectPath.toLowerCase() === projectId) candidates.push({ via: 'implicit', entry: null });
  for (const group of ancestorGroups(job.projectPath)) {
    const groupId = group.toLowerCase();
    const entry = read.groupsById.get(groupId);
    if (entry) {
      if (counted(entry)) candidates.push({ via: 'group', entry });
    } else if (read !== model) beyondLimit('group', groupId);
  }
  if (read.instance) {
    // Before the release that added it, `instance` is an unknown key: that GitLab reads no such entry (and rejects the file).
    const added = options.anyEntry ? null : keyAddedAfter(ciEntryPath('instance'), version);
    if (added) skipped?.push(`ci_access.instance is not in GitLab ${version} (added in ${added}): GitLab ${version} rejects the file`);
    else candidates.push({ via: 'instance', entry: read.instance });
  }
  return candidates;
}

/**
 * GitLab's decision for one agent and one job, as shipped: the first candidate wins (no merging),
 * and only then are the environment and protected-ref filters applied to it (docs/gitlab-behaviour.md#authorization-order,
 * 6) — so a project entry limited to `production` denies a staging job even when a group entry
 * would have allowed it. With `explain` false (the namespace checks, which read only who decided,
 * thousands of times at a first open) the steps are left empty and a denial's reason is ''.
 */
export function decideAsGitLab(model: CiAccessModel, agent: AgentRef, job: JobRef, options: AuthorizationOptions = {}, explain = true): GitLabDecision {
  const problems: string[] = [];
  const steps: string[] = [];
  const candidates = candidatesWithSkips(model, agent, job, options, explain ? steps : null);
  if (!candidates.length) {
    // The entry GitLab left out is the reason when it is the only one for the project.
    if (steps.length) return { authorized: false, candidate: null, reason: steps.join('; '), steps: [], problems };
    return { authorized: false, candidate: null, reason: explain ? `no ci_access entry covers ${job.projectPath}` : '', steps, problems };
  }
  const winner = candidates[0];
  if (explain) {
    steps.push(`${describeCandidate(winner)} is the closest authorization`);
    // Rails stores the instance authorization only with the administrator's setting (docs/gitlab-behaviour.md#ci_access-entries);
    // the file relies on it, so it is taken as on, and said.
    if (winner.via === 'instance') steps.push(`it counts only where ${INSTANCE_LEVEL_SETTING}: taken as on here`);
    if (candidates.length > 1) steps.push(`it shadows ${candidates.slice(1).map(describeCandidate).join(', ')} (first per agent wins)`);
  }
  const entry = winner.entry ?? IMPLICIT;

  if (entry.environments.length) {
    if (job.environment === undefined) {
      return { authorized: false, candidate: winner, reason: explain ? `the job has no environment and the entry only allows environments ${entry.environments.join(', ')}` : '', steps, problems };
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
      return { authorized: false, candidate: winner, reason: explain ? `environment "${job.environment}" matches none of ${entry.environments.join(', ')}` : '', steps, problems };
    }
    if (explain) steps.push(`environment "${job.environment}" matches "${matched}"`);
  }

  const version = options.gitlabVersion ?? NEWEST_GITLAB_VERSION;
  const protectedOnly = entry.protectedBranchesOnly ? protectedBranchesOnlyIn(version) : null;
  const protectedOnlyAdded = protectedOnly?.addedAfter[entry.kind] ?? null;
  if (protectedOnlyAdded) {
    // An unknown key to that release, which rejects the file (schema.notInVersion): the entry is read without it.
    if (explain) steps.push(`protected_branches_only is not in GitLab ${version} (added in ${protectedOnlyAdded}): not applied`);
  } else if (protectedOnly) {
    if (explain && !protectedOnly.withoutFlag) {
      // docs/gitlab-behaviour.md#protected-branches-filter: which state the flag has on an instance is not knowable here.
      steps.push(`GitLab ${version} filters by protected_branches_only only where the feature flag kubernetes_agent_protected_branches is on (generally available from ${VERSIONED_BEHAVIOURS.protectedBranchesOnlyWithoutFlag.added}): taken as on here`);
    }
    if (!job.protectedRef) return { authorized: false, candidate: winner, reason: explain ? 'protected_branches_only is true and the ref is not protected' : '', steps, problems };
    if (explain) steps.push('the ref is protected');
  }
  return { authorized: true, candidate: winner, steps, problems };
}

/** What a release says about `protected_branches_only`. */
interface ProtectedBranchesOnlyRelease {
  /** Per entry kind, the release that added the key when this one predates it, else null. */
  readonly addedAfter: Readonly<Record<EntryKind, GitlabVersion | null>>;
  /** Whether the release filters without the feature flag. */
  readonly withoutFlag: boolean;
}

/**
 * Remembered per release: every simulated job of an entry with the key asks, and each answer is a
 * search of the version tables (a tenth of a cold rule check in the editor).
 */
function protectedBranchesOnlyIn(version: GitlabVersion): ProtectedBranchesOnlyRelease {
  return protectedBranchesOnlyReleases.get(version, () => {
    const addedAfter = (kind: EntryKind) => keyAddedAfter(ciEntryPath(kind, 'protected_branches_only'), version);
    return {
      addedAfter: { project: addedAfter('project'), group: addedAfter('group'), instance: addedAfter('instance') },
      withoutFlag: hasBehaviour('protectedBranchesOnlyWithoutFlag', version),
    };
  });
}

const protectedBranchesOnlyReleases = new BoundedCache<GitlabVersion, ProtectedBranchesOnlyRelease>(256);

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
