import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Document } from 'yaml';
import { parseYaml, type ParsedYaml } from '../engine/config/yamlDocument';
import { classifyPath } from '../engine/files';

/** An open agent configuration with its parse and the YAML tree it has. */
export interface OpenAgentConfig {
  readonly document: TextDocument;
  readonly parsed: ParsedYaml;
  readonly doc: Document.Parsed;
}

/**
 * Parses each document once per version and shares the result between features (diagnostics,
 * hover, and the features to come).
 */
export class DocumentModels {
  private readonly cache = new Map<string, { version: number; parsed: ParsedYaml }>();

  constructor(private readonly documents: TextDocuments<TextDocument>) {}

  /** The open `.gitlab/agents/<agent>/config.yaml` at `uri`, parsed; null for other files or an empty text. */
  agentConfig(uri: string): OpenAgentConfig | null {
    const document = this.documents.get(uri);
    if (!document || classifyPath(new URL(uri).pathname).kind !== 'agentConfig') return null;
    const parsed = this.get(document);
    return parsed.doc ? { document, parsed, doc: parsed.doc } : null;
  }

  get(document: TextDocument): ParsedYaml {
    const hit = this.cache.get(document.uri);
    if (hit && hit.version === document.version) return hit.parsed;
    const parsed = parseYaml(document.getText());
    this.cache.set(document.uri, { version: document.version, parsed });
    return parsed;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }
}
