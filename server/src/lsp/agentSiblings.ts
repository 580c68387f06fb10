import { readFileSync } from 'node:fs';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { agentDirectoryOf, CONFIG_FILE_NAMES, DEFAULT_TEMPLATE_FILE_NAMES, readAgentConfig, type AgentSiblings, type ParsedAgentConfig } from '../engine/api';
import type { DocumentModels } from './documentModels';
import { localFilePath } from './uriPaths';

/**
 * The editor's way of finding an agent file's sibling (config.yaml ↔ environment_templates/default.yaml):
 * the open document when there is one, so unsaved edits count, otherwise the file on disk. It also
 * says which open documents must be checked again when one changes. The checks themselves are the
 * engine's (engine/api).
 */
export class AgentSiblingFinder {
  /**
   * A config read from disk (not open), by URI, kept while its text is unchanged: every keystroke in
   * the template re-checks the pair, and parsing a large config whole takes hundreds of milliseconds.
   */
  private readonly configsOnDisk = new Map<string, { text: string; config: ParsedAgentConfig }>();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {}

  /** The siblings of the agent file at `uri`, looked up when the engine asks for them. */
  siblingsOf(uri: string): AgentSiblings {
    return {
      config: () => {
        const found = this.find(uri, CONFIG_FILE_NAMES);
        return found === null ? null : this.parsedConfig(found);
      },
      defaultTemplate: () => {
        const found = this.find(uri, DEFAULT_TEMPLATE_FILE_NAMES);
        return found === null ? null : 'open' in found ? found.open.getText() : found.text;
      },
    };
  }

  /** Open documents whose diagnostics depend on `uri`: the agent's config for its default template, and back. */
  dependents(uri: string): string[] {
    const file = agentDirectoryOf(uri);
    if (!file) return [];
    const isConfig = (CONFIG_FILE_NAMES as readonly string[]).includes(file.inside);
    if (!isConfig && !(DEFAULT_TEMPLATE_FILE_NAMES as readonly string[]).includes(file.inside)) return [];
    return (isConfig ? DEFAULT_TEMPLATE_FILE_NAMES : CONFIG_FILE_NAMES).map((name) => file.directory + name).filter((other) => this.documents.get(other) !== undefined);
  }

  /**
   * The sibling config, parsed: the open document's cached model (its text is not read: at each
   * keystroke in a big config, its open template is checked again), or the file on disk (cached by text).
   */
  private parsedConfig(sibling: Sibling): ParsedAgentConfig {
    if ('open' in sibling) return { parsed: this.models.get(sibling.open), ciAccess: this.models.ciAccess(sibling.open) };
    const cached = this.configsOnDisk.get(sibling.uri);
    if (cached?.text === sibling.text) return cached.config;
    const config = readAgentConfig(sibling.text);
    this.configsOnDisk.set(sibling.uri, { text: sibling.text, config });
    return config;
  }

  /** The first of `names` (inside the agent directory of `uri`) that is open or on disk. */
  private find(uri: string, names: readonly string[]): Sibling | null {
    const file = agentDirectoryOf(uri);
    if (!file) return null;
    for (const name of names) {
      const target = file.directory + name;
      const open = this.documents.get(target);
      if (open) return { uri: target, open };
      const local = localFilePath(target);
      if (local === null) continue;
      try {
        return { uri: target, text: readFileSync(local, 'utf8') };
      } catch {
        // not on disk either
      }
    }
    return null;
  }
}

/** A sibling file found: the open document, or the text of the file on disk. */
type Sibling = { readonly uri: string; readonly open: TextDocument } | { readonly uri: string; readonly text: string };
