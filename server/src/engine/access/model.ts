import { authorizedEntityLimit, MAX_AUTHORIZED_ENTITIES, type GitlabVersion } from '../gitlab/gitlabVersions';
import { asRecord } from '../data';

/** Data path of a node in the configuration, to find its source range again. */
export type DataPath = readonly (string | number)[];

export type AccessAsMode = 'agent' | 'ci_job' | 'impersonate';

export interface ImpersonateConfig {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra: readonly { key: string; val: readonly string[] }[];
}

/** One rule of the proposed `rules` design (docs/gitlab-behaviour.md#ci_access-rules-design). */
export interface AccessRule {
  /** 1-based position, as users count rules. */
  readonly number: number;
  readonly path: DataPath;
  readonly if?: string;
  readonly namespace?: string;
  readonly when?: 'never';
}

export type EntryKind = 'project' | 'group' | 'instance';

/** One `ci_access` authorization as GitLab reads it (docs/gitlab-behaviour.md#ci_access-entries). */
export interface AccessEntry {
  readonly kind: EntryKind;
  /** Full path (projects, groups); null for `instance`. */
  readonly id: string | null;
  readonly path: DataPath;
  readonly defaultNamespace?: string;
  readonly accessAs: AccessAsMode;
  readonly impersonate?: ImpersonateConfig;
  readonly environments: readonly string[];
  readonly protectedBranchesOnly: boolean;
  readonly resourceManagement: boolean;
  /** Undefined when the entry has no `rules` key (GitLab's shipped behaviour). */
  readonly rules?: readonly AccessRule[];
}

/** The `ci_access` section reduced to what authorization reads. */
export interface CiAccessModel {
  /**
   * Entries in file order, at most the first 500 of each list, the most any release reads
   * (docs/gitlab-behaviour.md#top-level-keys-and-list-limits); `honouredEntries` keeps those of one release.
   */
  readonly projects: readonly AccessEntry[];
  readonly groups: readonly AccessEntry[];
  readonly instance: AccessEntry | null;
  /** Lower-cased id → the entry GitLab keeps: a later duplicate replaces an earlier one (docs/gitlab-behaviour.md#ci_access-entries). */
  readonly projectsById: ReadonlyMap<string, AccessEntry>;
  readonly groupsById: ReadonlyMap<string, AccessEntry>;
}

/** Every entry of the section: projects, groups, then the instance entry, each list in file order. */
export function allEntries(model: CiAccessModel): AccessEntry[] {
  return model.instance ? [...model.projects, ...model.groups, model.instance] : [...model.projects, ...model.groups];
}

/** A place where an entry names a namespace: a rule's `namespace` (its number) or `default_namespace` (null). */
export interface NamespaceSource {
  readonly path: DataPath;
  readonly template: string;
  readonly rule: number | null;
}

/** Every namespace an entry names: each rule's `namespace`, then `default_namespace`. */
export function namespaceSources(entry: AccessEntry): NamespaceSource[] {
  const sources: NamespaceSource[] = [];
  for (const rule of entry.rules ?? []) if (rule.namespace !== undefined) sources.push({ path: [...rule.path, 'namespace'], template: rule.namespace, rule: rule.number });
  if (entry.defaultNamespace !== undefined) sources.push({ path: [...entry.path, 'default_namespace'], template: entry.defaultNamespace, rule: null });
  return sources;
}

/**
 * Reads `ci_access` from configuration data. Tolerant: entries of the wrong shape are skipped (the
 * validator reports them), so a half-typed file can still be simulated.
 */
export function readCiAccess(config: unknown): CiAccessModel {
  const ciAccess = asRecord(asRecord(config)?.ci_access);
  const projects = entries(ciAccess?.projects, 'project');
  const groups = entries(ciAccess?.groups, 'group');
  const instanceData = asRecord(ciAccess?.instance);
  return {
    projects,
    groups,
    instance: instanceData ? entry(instanceData, 'instance', ['ci_access', 'instance']) : null,
    projectsById: byId(projects),
    groupsById: byId(groups),
  };
}

function entries(list: unknown, kind: 'project' | 'group'): AccessEntry[] {
  if (!Array.isArray(list)) return [];
  const key = kind === 'project' ? 'projects' : 'groups';
  const out: AccessEntry[] = [];
  list.slice(0, MAX_AUTHORIZED_ENTITIES).forEach((item, index) => {
    const data = asRecord(item);
    if (data && typeof data.id === 'string' && data.id.length > 0) out.push(entry(data, kind, ['ci_access', key, index]));
  });
  return out;
}

