/**
 * `extends` as GitLab's `Extendable` applies it (lib/gitlab/ci/config/extendable/entry.rb): the parents,
 * in the order listed, are deep-merged (each already extended itself), then the job's own keys on top;
 * mappings merge, lists and scalars are replaced (https://docs.gitlab.com/ci/yaml/#extends,
 * https://docs.gitlab.com/ci/yaml/yaml_optimization/#use-extends-to-reuse-configuration-sections).
 * GitLab rejects an unknown parent, a parent that is not a mapping, a loop, and a chain with more
 * than 10 ancestors (`MAX_NESTING_LEVELS = 10`, "up to eleven levels of inheritance" in the docs).
 *
 * The extends graph is walked without recursion and each key is merged once, so a file of thousands
 * of jobs, or a chain thousands long, costs time linear in its size.
 */
import { deepMerge } from './merge';
import type { TreeProblem, YEntry, YMap, YNode } from './tree';

/** GitLab's `Extendable::Entry::MAX_NESTING_LEVELS`: more ancestors than this is an error. */
export const MAX_EXTENDS_ANCESTORS = 10;

/** The top-level mapping with every `extends` applied; problems are appended to `problems`. */
export function applyExtends(root: YMap, problems: TreeProblem[]): YMap {
  const parentsOf = new Map<string, { names: string[]; entry: YEntry }>();
  for (const [key, entry] of root.entries) {
    const ext = entry.value.kind === 'map' ? entry.value.entries.get('extends') : undefined;
    if (!ext) continue;
    const names = extendsNames(ext.value);
    if (names === null) {
      problems.push({ loc: ext.value.loc, severity: 'error', code: 'pipeline.extendsShape', message: `${key}: extends must be a job name or a list of job names.` });
      continue;
    }
    parentsOf.set(key, { names, entry: ext });
  }
  if (parentsOf.size === 0) return root;

  const extended = new Map<string, YNode>();
  const height = new Map<string, number>();
  const visiting = new Set<string>();
  for (const start of parentsOf.keys()) {
    if (extended.has(start)) continue;
    const stack: { key: string; next: number }[] = [{ key: start, next: 0 }];
    visiting.add(start);
    while (stack.length) {
      const frame = stack[stack.length - 1];
      const names = parentsOf.get(frame.key)!.names;
      if (frame.next < names.length) {
        const parent = names[frame.next++];
        if (parentsOf.has(parent) && !extended.has(parent) && !visiting.has(parent)) {
          visiting.add(parent);
          stack.push({ key: parent, next: 0 });
        }
        continue;
      }
      stack.pop();
      visiting.delete(frame.key);
      finish(frame.key, root, parentsOf, extended, height, visiting, problems);
    }
  }
  const entries = new Map(root.entries);
  for (const [key, value] of extended) {
    const entry = entries.get(key)!;
    entries.set(key, { ...entry, value });
  }
  return { kind: 'map', entries, loc: root.loc };
}

/** The parents an entry's value names in `extends`, as written; none when it has no valid `extends`. */
export function extendsParents(value: YNode | undefined): readonly string[] {
  const ext = value?.kind === 'map' ? value.entries.get('extends') : undefined;
  return (ext && extendsNames(ext.value)) ?? [];
}

function extendsNames(node: YNode): string[] | null {
  if (node.kind === 'scalar' && node.value !== null) return [node.text];
  if (node.kind === 'seq' && node.items.every((i) => i.kind === 'scalar' && i.value !== null)) return node.items.map((i) => (i.kind === 'scalar' ? i.text : ''));
  return null;
}

/** Merges `key`'s parents (all finished, or on the walk's path: a loop) and its own keys. */
function finish(
  key: string,
  root: YMap,
  parentsOf: ReadonlyMap<string, { names: string[]; entry: YEntry }>,
  extended: Map<string, YNode>,
  height: Map<string, number>,
  visiting: ReadonlySet<string>,
  problems: TreeProblem[],
): void {
  const { names, entry } = parentsOf.get(key)!;
  const own = root.entries.get(key)!.value;
  let merged: YNode | null = null;
  let levels = 0;
  const unknown: string[] = [];
  const invalid: string[] = [];
  for (const name of names) {
    if (name === key || visiting.has(name)) {
      problems.push({ loc: entry.value.loc, severity: 'error', code: 'pipeline.extendsLoop', message: `${key}: circular dependency detected in \`extends\` (through ${name}): GitLab rejects the pipeline.` });
      continue;
    }
    const parent = root.entries.get(name);
    if (!parent) {
      unknown.push(name);
      continue;
    }
    const value = extended.get(name) ?? parent.value;
    if (value.kind !== 'map') {
      invalid.push(name);
      continue;
    }
    levels = Math.max(levels, 1 + (height.get(name) ?? 0));
    merged = merged ? deepMerge(merged, value) : value;
  }
  if (unknown.length) problems.push({ loc: entry.value.loc, severity: 'error', code: 'pipeline.extendsUnknown', message: `${key}: unknown keys in \`extends\` (${unknown.join(', ')}): GitLab rejects the pipeline.` });
  if (invalid.length) problems.push({ loc: entry.value.loc, severity: 'error', code: 'pipeline.extendsInvalid', message: `${key}: invalid base hashes in \`extends\` (${invalid.join(', ')}): they are not mappings.` });
  height.set(key, levels);
  // Reported once, where the chain first goes past the limit (GitLab names the entry at that depth).
  if (levels === MAX_EXTENDS_ANCESTORS + 1) {
    problems.push({ loc: entry.value.loc, severity: 'error', code: 'pipeline.extendsTooDeep', message: `${key}: nesting too deep in \`extends\`: GitLab allows ${MAX_EXTENDS_ANCESTORS + 1} levels of inheritance at most.` });
  }
  extended.set(key, merged ? deepMerge(merged, own) : own);
}
