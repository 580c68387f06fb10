import { isScalar, Scalar, type Node } from 'yaml';
import type { TextSource } from '../text/splicedText';

/**
 * Maps offsets inside a scalar's value to offsets in the document, so an error at column 7 of an
 * `if:` expression is shown at column 7 of the expression on screen. Exact for plain scalars and
 * for quoted scalars without escapes; otherwise null (callers fall back to the whole value).
 */
export function scalarOffsetMapper(node: Node | null | undefined, text: TextSource): ((offset: number) => number) | null {
  if (!isScalar(node) || !node.range || typeof node.source !== 'string') return null;
  const value = node.source;
  const start = node.range[0];
  const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
  if (node.type !== Scalar.PLAIN && !quoted) return null;
  const contentStart = quoted ? start + 1 : start;
  if (text.slice(contentStart, contentStart + value.length) !== value) return null;
  return (offset) => contentStart + offset;
}
