import { isAlias, isCollection, isPair, isScalar, type Document, type Node } from 'yaml';

/** Maps an offset of the text a node was parsed from to its offset in the document. */
export type OffsetMap = (offset: number) => number;

/**
 * Moves a parsed tree to where its text now stands in the document by rewriting every node's
 * `range` in place, and drops the parser's CST tokens, which nothing reads after parsing and which
 * would otherwise keep a second copy of the text alive per node.
 */
export function moveNodes(root: unknown, map: OffsetMap): void {
  walkTree(root, map, false);
}

/**
 * Makes a freshly parsed tree ready to keep, in one walk: moved by `by` characters as
 * {@link moveNodes} moves it, and every collection given an items array of its exact length. The
 * parser builds those by `push`, which leaves room for 17 items or more: in a file of 50,000
 * entries, each of about 7 collections, the unused room alone is tens of megabytes.
 */
export function settleParsedTree(root: unknown, by: number): void {
  walkTree(root, by, true);
}

/** The walk of {@link moveNodes} and {@link settleParsedTree}: `move` is a shift in characters or an offset map. */
function walkTree(root: unknown, move: number | OffsetMap, trimItems: boolean): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (isPair(node)) {
      stack.push(node.key, node.value);
      continue;
    }
    if (!isScalar(node) && !isCollection(node) && !isAlias(node)) continue;
    const n = node as Node & { srcToken?: unknown };
    const range = n.range;
    if (range) {
      // In place: new arrays would be garbage.
      if (typeof move === 'number') {
        range[0] += move;
        range[1] += move;
        range[2] += move;
      } else {
        range[0] = move(range[0]);
        range[1] = move(range[1]);
        range[2] = move(range[2]);
      }
    }
    if (n.srcToken) delete n.srcToken;
    if (isCollection(node)) {
      const items = trimItems ? (node.items = node.items.slice()) : node.items;
      for (let i = 0; i < items.length; i++) stack.push(items[i]);
    }
  }
}

/** Moves a whole document: its contents and its own range. */
export function moveDocument(doc: Document.Parsed, map: OffsetMap): void {
  moveNodes(doc.contents, map);
  if (doc.range) doc.range = [map(doc.range[0]), map(doc.range[1]), map(doc.range[2])];
}

/** The items of a root made by {@link placedLazily}, and the move not yet applied to them. */
const ITEMS = Symbol('items');
const PENDING = Symbol('pending move');

interface LazyRoot {
  range?: [number, number, number] | null;
  [ITEMS]: unknown[];
  [PENDING]: number;
}

/** `items` of a lazily placed root: the nodes inside catch up with the root's moves when first read. */
const LAZY_ITEMS: PropertyDescriptor = {
  get(this: LazyRoot): unknown[] {
    const by = this[PENDING];
    if (by !== 0) {
      this[PENDING] = 0;
      for (const item of this[ITEMS]) walkTree(item, by, false);
    }
    return this[ITEMS];
  },
  set(this: LazyRoot, items: unknown[]): void {
    this[ITEMS] = items;
  },
  enumerable: true,
  configurable: true,
};

/** One prototype per node class (YAMLMap, YAMLSeq): the class's own, with `items` as {@link LAZY_ITEMS}. */
const lazyPrototypes = new WeakMap<object, object>();

/**
 * A copy of a collection (a list entry's tree, already at its place in the document) whose inner
 * nodes follow its moves ({@link moveTree}) only when something reads its `items`. An edit moves
 * every entry after it; with this it rewrites one range per entry instead of one per node, and the
 * nodes of an entry nobody looks into (most of them, in a big file) are moved once, when read, by
 * all the edits since. Readers see the same tree: same class, same fields, ranges where the text is.
 * Scalars and aliases (no inner nodes) are returned as they are.
 */
export function placedLazily(root: Node): Node {
  if (!isCollection(root)) return root;
  const proto = Object.getPrototypeOf(root) as object;
  let lazy = lazyPrototypes.get(proto);
  if (!lazy) lazyPrototypes.set(proto, (lazy = Object.create(proto, { items: LAZY_ITEMS }) as object));
  // Every own property but `items`, which the prototype now serves. Plain fields are assigned (the
  // same property, and far cheaper than defining it); `schema`, and the node-type symbol of a node
  // the library built, are not enumerable and are defined as they are.
  const copy = Object.create(lazy) as LazyRoot & Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(root)) {
    if (key === 'items') continue;
    const field = Object.getOwnPropertyDescriptor(root, key)!;
    if (field.enumerable && field.writable && field.configurable && 'value' in field) copy[key] = field.value;
    else Object.defineProperty(copy, key, field);
  }
  copy[ITEMS] = root.items;
  copy[PENDING] = 0;
  return copy as unknown as Node;
}

/** Moves a tree by `by` characters: a root from {@link placedLazily} at once and its inner nodes when read, any other tree whole. */
export function moveTree(root: Node, by: number): void {
  if (by === 0) return;
  const lazy = root as unknown as Partial<LazyRoot>;
  if (lazy[PENDING] === undefined) {
    walkTree(root, by, false);
    return;
  }
  const range = lazy.range;
  if (range) {
    range[0] += by;
    range[1] += by;
    range[2] += by;
  }
  lazy[PENDING] += by;
}
