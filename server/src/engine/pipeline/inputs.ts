/**
 * CI/CD inputs (https://docs.gitlab.com/ci/inputs/): a file declares them in its `spec:inputs`
 * header; the file that includes it gives them (`include: … inputs:`), the others take their
 * `default`; GitLab then replaces each `$[[ inputs.<name> ]]` in the file's values
 * (lib/gitlab/ci/interpolation/block.rb, `/\$\[\[\s*(?<access>.*?)\s*\]\]/`). Only a plain
 * `inputs.<name>` access is replaced here: one with functions (`| expand_vars`), or an input
 * without a value, stays as written and is named as set outside the file where it matters.
 * docs/gitlab-behaviour.md#pipeline-reading.
 */
import type { YMap, YNode } from './tree';
import { scalarText } from './values';

const BLOCK = /\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]/g;
/** Any block reading an input, plain or through functions (`$[[ inputs.x | truncate(0,8) ]]`). */
const ANY_BLOCK = /\$\[\[\s*inputs\.([A-Za-z0-9_-]+)[^\]]*\]\]/g;

/** The inputs a text still reads (the blocks interpolation left: no value here, or functions). */
export function inputsReadBy(text: string): string[] {
  return [...new Set([...text.matchAll(ANY_BLOCK)].map((m) => m[1]))];
}

/** The inputs' values: those `given` where the file is included, over the header's defaults. */
export function inputValues(header: YNode | undefined, given: YNode | undefined): Map<string, string> {
  const values = new Map<string, string>();
  const spec = header?.kind === 'map' ? header.entries.get('spec')?.value : undefined;
  const declared = spec?.kind === 'map' ? spec.entries.get('inputs')?.value : undefined;
  if (declared?.kind === 'map') {
    for (const [name, entry] of declared.entries) {
      const fallback = entry.value.kind === 'map' ? scalarText(entry.value.entries.get('default')?.value) : undefined;
      if (fallback !== undefined) values.set(name, fallback);
    }
  }
  if (given?.kind === 'map') {
    for (const [name, entry] of given.entries) {
      const value = scalarText(entry.value);
      if (value !== undefined) values.set(name, value);
    }
  }
  return values;
}

/** `node` with the known inputs replaced in its string values (locations kept: the values are where the blocks are). */
export function interpolateInputs(node: YMap, values: ReadonlyMap<string, string>): YMap;
export function interpolateInputs(node: YNode, values: ReadonlyMap<string, string>): YNode;
export function interpolateInputs(node: YNode, values: ReadonlyMap<string, string>): YNode {
  if (!values.size) return node;
  switch (node.kind) {
    case 'scalar': {
      if (typeof node.value !== 'string' || !node.value.includes('$[[')) return node;
      const replaced = node.value.replace(BLOCK, (block, name: string) => values.get(name) ?? block);
      return replaced === node.value ? node : { ...node, value: replaced, text: replaced };
    }
    case 'seq':
      return { ...node, items: node.items.map((item) => interpolateInputs(item, values)) };
    case 'map':
      return { ...node, entries: new Map([...node.entries].map(([key, entry]) => [key, { ...entry, value: interpolateInputs(entry.value, values) }])) };
    default:
      return node;
  }
}
