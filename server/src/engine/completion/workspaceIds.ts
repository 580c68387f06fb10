import { asRecord } from '../data';
import { sortKey, type CompletionCandidate, type KnownIds } from './types';

/** Which list an id belongs to: projects (`ci_access.projects`, `user_access.projects`) or groups. */
export type IdKind = 'projects' | 'groups';

/** The project and group ids one agent configuration mentions (`ci_access` and `user_access`). */
export function idsOfConfig(value: unknown): { readonly projects: string[]; readonly groups: string[] } {
  const root = asRecord(value);
  const projects: string[] = [];
  const groups: string[] = [];
  for (const section of ['ci_access', 'user_access']) {
    const record = asRecord(root?.[section]);
    for (const [kind, into] of [['projects', projects], ['groups', groups]] as const) {
      const list = record?.[kind];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        const id = asRecord(entry)?.id;
        if (typeof id === 'string' && id.trim()) into.push(id.trim());
      }
    }
  }
  return { projects, groups };
}

/** Merges per-source id lists into the id → sources index completion reads. */
export function indexIds(sources: ReadonlyMap<string, { readonly projects: readonly string[]; readonly groups: readonly string[] }>): KnownIds {
  const projects = new Map<string, string[]>();
  const groups = new Map<string, string[]>();
  for (const [source, ids] of sources) {
    for (const [list, into] of [[ids.projects, projects], [ids.groups, groups]] as const) {
      for (const id of new Set(list)) {
        const seen = into.get(id);
        if (seen) seen.push(source);
        else into.set(id, [source]);
      }
    }
  }
  return { projects, groups };
}

/**
 * Ids used elsewhere in the workspace for an `id:` value, minus those already in the list being
 * edited (a second entry with the same id would be a duplicate, docs/gitlab-behaviour.md#ci_access-entries). Ids used in more places
 * sort first.
 */
export function idCandidates(kind: IdKind, known: KnownIds, alreadyInList: ReadonlySet<string>, replace: readonly [number, number]): CompletionCandidate[] {
  const entries = [...known[kind]].filter(([id]) => !alreadyInList.has(id.toLowerCase()));
  entries.sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  return entries.map(([id, sources], i) => ({
    label: id,
    kind: 'id' as const,
    insertText: id,
    snippet: false,
    replace,
    sortText: sortKey(0, i),
    detail: `used in ${sources.join(', ')}`,
    documentation: `${kind === 'projects' ? 'Project' : 'Group'} id already used in: ${sources.map((s) => `\`${s}\``).join(', ')}.`,
  }));
}
