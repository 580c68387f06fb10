import { isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { TextIndex } from '../text/textIndex';
import type { Range } from '../diagnostics';
import { keyText } from '../yaml/yamlDocument';

/** One outline node: a mapping key, or a list item named after its `id`/`name` when it has one. */
export interface OutlineNode {
  readonly name: string;
  readonly detail?: string;
  readonly kind: 'key' | 'item';
  /** The whole entry (key and value). */
  readonly range: Range;
  /** The key, or the item's first line. */
  readonly selectionRange: Range;
  readonly children: OutlineNode[];
}

/** The document outline from the YAML tree, used for symbols, folding and selection ranges. */
export function outline(doc: Document.Parsed, index: TextIndex): OutlineNode[] {
  return children(doc.contents, index);
}

function children(node: unknown, index: TextIndex): OutlineNode[] {
  if (isMap(node)) {
    return node.items.flatMap((pair) => {
      if (!isPair(pair)) return [];
      const key = pair.key as Node | null;
      const value = pair.value as Node | null;
      if (!key?.range) return [];
      const end = value?.range ? value.range[1] : key.range[1];
      return [
        {
          name: keyText(key),
          ...(isScalar(value) && value.source !== undefined ? { detail: String(value.source) } : {}),
          kind: 'key' as const,
          range: index.range(key.range[0], end),
          selectionRange: index.range(key.range[0], key.range[1]),
          children: children(value, index),
        },
      ];
    });
  }
  if (isSeq(node)) {
    return node.items.flatMap((item, i) => {
      const n = item as Node | null;
      if (!n?.range) return [];
      const label = isMap(n) ? (['id', 'name', 'if', 'namespace', 'when'].map((k) => n.get(k)).find((v) => typeof v === 'string') as string | undefined) : undefined;
      const firstLineEnd = index.lineEnd(index.positionAt(n.range[0]).line);
      return [
        {
          name: label ?? `[${i}]`,
          kind: 'item' as const,
          range: index.range(n.range[0], n.range[1]),
          selectionRange: index.range(n.range[0], Math.min(n.range[1], firstLineEnd)),
          children: children(n, index),
        },
      ];
    });
  }
  return [];
}
