/**
 * GitLab's expansion of a job value (`environment:name`, `environment:kubernetes:agent`): first
 * `Collection#sort_and_expand_all` (lib/gitlab/ci/variables/collection.rb) expands the variables in
 * one another, in dependency order, leaving references to unknown variables as written; then
 * `ExpandVariables.expand` expands the value, an unknown variable becoming empty
 * (docs/gitlab-behaviour.md#variable-expansion). When the variables' references form a cycle GitLab
 * expands none of them (and fails the job), so their values stay as written.
 *
 * Only the variables the value reaches, directly or through other values, are looked up and
 * expanded: the others cannot change the result, and a scenario has dozens.
 */
import { findVariableReferences, replaceReferences } from '../vars/expand';

export interface ExpandedName {
  readonly name: string;
  /** Variables the value refers to that have no value here (expanded to ""). */
  readonly unresolved: string[];
}

/** The names `text` refers to, in order (with repeats). */
function referencedNames(text: string): string[] {
  return findVariableReferences(text).map((ref) => ref.name);
}

/** `text` expanded with the variables `lookup` gives (undefined: not defined). */
export function expandWith(text: string, lookup: (name: string) => string | undefined): ExpandedName {
  const raw = new Map<string, string>();
  const unknown = new Set<string>();
  const known = (name: string): boolean => {
    if (raw.has(name)) return true;
    if (unknown.has(name)) return false;
    const value = lookup(name);
    if (value === undefined) unknown.add(name);
    else raw.set(name, value);
    return value !== undefined;
  };
  const refsOf = new Map<string, string[]>();
  const pending = referencedNames(text).filter(known);
  while (pending.length) {
    const name = pending.pop()!;
    if (refsOf.has(name)) continue;
    const refs = referencedNames(raw.get(name)!).filter(known);
    refsOf.set(name, refs);
    pending.push(...refs);
  }
  const values = new Map(raw);
  const order = refsOf.size ? topologicalOrder(refsOf) : null;
  // expand_existing: references to unknown variables stay as written.
  if (order) for (const name of order) values.set(name, replaceReferences(raw.get(name)!, (n) => values.get(n)));
  // expand: an unknown variable becomes "".
  const name = replaceReferences(text, (n) => values.get(n) ?? '');
  const unresolved = [...new Set(referencedNames(text).filter((n) => !values.has(n)))];
  return { name, unresolved };
}

/** Names with the ones they refer to first; null when the references form a cycle. Iterative. */
function topologicalOrder(refsOf: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const order: string[] = [];
  for (const start of refsOf.keys()) {
    if (state.has(start)) continue;
    const stack: { name: string; next: number }[] = [{ name: start, next: 0 }];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const refs = refsOf.get(top.name) ?? [];
      if (top.next < refs.length) {
        const ref = refs[top.next++];
        if (state.get(ref) === 1) return null;
        if (!state.has(ref)) {
          state.set(ref, 1);
          stack.push({ name: ref, next: 0 });
        }
        continue;
      }
      stack.pop();
      state.set(top.name, 2);
      order.push(top.name);
    }
  }
  return order;
}
