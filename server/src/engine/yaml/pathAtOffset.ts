import { isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import { keyText } from './yamlDocument';

/** Where an offset falls in the YAML tree: the data path of the key or value under it. */
export interface PathAtOffset {
  readonly path: (string | number)[];
  /** True when the offset is on a mapping key, false when on a value. */
  readonly onKey: boolean;
  /** [start, end) of the key or scalar value under the offset. */
  readonly span: [number, number];
}

/** Finds the innermost key or scalar value containing `offset`. */
export function pathAtOffset(doc: Document.Parsed, offset: number): PathAtOffset | null {
  return visit(doc.contents, offset, []);
}

function contains(node: Node | null | undefined, offset: number): boolean {
  return Boolean(node?.range && node.range[0] <= offset && offset <= node.range[1]);
}

function visit(node: unknown, offset: number, path: (string | number)[]): PathAtOffset | null {
  if (isMap(node)) {
    for (const item of node.items) {
      if (!isPair(item)) continue;
      const key = item.key as Node | null;
      const name = keyText(key);
      if (key?.range && contains(key, offset)) return { path: [...path, name], onKey: true, span: [key.range[0], key.range[1]] };
      const value = item.value as Node | null;
      if (value && contains(value, offset)) return visit(value, offset, [...path, name]);
    }
    return null;
  }
  if (isSeq(node)) {
    for (const [i, item] of node.items.entries()) {
      if (contains(item as Node, offset)) return visit(item, offset, [...path, i]);
    }
    return null;
  }
  if (isScalar(node) && node.range) return { path, onKey: false, span: [node.range[0], node.range[1]] };
  return null;
}
