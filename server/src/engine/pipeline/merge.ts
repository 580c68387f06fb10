import type { YEntry, YMap, YNode } from './tree';

/**
 * Ruby's `Hash#deep_merge` over located trees, as GitLab uses it to merge included files and
 * `extends` parents (lib/gitlab/ci/config/extendable/entry.rb, lib/gitlab/ci/config/external/processor.rb):
 * mappings merge key by key, recursively; any other value (a list, a scalar, a `!reference`) of
 * `over` replaces the one of `base`, so lists are never concatenated
 * (https://docs.gitlab.com/ci/yaml/yaml_optimization/#merge-details). Keys keep `base`'s order, new keys
 * follow. Nodes are shared, never copied, where nothing changes.
 */
export function deepMerge(base: YNode, over: YNode): YNode {
  if (base.kind !== 'map' || over.kind !== 'map') return over;
  return mergeMaps(base, over);
}

/**
 * Merges already computed, per pair of nodes. Nodes are immutable and aliases share them, so a file
 * whose aliases make a small text stand for a huge tree ("billion laughs") merges in time linear in
 * its text, not in the tree it stands for.
 */
const merged = new WeakMap<YMap, WeakMap<YMap, YMap>>();

export function mergeMaps(base: YMap, over: YMap): YMap {
  if (base === over) return over;
  let byOver = merged.get(base);
  const known = byOver?.get(over);
  if (known) return known;
  const result = computeMerge(base, over);
  if (!byOver) merged.set(base, (byOver = new WeakMap()));
  byOver.set(over, result);
  return result;
}

function computeMerge(base: YMap, over: YMap): YMap {
  if (base.entries.size === 0) return over;
  if (over.entries.size === 0) return { kind: 'map', entries: base.entries, loc: over.loc };
  const entries = new Map<string, YEntry>(base.entries);
  for (const [key, entry] of over.entries) {
    const old = entries.get(key);
    entries.set(key, old ? { key, keyLoc: entry.keyLoc, value: deepMerge(old.value, entry.value) } : entry);
  }
  return { kind: 'map', entries, loc: over.loc };
}
