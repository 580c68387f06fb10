import { InlayHintKind, type Connection, type InlayHint, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeAtPath, nodeSpan } from '../engine/config/yamlDocument';
import { classifyPath } from '../engine/files';
import { findVariableReferences } from '../engine/vars/expand';
import type { DocumentModels } from './documentModels';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';
import { resolvedNamespaces } from './simulationViews';

/** Inlay hints: the resolved namespace after each `namespace:` (and `default_namespace:` used by rules) that holds variables. */
export class InlayHintsFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
  ) {
    connection.languages.inlayHint.on((params) => this.hints(params.textDocument.uri));
  }

  private async hints(uri: string): Promise<InlayHint[]> {
    const document = this.documents.get(uri);
    if (!document || classifyPath(new URL(uri).pathname).kind !== 'agentConfig') return [];
    const parsed = this.models.get(document);
    if (!parsed.doc || parsed.hasSyntaxErrors) return [];
    const simulation = this.simulations.get(document, await this.settings.get());
    const hints: InlayHint[] = [];
    for (const entry of simulation.entries) {
      const targets: { path: (string | number)[]; template: string; rule: number | null }[] = [];
      for (const rule of entry.entry.rules ?? []) if (rule.namespace !== undefined) targets.push({ path: [...rule.path, 'namespace'], template: rule.namespace, rule: rule.number });
      if (entry.entry.defaultNamespace !== undefined && entry.entry.rules) targets.push({ path: [...entry.entry.path, 'default_namespace'], template: entry.entry.defaultNamespace, rule: null });
      for (const target of targets) {
        if (!findVariableReferences(target.template).length) continue;
        const span = nodeSpan(nodeAtPath(parsed.doc, target.path)?.node);
        if (!span) continue;
        const { values, invalid } = resolvedNamespaces(entry, target.rule);
        if (!values.length && !invalid) continue;
        const label = `→ ${values.join(' · ')}${invalid ? `${values.length ? ' · ' : ''}⚠ ${invalid} invalid` : ''}`;
        hints.push({ position: document.positionAt(span[1]), label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: 'Resolved namespace in the active scenarios where this rule applies (hover for details).' });
      }
    }
    return hints;
  }
}