/** A model holding only `entry`, so a scenario exercises exactly that entry (the namespace checks decide each entry alone). */
export function singleEntryModel(entry: AccessEntry): CiAccessModel {
  const byId = new Map(entry.id ? [[entry.id.toLowerCase(), entry]] : []);
  return {
    projects: entry.kind === 'project' ? [entry] : [],
    groups: entry.kind === 'group' ? [entry] : [],
    instance: entry.kind === 'instance' ? entry : null,
    projectsById: entry.kind === 'project' ? byId : new Map(),
    groupsById: entry.kind === 'group' ? byId : new Map(),
  };
}

/** The honoured view of a model, per release limit: every face asks for it, simulations once per scenario. */
const honouredViews = new WeakMap<CiAccessModel, Map<number, CiAccessModel>>();

/**
 * The entries GitLab `version` reads: the first 100 (before 17.0) or 500 of each list, by their
 * place in the file (an entry without a usable id still counts), ids indexed again so that a
 * duplicate past the limit replaces nothing (docs/gitlab-behaviour.md#top-level-keys-and-list-limits).
 * The model itself when nothing is past the limit.
 */
export function honouredEntries(model: CiAccessModel, version: GitlabVersion): CiAccessModel {
  const limit = authorizedEntityLimit(version);
  const within = (entry: AccessEntry) => listIndex(entry) < limit;
  if (model.projects.every(within) && model.groups.every(within)) return model;
  let views = honouredViews.get(model);
  if (!views) honouredViews.set(model, (views = new Map()));
  let view = views.get(limit);
  if (!view) {
    const projects = model.projects.filter(within);
    const groups = model.groups.filter(within);
    view = { projects, groups, instance: model.instance, projectsById: byId(projects), groupsById: byId(groups) };
    views.set(limit, view);
  }
  return view;
}

/** 0-based place of a list entry in its list (`ci_access.projects[i]`); 0 for `instance`. */
export function listIndex(entry: AccessEntry): number {
  const index = entry.path[2];
  return typeof index === 'number' ? index : 0;
}

function byId(list: readonly AccessEntry[]): Map<string, AccessEntry> {
  const map = new Map<string, AccessEntry>();
  for (const e of list) map.set(e.id!.toLowerCase(), e);
  return map;
}

/** An object whose readonly fields are set one by one while it is made. */
export type Building<T> = { -readonly [K in keyof T]: T[K] };

// The optional fields are assigned one by one, in the order the entry's fields are listed: a spread
// of a new object per optional field was a good part of reading a big file's entries, while cold.
function entry(data: Record<string, unknown>, kind: EntryKind, path: DataPath): AccessEntry {
  const accessAs = asRecord(data.access_as);
  const mode: AccessAsMode = accessAs?.ci_job !== undefined ? 'ci_job' : accessAs?.impersonate !== undefined ? 'impersonate' : 'agent';
  const impersonate = asRecord(accessAs?.impersonate);
  const made: Building<AccessEntry> = { kind, id: kind === 'instance' ? null : String(data.id), path } as Building<AccessEntry>;
  if (typeof data.default_namespace === 'string') made.defaultNamespace = data.default_namespace;
  made.accessAs = mode;
  if (mode === 'impersonate' && impersonate) {
    const identity: Building<ImpersonateConfig> = { username: String(impersonate.username ?? '') } as Building<ImpersonateConfig>;
    if (typeof impersonate.uid === 'string') identity.uid = impersonate.uid;
    identity.groups = strings(impersonate.groups);
    identity.extra = (Array.isArray(impersonate.extra) ? impersonate.extra : []).map(asRecord).filter((e) => e !== null).map((e) => ({ key: String(e.key ?? ''), val: strings(e.val) }));
    made.impersonate = identity;
  }
  made.environments = strings(data.environments);
  made.protectedBranchesOnly = data.protected_branches_only === true;
  made.resourceManagement = asRecord(data.resource_management)?.enabled === true;
  if (Array.isArray(data.rules)) made.rules = rules(data.rules, path);
  return made;
}

function rules(list: unknown[], entryPath: DataPath): AccessRule[] {
  const out: AccessRule[] = [];
  for (let index = 0; index < list.length; index++) {
    const data = asRecord(list[index]);
    if (!data) continue;
    const rule: Building<AccessRule> = { number: index + 1, path: [...entryPath, 'rules', index] };
    if (typeof data.if === 'string') rule.if = data.if;
    if (typeof data.namespace === 'string') rule.namespace = data.namespace;
    if (data.when === 'never') rule.when = 'never';
    out.push(rule);
  }
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
