import type { Node } from 'yaml';
import { asRecord } from '../data';
import type { EngineDiagnostic } from '../diagnostics';
import { authorizedEntityLimit, ciEntryPath, hasBehaviour, keyAddedAfter, VERSIONED_BEHAVIOURS, type GitlabVersion, type VersionedBehaviour } from '../gitlab/gitlabVersions';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';
import type { CiAccessModel, DataPath } from './model';
import { topLevelNamespace } from './projectPath';

/** An entry of another top-level group in a release that drops it: GitLab ignores it without a message. */
export const CROSS_TOP_LEVEL_IGNORED_CODE = 'authorization.crossTopLevel';
/** The same in a release that can count it: only with the administrator's instance-level authorization. */
export const CROSS_TOP_LEVEL_SETTING_CODE = 'authorization.crossTopLevelSetting';

/** `ci_access.instance` in a release that reads it: it authorizes only with the administrator's instance-level authorization. */
export const INSTANCE_SETTING_CODE = 'authorization.instanceSetting';

/** Where an administrator enables it (docs/gitlab-behaviour.md#authorization-order); the simulation's explanations name it too. */
export const INSTANCE_LEVEL_SETTING =
  'an administrator enables instance-level authorization (Admin > Settings > General > GitLab agent for Kubernetes > "Enable instance level authorization", application setting organization_cluster_agent_authorization_enabled; self-managed only)';

/**
 * Entries of `ci_access` and `user_access` whose project or group lies outside the top-level group
 * of the agent configuration project (docs/gitlab-behaviour.md#authorization-order). Before the
 * release that allows them (18.1 for `ci_access`, 18.4 for `user_access`) GitLab drops them
 * silently: a warning saying from which release and with which setting they count. From that
 * release: a note that they count only with the instance setting. Nothing when the configuration
 * project is unknown. Local to each entry, and only over the entries the release reads, as the
 * editor re-checks entries one at a time.
 */
export function crossTopLevelDiagnostics(parsed: ParsedYaml, ciAccess: CiAccessModel, options: { readonly configProjectPath: string; readonly gitlabVersion: GitlabVersion }): EngineDiagnostic[] {
  const home = topLevelNamespace(options.configProjectPath);
  if (!home || !parsed.doc) return [];
  const out: EngineDiagnostic[] = [];
  const check = (section: 'ci_access' | 'user_access', kind: 'project' | 'group', id: string, path: DataPath) => {
    const top = topLevelNamespace(id);
    if (!top || top === home) return;
    const span = nodeSpan(nodeAtPath(parsed.doc!, [...path, 'id'])?.node);
    if (!span) return;
    const behaviour: VersionedBehaviour = section === 'ci_access' ? 'crossTopLevelCiAccess' : 'crossTopLevelUserAccess';
    const added = VERSIONED_BEHAVIOURS[behaviour].added;
    const first = (path: string) => path.split('/').find(Boolean) ?? path;
    const where = `${section} ${kind} "${id}" (top-level group "${first(id)}") is outside "${first(options.configProjectPath)}", the top-level group of the agent configuration project ${options.configProjectPath}`;
    const allowed = hasBehaviour(behaviour, options.gitlabVersion);
    out.push({
      range: parsed.index.range(span[0], span[1]),
      severity: allowed ? 'information' : 'warning',
      code: allowed ? CROSS_TOP_LEVEL_SETTING_CODE : CROSS_TOP_LEVEL_IGNORED_CODE,
      message: allowed
        ? `The ${where}: GitLab counts it only when ${INSTANCE_LEVEL_SETTING}; otherwise it ignores the entry without a message.`
        : `The ${where}: GitLab ${options.gitlabVersion} ignores the entry without a message. From GitLab ${added}, ${section} may name projects and groups of other top-level groups when ${INSTANCE_LEVEL_SETTING}.`,
      data: { section, added, version: options.gitlabVersion, configProjectPath: options.configProjectPath },
    });
  };
  for (const entry of [...ciAccess.projects, ...ciAccess.groups]) {
    if (entry.kind !== 'instance' && entry.id) check('ci_access', entry.kind, entry.id, entry.path);
  }
  const userAccess = asRecord(asRecord(parsed.value)?.user_access);
  const limit = authorizedEntityLimit(options.gitlabVersion);
  for (const [key, kind] of [['projects', 'project'], ['groups', 'group']] as const) {
    const list = userAccess?.[key];
    if (!Array.isArray(list)) continue;
    list.slice(0, limit).forEach((item, index) => {
      const id = asRecord(item)?.id;
      if (typeof id === 'string' && id.length > 0) check('user_access', kind, id, ['user_access', key, index]);
    });
  }
  return out;
}

/**
 * A note on `ci_access.instance` (docs/gitlab-behaviour.md#ci_access-entries): Rails stores it only
 * when an administrator enables instance-level authorization, a setting GitLab.com does not offer,
 * and otherwise drops it without a message. None before the release that added the key (an error
 * there already).
 */
export function instanceSettingDiagnostics(parsed: ParsedYaml, ciAccess: CiAccessModel, gitlabVersion: GitlabVersion): EngineDiagnostic[] {
  if (!ciAccess.instance || !parsed.doc || keyAddedAfter(ciEntryPath('instance'), gitlabVersion)) return [];
  const key = nodeAtPath(parsed.doc, ciAccess.instance.path)?.pair?.key;
  const span = nodeSpan(key as Node | null | undefined);
  if (!span) return [];
  return [
    {
      range: parsed.index.range(span[0], span[1]),
      severity: 'information',
      code: INSTANCE_SETTING_CODE,
      message: `ci_access.instance authorizes the projects of the whole instance only when ${INSTANCE_LEVEL_SETTING}; otherwise, and always on GitLab.com, GitLab ignores it without a message.`,
    },
  ];
}
