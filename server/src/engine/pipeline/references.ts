/**
 * `!reference [job, key, …]` as GitLab resolves it (lib/gitlab/ci/config/yaml/tags/reference.rb and
 * resolver.rb): after includes and `extends`, the path is looked up in the whole configuration and the
 * value found is itself resolved; a reference that cannot be found, or that is part of a circular
 * chain, is an error. A reference inside a list yields a nested list, which the keywords that take
 * lists (`script`, `rules`, …) flatten (https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags:
 * nesting up to 10 levels).
 */
import type { TreeProblem, YEntry, YMap, YNode, YRef } from './tree';

/** How many `!reference` tags deep a value may be built (https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags). */
export const MAX_REFERENCE_NESTING = 10;

/**
 * Resolves references lazily, each node once; problems are appended to `problems`. It also notes which
 * top-level keys each resolved value's references read, so a reader can tell what a job depends on.
 */
export class ReferenceResolver {
  private readonly done = new Map<YNode, YNode>();
  private readonly inProgress = new Set<YRef>();
  private depth = 0;
  /** The top-level keys references read, in the order read; a node's share is the span its resolution added. */
  private readonly consulted: string[] = [];
  private readonly consultedOf = new Map<YNode, readonly string[]>();

  constructor(
    private readonly root: YMap,
    private readonly problems: TreeProblem[],
  ) {}

  /** `node` with every `!reference` in it replaced by what it names (null where it cannot be resolved). */
  resolve(node: YNode): YNode {
    const known = this.done.get(node);
    if (known) {
      const keys = this.consultedOf.get(node);
      if (keys) for (const key of keys) this.consulted.push(key);
      return known;
    }
    const mark = this.consulted.length;
    let out: YNode;
    switch (node.kind) {
      case 'scalar':
        return node;
      case 'ref':
        out = this.resolveRef(node);
        if (this.inProgress.size > 0) return out; // Inside another reference's chain: depth-dependent, not memoized.
        break;
      case 'seq': {
        const items = node.items.map((item) => this.resolve(item));
        out = items.every((item, i) => item === node.items[i]) ? node : { kind: 'seq', items, loc: node.loc };
        break;
      }
      case 'map': {
        // Copied only once a value changes: most mappings hold no reference.
        let entries: Map<string, YEntry> | null = null;
        for (const [key, entry] of node.entries) {
          const value = this.resolve(entry.value);
          if (value !== entry.value) (entries ??= new Map(node.entries)).set(key, { ...entry, value });
        }
        out = entries ? { kind: 'map', entries, loc: node.loc } : node;
        break;
      }
    }
    if (this.consulted.length > mark) this.consultedOf.set(node, this.consulted.slice(mark));
    this.done.set(node, out);
    return out;
  }

  /** The top-level keys the references in `node` (resolved before) read, nested ones included; repeats possible. */
  consultedBy(node: YNode): readonly string[] {
    return this.consultedOf.get(node) ?? [];
  }

  private resolveRef(ref: YRef): YNode {
    const missing: YNode = { kind: 'scalar', value: null, text: '', loc: ref.loc };
    const shown = ref.path ? `[${ref.path.join(', ')}]` : '';
    if (!ref.path) {
      this.problem(ref, 'pipeline.referenceInvalid', '!reference must be a non-empty list of keys, e.g. !reference [.setup, script].');
      return missing;
    }
    this.consulted.push(ref.path[0]);
    if (this.inProgress.has(ref)) {
      this.problem(ref, 'pipeline.referenceLoop', `!reference ${shown} is part of a circular chain: GitLab rejects the pipeline.`);
      return missing;
    }
    if (this.depth >= MAX_REFERENCE_NESTING) {
      this.problem(ref, 'pipeline.referenceTooDeep', `!reference ${shown} is nested more than ${MAX_REFERENCE_NESTING} levels deep: GitLab rejects the pipeline.`);
      return missing;
    }
    let target: YNode | undefined = this.root;
    for (const key of ref.path) target = target?.kind === 'map' ? target.entries.get(key)?.value : undefined;
    if (!target || (target.kind === 'scalar' && target.value === null)) {
      this.problem(ref, 'pipeline.referenceMissing', `!reference ${shown} could not be found: GitLab rejects the pipeline.`);
      return missing;
    }
    this.inProgress.add(ref);
    this.depth++;
    try {
      return this.resolve(target);
    } finally {
      this.depth--;
      this.inProgress.delete(ref);
    }
  }

  private problem(ref: YRef, code: string, message: string): void {
    this.problems.push({ loc: ref.loc, severity: 'error', code, message });
  }
}

/**
 * How many items a flattened list may have here. Aliases of aliases can make a few lines stand for
 * millions of script lines (GitLab refuses such a file as too big); past this, the rest is not read.
 */
export const MAX_FLATTENED_ITEMS = 10_000;

/** A list with the nested lists `!reference` produced flattened into it, as GitLab flattens `script` and `rules`. */
export function flatten(node: YNode | undefined): YNode[] {
  if (!node) return [];
  if (node.kind !== 'seq') return [node];
  const out: YNode[] = [];
  // Iterative, depth-first, left to right: a stack of (list, next index, level).
  const stack: { items: readonly YNode[]; next: number; level: number }[] = [{ items: node.items, next: 0, level: 0 }];
  while (stack.length && out.length < MAX_FLATTENED_ITEMS) {
    const top = stack[stack.length - 1];
    if (top.next >= top.items.length) {
      stack.pop();
      continue;
    }
    const item = top.items[top.next++];
    if (item.kind === 'seq' && top.level < MAX_REFERENCE_NESTING) stack.push({ items: item.items, next: 0, level: top.level + 1 });
    else out.push(item);
  }
  return out;
}
