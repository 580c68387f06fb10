import { readFileSync } from 'node:fs';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readCiAccess, type CiAccessModel } from '../engine/access/model';
import { finalizeDiagnostics } from '../engine/config/validateAgentConfig';
import { parseYaml, type ParsedYaml } from '../engine/config/yamlDocument';
import { configCrossFileDiagnostics, templateCrossFileDiagnostics, type AgentFiles } from '../engine/crossFile/agentFiles';
import type { EngineDiagnostic } from '../engine/diagnostics';
import type { FileKind } from '../engine/files';
import { isRenderable, validateEnvironmentTemplate } from '../engine/template/diagnostics/validateEnvironmentTemplate';
import type { ServerSettings } from '../protocol';
import type { DocumentModels } from './documentModels';
import { activeScenarios } from './simulationContext';
import { localFilePath } from './uriPaths';

const CONFIG_NAMES = ['config.yaml', 'config.yml'];
const TEMPLATE_NAMES = ['environment_templates/default.yaml', 'environment_templates/default.yml'];

/**
 * The editor side of checking an agent's config.yaml and environment_templates/default.yaml
 * together: finds the sibling (the open document when there is one, so unsaved edits count;
 * otherwise the file on disk), and says which open documents must be checked again when one changes.
 */
export class AgentFileLinks {
  /** Per parse of a config (one per document version): the template it was checked with and the result. */
  private readonly configResults = new WeakMap<ParsedYaml, { template: string | null; diagnostics: EngineDiagnostic[] }>();
  /**
   * A config read from disk (not open), by URI, kept while its text is unchanged: every keystroke in
   * the template re-checks the pair, and parsing a large config whole takes hundreds of milliseconds.
   */
  private readonly configsOnDisk = new Map<string, { text: string; parsed: ParsedYaml; ciAccess: CiAccessModel }>();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {}

  /** Diagnostics of an environment template: its own checks plus those against config.yaml. */
  templateDiagnostics(document: TextDocument, file: Extract<FileKind, { kind: 'environmentTemplate' }>, settings: ServerSettings): EngineDiagnostic[] {
    const own = validateEnvironmentTemplate(document.getText(), { templateName: file.templateName });
    if (file.templateName !== 'default' || !isRenderable(own)) return own;
    const configFile = this.sibling(document.uri, CONFIG_NAMES, '../');
    const config = configFile === null ? null : this.parsedConfig(configFile);
    const files = { ...this.files(config?.parsed ?? null, document.getText(), file.agentName, settings), ...(config ? { ciAccess: config.ciAccess } : {}) };
    return finalizeDiagnostics([...own, ...templateCrossFileDiagnostics(files)]);
  }

  /** The cross-file diagnostics of config.yaml (its own checks run elsewhere). */
  configDiagnostics(document: TextDocument, file: Extract<FileKind, { kind: 'agentConfig' }>, settings: ServerSettings): EngineDiagnostic[] {
    const template = this.sibling(document.uri, TEMPLATE_NAMES, './')?.text ?? null;
    const parsed = this.models.get(document);
    // Settings do not enter this check: the same parse and template give the same answer.
    const cached = this.configResults.get(parsed);
    if (cached && cached.template === template) return cached.diagnostics;
    const diagnostics = configCrossFileDiagnostics({ ...this.files(parsed, template, file.agentName, settings), ciAccess: this.models.ciAccess(document) });
    this.configResults.set(parsed, { template, diagnostics });
    return diagnostics;
  }

  /** Open documents whose diagnostics depend on `uri`: the agent's config for its default template, and back. */
  dependents(uri: string): string[] {
    const match = /^(.*\/\.gitlab\/agents\/[^/]+\/)(config\.ya?ml|environment_templates\/default\.ya?ml)$/.exec(uri);
    if (!match) return [];
    const others = match[2].startsWith('config') ? TEMPLATE_NAMES : CONFIG_NAMES;
    return others.map((name) => match[1] + name).filter((other) => this.documents.get(other) !== undefined);
  }

  private files(config: ParsedYaml | null, templateText: string | null, agentName: string, settings: ServerSettings): AgentFiles {
    return { config, templateText, agentName, scenarios: activeScenarios(settings), defaultBranch: settings.defaultBranch };
  }

  /** The sibling config, parsed: the open document's cached model, or the file on disk (cached by text). */
  private parsedConfig(sibling: { uri: string; text: string }): { parsed: ParsedYaml; ciAccess: CiAccessModel } {
    const open = this.documents.get(sibling.uri);
    if (open) return { parsed: this.models.get(open), ciAccess: this.models.ciAccess(open) };
    const cached = this.configsOnDisk.get(sibling.uri);
    if (cached?.text === sibling.text) return cached;
    const parsed = parseYaml(sibling.text);
    const entry = { text: sibling.text, parsed, ciAccess: readCiAccess(parsed.value) };
    this.configsOnDisk.set(sibling.uri, entry);
    return entry;
  }

  /** The first of `names` (relative to `base` from the document's folder) that is open or on disk. */
  private sibling(uri: string, names: readonly string[], base: string): { uri: string; text: string } | null {
    for (const name of names) {
      const target = new URL(base + name, uri).href;
      const open = this.documents.get(target);
      if (open) return { uri: target, text: open.getText() };
      const file = localFilePath(target);
      if (file === null) continue;
      try {
        return { uri: target, text: readFileSync(file, 'utf8') };
      } catch {
        // not on disk either: try the next spelling
      }
    }
    return null;
  }
}
