import { FoldingRangeKind, SymbolKind, type Connection, type DocumentSymbol, type FoldingRange, type SelectionRange, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { classifyPath } from '../engine/api';
import { outline, type OutlineNode } from '../engine/api/editor';
import type { DocumentModels } from './documentModels';

/** Outline (document symbols), folding ranges and selection ranges, all from the cached YAML tree. */
export class StructureFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {
    connection.onDocumentSymbol((p) => this.nodes(p.textDocument.uri).map(toSymbol));
    connection.onFoldingRanges((p) => this.folding(p.textDocument.uri));
    connection.onSelectionRanges((p) => {
      const nodes = this.nodes(p.textDocument.uri);
      return p.positions.map((position) => selection(nodes, position));
    });
  }

  private nodes(uri: string): OutlineNode[] {
    const document = this.documents.get(uri);
    if (!document || classifyPath(new URL(uri).pathname).kind === 'other') return [];
    const parsed = this.models.get(document);
    return parsed.doc ? outline(parsed.doc, parsed.index) : [];
  }

  private folding(uri: string): FoldingRange[] {
    const out: FoldingRange[] = [];
    const visit = (nodes: OutlineNode[]) => {
      for (const n of nodes) {
        if (n.range.end.line > n.range.start.line) out.push({ startLine: n.range.start.line, endLine: n.range.end.character === 0 ? n.range.end.line - 1 : n.range.end.line, kind: FoldingRangeKind.Region });
        visit(n.children);
      }
    };
    visit(this.nodes(uri));
    return out.filter((r) => r.endLine > r.startLine);
  }
}

function toSymbol(node: OutlineNode): DocumentSymbol {
  return {
    name: node.name,
    ...(node.detail !== undefined ? { detail: node.detail } : {}),
    kind: node.kind === 'item' ? SymbolKind.Object : node.children.length ? SymbolKind.Module : SymbolKind.Property,
    range: node.range,
    selectionRange: node.selectionRange,
    children: node.children.map(toSymbol),
  };
}

function contains(range: OutlineNode['range'], p: { line: number; character: number }): boolean {
  const afterStart = p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character);
  const beforeEnd = p.line < range.end.line || (p.line === range.end.line && p.character <= range.end.character);
  return afterStart && beforeEnd;
}

/** Innermost-first chain: key → entry → parent entry → … (what "expand selection" walks). */
function selection(nodes: OutlineNode[], position: { line: number; character: number }): SelectionRange {
  const chain: OutlineNode['range'][] = [];
  let level = nodes;
  for (;;) {
    const hit = level.find((n) => contains(n.range, position));
    if (!hit) break;
    chain.push(hit.range);
    if (contains(hit.selectionRange, position)) chain.push(hit.selectionRange);
    level = hit.children;
  }
  let result: SelectionRange | undefined;
  for (const range of chain) result = { range, ...(result ? { parent: result } : {}) };
  return result ?? { range: { start: position, end: position } };
}
