import type { AccessEntry, CiAccessModel } from '../../server/src/engine/access/model';

/** A model holding only `entry`, so a scenario exercises exactly that entry (as the namespace checks decide it). */
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
