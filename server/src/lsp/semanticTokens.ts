import { SemanticTokensBuilder, type Connection, type Range, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver';
import { isMap, isSeq, type Node } from 'yaml';
import { expressionSemanticSpans, namespaceSemanticSpans, scalarOffsetMapper, SEMANTIC_TOKEN_TYPES, valueOfKey, type SemanticSpan, type TextSource } from '../engine/api/editor';
import type { DocumentModels, OpenAgentConfig } from './documentModels';

/** The legend announced in the server's capabilities. */
export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [] };

const TYPE_INDEX = new Map<string, number>(SEMANTIC_TOKEN_TYPES.map((t, i) => [t, i]));

/** A coloured span in document offsets. */
interface DocumentSpan {
  readonly start: number;
  readonly end: number;
  readonly type: number;
}

/**
 * Semantic tokens (full and range) for the `rules` design: inside every `if:` expression, and the
 * variables of `namespace:` — and of `default_namespace:` in an entry with rules, which GitLab's
 * expansion reaches through a rule. Range requests visit only the entries overlapping the range.
 */
export class SemanticTokensFeature {
  constructor(
    connection: Connection,
    private readonly models: DocumentModels,
  ) {
    connection.languages.semanticTokens.on((params) => this.tokens(params.textDocument.uri, null));
    connection.languages.semanticTokens.onRange((params) => this.tokens(params.textDocument.uri, params.range));
  }

  private tokens(uri: string, range: Range | null): SemanticTokens {
    const builder = new SemanticTokensBuilder();
    const config = this.models.agentConfig(uri);
    if (!config) return builder.build();
    const window = range ? ([config.document.offsetAt(range.start), config.document.offsetAt(range.end)] as const) : null;
    const spans = collectSpans(config, window);
    spans.sort((a, b) => a.start - b.start);
    for (const span of spans) {
      const start = config.document.positionAt(span.start);
      const end = config.document.positionAt(span.end);
      // A token cannot span lines (and multi-line scalars are not mapped character by character).
      if (end.line !== start.line) continue;
      builder.push(start.line, start.character, end.character - start.character, span.type, 0);
    }
    return builder.build();
  }
}

function collectSpans(config: OpenAgentConfig, window: readonly [number, number] | null): DocumentSpan[] {
  const out: DocumentSpan[] = [];
  const ciAccess = valueOfKey(config.doc.contents, 'ci_access');
  if (!isMap(ciAccess)) return out;
  for (const list of ['projects', 'groups']) {
    const entries = valueOfKey(ciAccess, list);
    if (!isSeq(entries)) continue;
    for (const entry of overlapping(entries.items as Node[], window)) entrySpans(entry, config.parsed.index.source, out);
  }
  const instance = valueOfKey(ciAccess, 'instance');
  if (instance && overlaps(instance, window)) entrySpans(instance, config.parsed.index.source, out);
  return window ? out.filter((s) => s.end > window[0] && s.start < window[1]) : out;
}

/** The spans of one `ci_access` entry: its rules' `if` and `namespace`, and `default_namespace` when it has rules. */
function entrySpans(entry: unknown, text: TextSource, out: DocumentSpan[]): void {
  if (!isMap(entry)) return;
  const rules = valueOfKey(entry, 'rules');
  if (!isSeq(rules)) return;
  addSpans(valueOfKey(entry, 'default_namespace'), text, namespaceSemanticSpans, out);
  for (const rule of rules.items) {
    if (!isMap(rule)) continue;
    addSpans(valueOfKey(rule, 'if'), text, expressionSemanticSpans, out);
    addSpans(valueOfKey(rule, 'namespace'), text, namespaceSemanticSpans, out);
  }
}

function addSpans(node: Node | null, text: TextSource, spansOf: (value: string) => readonly SemanticSpan[], out: DocumentSpan[]): void {
  const map = scalarOffsetMapper(node, text);
  if (!map || !node || typeof (node as { source?: unknown }).source !== 'string') return;
  for (const span of spansOf((node as { source: string }).source)) {
    out.push({ start: map(span.start), end: map(span.start + span.length), type: TYPE_INDEX.get(span.type)! });
  }
}

function overlaps(node: Node, window: readonly [number, number] | null): boolean {
  return !window || !node.range || (node.range[1] >= window[0] && node.range[0] <= window[1]);
}

/** The items that overlap the window; items are in source order, so the first one is found by binary search. */
function overlapping(items: readonly Node[], window: readonly [number, number] | null): Node[] {
  if (!window) return [...items];
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const end = items[mid]?.range?.[1];
    if (end !== undefined && end < window[0]) low = mid + 1;
    else high = mid;
  }
  const out: Node[] = [];
  for (let i = low; i < items.length; i++) {
    const start = items[i]?.range?.[0];
    if (start !== undefined && start > window[1]) break;
    out.push(items[i]!);
  }
  return out;
}
