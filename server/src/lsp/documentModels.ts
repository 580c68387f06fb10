import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Document } from 'yaml';
import { agentConfigOf, classifyPath, type CiAccessModel, type ConfigModel, type ParsedYaml } from '../engine/api';
import { EditedAgentConfig, parseYaml, type TextSource } from '../engine/api/editor';
import { EditedDocument } from './editedDocument';

/** An open agent configuration with its parse and the YAML tree it has. */
export interface OpenAgentConfig {
  readonly document: TextDocument;
  readonly parsed: ParsedYaml;
  readonly doc: Document.Parsed;
}

/**
 * Parses each document once per version and shares the result between features (diagnostics,
 * hover, completion...). Agent configurations are kept incrementally: a version is composed from
 * the cached parses of the entries an edit did not touch (engine/config/incremental), so every
 * feature reads a model that costs little per keystroke, even in a file of thousands of entries.
 */
export class DocumentModels {
  private readonly cache = new Map<string, { version: number; parsed: ParsedYaml; ciAccess?: CiAccessModel }>();
  private readonly incremental = new Map<string, EditedAgentConfig>();

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
    const incremental = this.incrementalModel(document.uri);
    const parsed = incremental ? incremental.update(textSource(document)) : parseYaml(document.getText());
    this.cache.set(document.uri, { version: document.version, parsed });
    return parsed;
  }

  /**
   * The open agent configuration as the engine's checks read it: this version's parse and
   * `ci_access`, with its own checks run incrementally (only what changed since the last call).
   * `owner` names the settings: checks cached under another owner are redone.
   */
  configModel(document: TextDocument, owner: unknown): ConfigModel {
    const parsed = this.get(document);
    const incremental = this.incrementalModel(document.uri);
    if (!incremental) throw new Error(`${document.uri} is not an agent configuration`);
    return incremental.model(parsed, this.ciAccess(document), owner);
  }

  /** `ci_access` of this version, read once and shared (simulation, hints, lenses). */
  ciAccess(document: TextDocument): CiAccessModel {
    const parsed = this.get(document);
    const entry = this.cache.get(document.uri)!;
    entry.ciAccess ??= agentConfigOf(parsed).ciAccess;
    return entry.ciAccess;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.incremental.delete(uri);
  }

  private incrementalModel(uri: string): EditedAgentConfig | null {
    let model = this.incremental.get(uri);
    if (!model && classifyPath(new URL(uri).pathname).kind === 'agentConfig') this.incremental.set(uri, (model = new EditedAgentConfig()));
    return model ?? null;
  }
}

/** The document's text as the incremental model reads it: spliced, not joined, when the document keeps its edits so. */
function textSource(document: TextDocument): TextSource {
  return document instanceof EditedDocument ? document.textSource() : document.getText();
}
