import { MarkupKind, type Connection, type Hover, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { pathAtOffset } from '../engine/config/pathAtOffset';
import { describeKey, schemaAtPath } from '../engine/config/schemaLookup';
import { classifyPath } from '../engine/files';
import type { DocumentModels } from './documentModels';

/** Hover documentation for agent configuration keys, from the schema's descriptions. */
export class HoverFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {
    connection.onHover((params) => this.hover(params.textDocument.uri, params.position));
  }

  private hover(uri: string, position: { line: number; character: number }): Hover | null {
    const document = this.documents.get(uri);
    if (!document || classifyPath(new URL(uri).pathname).kind !== 'agentConfig') return null;
    const parsed = this.models.get(document);
    if (!parsed.doc) return null;
    const at = pathAtOffset(parsed.doc, document.offsetAt(position));
    if (!at || !at.onKey) return null;
    const schema = schemaAtPath(at.path);
    if (!schema) return null;
    const name = String(at.path[at.path.length - 1]);
    return {
      contents: { kind: MarkupKind.Markdown, value: describeKey(name, schema) },
      range: { start: document.positionAt(at.span[0]), end: document.positionAt(at.span[1]) },
    };
  }
}
