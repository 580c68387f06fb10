/**
 * Which GitLab the files are checked for, and the one table of what changed between versions:
 * keys added, deprecated or removed, and behaviours (operators, optional keys, file kinds) with the
 * release that brought them. Every row names its public source (docs/gitlab-behaviour.md#gitlab-versions).
 * Validation (through the versioned schema), completion, hover and the `rules:if` dialect all read
 * this table; nothing else in the engine spells a version.
 */
import { BoundedCache } from '../cache';

/** A GitLab release `major.minor`, as the setting `gitlabAgentConfig.gitlabVersion` and `--gitlab-version` take it. */
export type GitlabVersion = string;

/**
 * The releases that can be chosen: 16.0 (the oldest self-managed line still met in practice, and the
 * first without `starboard`) to the newest release GitLab's documentation describes.
 */
export const GITLAB_VERSIONS: readonly GitlabVersion[] = [
  ...range(16, 0, 11),
  ...range(17, 0, 11),
  ...range(18, 0, 11),
  ...range(19, 0, 5),
];

/** The default: the newest release documented (docs.gitlab.com history notes name 19.5 features). */
export const NEWEST_GITLAB_VERSION: GitlabVersion = GITLAB_VERSIONS[GITLAB_VERSIONS.length - 1];

export function isGitlabVersion(value: unknown): value is GitlabVersion {
  return typeof value === 'string' && GITLAB_VERSIONS.includes(value);
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: GitlabVersion, b: GitlabVersion): number {
  const [am, an] = versionNumbers(a);
  const [bm, bn] = versionNumbers(b);
  return am - bm || an - bn;
}

/** Versions read so far (the checks compare versions for every entry of a file: splitting each time showed in profiles). */
const readVersions = new BoundedCache<GitlabVersion, readonly [number, number]>(256);

function versionNumbers(version: GitlabVersion): readonly [number, number] {
  return readVersions.get(version, () => {
    const [major, minor] = version.split('.').map(Number);
    return [major, minor];
  });
}

/** True when `version` is `since` or newer. */
export function atLeast(version: GitlabVersion, since: GitlabVersion): boolean {
  return compareVersions(version, since) >= 0;
}

/** A key whose presence depends on the version. `paths` are schema paths: keys joined by `.`, `[]` for a list's items. */
export interface VersionedKey {
  readonly paths: readonly string[];
  /** First release whose KAS parses the key; before it the key is unknown, which makes GitLab reject the whole file. */
  readonly added?: GitlabVersion;
  /** Release from which GitLab announces the key's removal (a warning until it is removed). */
  readonly deprecated?: GitlabVersion;
  /** First release that no longer parses the key (an error from then on). */
  readonly removed?: GitlabVersion;
  /** What the deprecation warning says between `deprecated` and `removed` (version-specific when the meaning changed). */
  readonly deprecationNote?: (version: GitlabVersion) => string;
  /** Public sources: docs pages, merge requests, source files. */
  readonly sources: readonly string[];
}

const CI_ENTRIES = ['ci_access.projects[]', 'ci_access.groups[]', 'ci_access.instance'];
const inEntries = (key: string) => CI_ENTRIES.map((entry) => `${entry}.${key}`);

const DOCS = 'https://docs.gitlab.com/user/clusters/agent';
const WORKSPACE_SETTINGS = 'https://docs.gitlab.com/user/workspace/settings/';
const SCANNING = `${DOCS}/vulnerabilities/`;
const AGENT_MR = 'https://gitlab.com/gitlab-org/cluster-integration/gitlab-agent/-/merge_requests';

/**
 * Keys by version. Only releases from 16.0 matter: a key added earlier (`environments`, 15.7;
 * `remote_development`, 15.11) is in every selectable version and is not listed.
 */
