/**
 * Who the preview asks about: the identity the simulation gives a job (engine/access/identity
 * `jobIdentity`), with the ids a simulation cannot know filled in where the user gave them. Names
 * still holding a placeholder (`<id of acme>`) are left out of the review and reported: RBAC only
 * adds permissions, so what the remaining identity may do is certain, and what it may not do is
 * certain only when nothing was left out.
 */
import type { JobIdentity } from '../../engine/api';

/** The user, groups and extra of a SubjectAccessReview spec. */
export interface ReviewSubject {
  readonly mode: JobIdentity['mode'];
  readonly user: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra: Readonly<Record<string, readonly string[]>>;
  /** Group names left out because an id in them is not known (e.g. `gitlab:group:<id of acme>`). */
  readonly unknownGroups: readonly string[];
}

/** Ids the user supplies: the job's id, and the ids of the project's ancestor groups by full path. */
export interface KnownIds {
  readonly jobId?: string;
  /** `acme` → `12`, `acme/payments` → `34`. */
  readonly groupIds?: Readonly<Record<string, string>>;
}

/** The agent's own ServiceAccount, which the simulation cannot name (it depends on how agentk was installed). */
export interface AgentServiceAccount {
  readonly namespace: string;
  readonly name: string;
}

const PLACEHOLDER = /<[^>]*>/;

/**
 * The subject to review for `identity`; undefined for the `agent` mode when the agent's
 * ServiceAccount is not given (the preview then says it cannot answer rather than guess one).
 * ServiceAccount users and groups follow
 * https://kubernetes.io/docs/reference/access-authn-authz/authentication/#service-account-tokens.
 */
export function reviewSubject(identity: JobIdentity, ids: KnownIds = {}, agent?: AgentServiceAccount): ReviewSubject | undefined {
  if (identity.mode === 'agent') {
    if (!agent) return undefined;
    return {
      mode: 'agent',
      user: `system:serviceaccount:${agent.namespace}:${agent.name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${agent.namespace}`, 'system:authenticated'],
      extra: {},
      unknownGroups: [],
    };
  }
  const fill = (name: string): string => {
    let out = name;
    if (ids.jobId) out = out.replace('<job id>', ids.jobId);
    for (const [group, id] of Object.entries(ids.groupIds ?? {})) out = out.split(`<id of ${group}>`).join(id);
    return out;
  };
  const groups = identity.groups.map(fill);
  // Impersonated and job identities are authenticated users: the API server adds system:authenticated.
  const known = [...groups.filter((g) => !PLACEHOLDER.test(g)), 'system:authenticated'];
  return {
    mode: identity.mode,
    user: fill(identity.username),
    groups: [...new Set(known)],
    ...(identity.uid !== undefined ? { uid: identity.uid } : {}),
    extra: Object.fromEntries(Object.entries(identity.extra).filter(([, values]) => !values.some((v) => PLACEHOLDER.test(v)))),
    unknownGroups: groups.filter((g) => PLACEHOLDER.test(g)),
  };
}
