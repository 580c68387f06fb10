import { isAlias, isCollection, isPair, isScalar, type Document, type Node } from 'yaml';

/** Maps an offset of the text a node was parsed from to its offset in the document. */
export type OffsetMap = (offset: number) => number;

/** A node's `range` array, moved in place. */
export type NodeRange = [number, number, number];

/**
 * Moves a parsed tree to where its text now stands in the document by rewriting every node's
 * `range` in place, and drops the parser's CST tokens, which nothing reads after parsing and which
 * would otherwise keep a second copy of the text alive per node. Returns the ranges it moved, so
 * that the tree can be moved again without walking it ({@link shiftRanges}).
 */
export function moveNodes(root: unknown, map: OffsetMap): NodeRange[] {
  const ranges: NodeRange[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (isPair(node)) {
      stack.push(node.key, node.value);
      continue;
    }
    if (!isScalar(node) && !isCollection(node) && !isAlias(node)) continue;
    const n = node as Node & { srcToken?: unknown };
    if (n.range) {
      // In place: one keystroke moves the nodes of thousands of entries, new arrays would be garbage.
      n.range[0] = map(n.range[0]);
      n.range[1] = map(n.range[1]);
      n.range[2] = map(n.range[2]);
      ranges.push(n.range);
    }
    if (n.srcToken) delete n.srcToken;
    if (isCollection(node)) stack.push(...node.items);
  }
  return ranges;
}

/** Moves ranges collected by {@link moveNodes} by `by` characters: a flat loop, no tree walk. */
export function shiftRanges(ranges: readonly NodeRange[], by: number): void {
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i];
    range[0] += by;
    range[1] += by;
    range[2] += by;
  }
}

/** Moves a whole document: its contents and its own range. */
export function moveDocument(doc: Document.Parsed, map: OffsetMap): void {
  moveNodes(doc.contents, map);
  if (doc.range) doc.range = [map(doc.range[0]), map(doc.range[1]), map(doc.range[2])];
}