export const VERSIONED_KEYS: readonly VersionedKey[] = [
  { paths: ['user_access'], added: '16.1', sources: [`${DOCS}/user_access/`] },
  { paths: inEntries('protected_branches_only'), added: '17.3', sources: [`${DOCS}/ci_cd_workflow/`, `${AGENT_MR}/1569`] },
  { paths: inEntries('resource_management'), added: '17.9', sources: [`${DOCS}/managed_kubernetes_resources/`, 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/178824'] },
  { paths: ['ci_access.instance'], added: '17.11', sources: [`${DOCS}/ci_cd_workflow/`, 'https://gitlab.com/gitlab-org/gitlab/-/issues/357516'] },
  {
    paths: ['gitops'],
    deprecated: '16.2',
    removed: '18.0',
    deprecationNote: (version) =>
      atLeast(version, '17.0')
        ? `\`gitops\` is deprecated: GitLab ${version} still parses it, but since 17.0 the agent only logs an error for it and deploys nothing; it is removed in 18.0. Use Flux.`
        : `\`gitops\` is deprecated since GitLab 16.2 and removed in 18.0. Use Flux.`,
    sources: ['https://gitlab.com/gitlab-org/gitlab/-/issues/406545', `${AGENT_MR}/1436`, `${DOCS}/gitops/migrate_to_flux/`, 'https://pkg.go.dev/gitlab.com/gitlab-org/cluster-integration/gitlab-agent/v18/pkg/agentcfg'],
  },
  {
    paths: ['remote_development.partial_sync_interval', 'remote_development.full_sync_interval'],
    deprecated: '16.0',
    removed: '17.0',
    deprecationNote: () => 'The workspace sync intervals are deprecated (GitLab sends its own intervals) and removed in GitLab 17.0.',
    sources: [`${AGENT_MR}/1229`, `${AGENT_MR}/1425`],
  },
  { paths: ['remote_development.network_policy.egress'], added: '16.7', sources: [WORKSPACE_SETTINGS] },
  { paths: ['remote_development.default_resources_per_workspace_container', 'remote_development.max_resources_per_workspace'], added: '16.8', sources: [WORKSPACE_SETTINGS] },
  { paths: ['remote_development.workspaces_quota', 'remote_development.workspaces_per_user_quota'], added: '16.9', sources: [WORKSPACE_SETTINGS] },
  {
    paths: ['remote_development.use_kubernetes_user_namespaces', 'remote_development.default_runtime_class', 'remote_development.allow_privilege_escalation', 'remote_development.annotations', 'remote_development.labels'],
    added: '17.4',
    sources: [WORKSPACE_SETTINGS],
  },
  { paths: ['remote_development.image_pull_secrets', 'remote_development.max_active_hours_before_stop', 'remote_development.max_stopped_hours_before_termination'], added: '17.6', sources: [WORKSPACE_SETTINGS] },
  { paths: ['remote_development.shared_namespace'], added: '18.0', sources: [WORKSPACE_SETTINGS, 'https://gitlab.com/gitlab-org/gitlab/-/issues/519254'] },
  { paths: ['remote_development.gitlab_workspaces_proxy.http_enabled', 'remote_development.gitlab_workspaces_proxy.ssh_enabled'], added: '18.5', sources: [WORKSPACE_SETTINGS, 'https://gitlab.com/gitlab-org/gitlab/-/issues/569402'] },
  { paths: ['container_scanning.scanner_timeout', 'container_scanning.report_max_size'], added: '17.7', sources: [SCANNING] },
  { paths: ['container_scanning.delete_report_artifact', 'container_scanning.vulnerability_report.resource_types'], added: '17.9', sources: [SCANNING] },
  { paths: ['container_scanning.severity_threshold'], added: '18.4', sources: [SCANNING] },
];

/** Behaviours that are not a key of their own. */
export type VersionedBehaviour =
  | 'unaryNot'
  | 'environmentTemplates'
  | 'userAccessAsOptional'
  | 'authorizedEntities500'
  | 'crossTopLevelCiAccess'
  | 'crossTopLevelUserAccess'
  | 'protectedBranchesOnlyWithoutFlag'
  | 'resourceManagementWithoutFlag';

const GITLAB_MR = 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests';

export const VERSIONED_BEHAVIOURS: Readonly<Record<VersionedBehaviour, { readonly added: GitlabVersion; readonly what: string; readonly sources: readonly string[] }>> = {
  unaryNot: {
    added: '18.11',
    what: 'the unary `!` operator in `rules:if`',
    sources: ['https://docs.gitlab.com/ci/jobs/job_rules/#negate-expressions', 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/219430', 'lib/gitlab/ci/pipeline/expression/lexer.rb'],
  },
  environmentTemplates: {
    added: '17.9',
    what: 'environment templates (GitLab-managed Kubernetes resources)',
    sources: [`${DOCS}/managed_kubernetes_resources/`],
  },
  userAccessAsOptional: {
    added: '18.3',
    what: '`user_access` without `access_as`',
    sources: [`${DOCS}/user_access/`, `${AGENT_MR}/2749`],
  },
  authorizedEntities500: {
    added: '17.0',
    what: 'up to 500 entries in each of `ci_access.projects`, `ci_access.groups`, `user_access.projects`, `user_access.groups` (100 before)',
    sources: [`${DOCS}/ci_cd_workflow/`, `${DOCS}/user_access/`, `${GITLAB_MR}/149844`, 'app/services/clusters/agents/authorizations/ci_access/refresh_service.rb'],
  },
  crossTopLevelCiAccess: {
    added: '18.1',
    what: '`ci_access` projects and groups outside the top-level group of the agent configuration project, when an administrator enables instance-level authorization',
    sources: [`${DOCS}/ci_cd_workflow/`, 'https://gitlab.com/gitlab-org/gitlab/-/issues/377932', `${GITLAB_MR}/190769`],
  },
  protectedBranchesOnlyWithoutFlag: {
    added: '17.10',
    what: '`protected_branches_only` without the feature flag `kubernetes_agent_protected_branches` (from 17.3 the key is read, but Rails filters by it only where the flag is on)',
    sources: [`${DOCS}/ci_cd_workflow/`, `${GITLAB_MR}/156626`, 'https://gitlab.com/gitlab-org/gitlab/-/issues/467936'],
  },
  resourceManagementWithoutFlag: {
    added: '18.1',
    what: '`resource_management` without the feature flag `gitlab_managed_cluster_resources` (from 17.9 the key is read, but GitLab prepares managed resources only where the flag, off by default, is on)',
    sources: [`${DOCS}/managed_kubernetes_resources/`, 'https://gitlab.com/gitlab-org/gitlab/-/issues/520042'],
  },
  crossTopLevelUserAccess: {
    added: '18.4',
    what: '`user_access` projects and groups outside the top-level group of the agent configuration project, when an administrator enables instance-level authorization',
    sources: [`${DOCS}/user_access/`, 'https://gitlab.com/gitlab-org/gitlab/-/issues/557818', `${GITLAB_MR}/202853`],
  },
};

/** The most entries of one authorization list any selectable release reads (the model of a file keeps no more). */
export const MAX_AUTHORIZED_ENTITIES = 500;

/**
 * How many entries of each of `ci_access.projects`, `ci_access.groups`, `user_access.projects` and
 * `user_access.groups` GitLab `version` reads: Rails keeps the first ones and drops the rest
 * silently (docs/gitlab-behaviour.md#top-level-keys-and-list-limits).
 */
export function authorizedEntityLimit(version: GitlabVersion = NEWEST_GITLAB_VERSION): number {
  return hasBehaviour('authorizedEntities500', version) ? MAX_AUTHORIZED_ENTITIES : 100;
}

/** True when `version` has the behaviour. */
export function hasBehaviour(behaviour: VersionedBehaviour, version: GitlabVersion): boolean {
  return atLeast(version, VERSIONED_BEHAVIOURS[behaviour].added);
}

/** The `rules:if` dialect of a release: GitLab's lexer has the unary `!` from 18.11 (docs/gitlab-behaviour.md#expression-lexer). */
export function expressionDialect(version: GitlabVersion = NEWEST_GITLAB_VERSION): { readonly unaryNot: boolean } {
  return { unaryNot: hasBehaviour('unaryNot', version) };
}

/**
 * The release that added the key at schema path `path` (spelled as in `VERSIONED_KEYS`), when
 * `version` predates it and so does not parse the key; null when `version` has it.
 */
export function keyAddedAfter(path: string, version: GitlabVersion): GitlabVersion | null {
  const added = VERSIONED_KEYS.find((key) => key.paths.includes(path))?.added;
  return added && !atLeast(version, added) ? added : null;
}

/** The schema path of a `ci_access` entry of `kind`, or of one of its keys: `ci_access.projects[].protected_branches_only`. */
export function ciEntryPath(kind: 'project' | 'group' | 'instance', key?: string): string {
  const entry = kind === 'instance' ? 'ci_access.instance' : `ci_access.${kind}s[]`;
  return key ? `${entry}.${key}` : entry;
}

/** How a versioned key stands in one version. */
export type KeyStatus =
  | { readonly kind: 'current' }
  | { readonly kind: 'notYet'; readonly added: GitlabVersion }
  | { readonly kind: 'deprecated'; readonly note: string; readonly removed?: GitlabVersion }
  | { readonly kind: 'removed'; readonly removed: GitlabVersion };

export function keyStatus(key: VersionedKey, version: GitlabVersion): KeyStatus {
  if (key.added && !atLeast(version, key.added)) return { kind: 'notYet', added: key.added };
  if (key.removed && atLeast(version, key.removed)) return { kind: 'removed', removed: key.removed };
  if (key.deprecated && atLeast(version, key.deprecated)) return { kind: 'deprecated', note: key.deprecationNote?.(version) ?? 'Deprecated.', ...(key.removed ? { removed: key.removed } : {}) };
  return { kind: 'current' };
}

function range(major: number, from: number, to: number): GitlabVersion[] {
  const out: GitlabVersion[] = [];
  for (let minor = from; minor <= to; minor++) out.push(`${major}.${minor}`);
  return out;
}
