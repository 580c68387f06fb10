import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseYaml, type ParsedYaml } from '../engine/config/yamlDocument';

/**
 * Parses each document once per version and shares the result between features (diagnostics,
 * hover, and the features to come).
 */
export class DocumentModels {
  private readonly cache = new Map<string, { version: number; parsed: ParsedYaml }>();

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
