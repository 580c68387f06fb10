import { InlayHintKind, type Connection, type InlayHint, type Range, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { hasVariableReference, namespaceSources, nodeAtPath, nodeSpan } from '../engine/api/editor';
import type { DocumentModels } from './documentModels';
import { LastGood } from './lastGood';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';
import { resolvedNamespaces } from './simulationViews';

/** Inlay hints: the resolved namespace after each `namespace:` (and `default_namespace:` used by rules) that holds variables. */
export class InlayHintsFeature {
  /** While a half-typed line breaks the YAML, the hints of the lines the edit did not touch stay. */
  private readonly lastGood = new LastGood<InlayHint>();

  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
  ) {
    connection.languages.inlayHint.on((params) => this.hints(params.textDocument.uri, params.range));
    documents.onDidClose((e) => this.lastGood.forget(e.document.uri));
  }

  /** Hints for the entries in `range` (the visible part): only those entries are simulated. */
  private async hints(uri: string, range: Range): Promise<InlayHint[]> {
    const config = this.models.agentConfig(uri);
    if (!config || config.parsed.hasSyntaxErrors) {
      const document = this.documents.get(uri);
      if (!document) return [];
      return this.lastGood
        .recall(uri, document.getText())
        .filter(({ line }) => line >= range.start.line && line <= range.end.line)
        .map(({ line, item }) => ({ ...item, position: { line, character: item.position.character } }));
    }
    const { document, doc } = config;
    const simulation = this.simulations.get(document, await this.settings.get());
    const hints: InlayHint[] = [];
    for (const entry of simulation.entries) {
      // Without rules default_namespace is used literally: nothing to resolve.
      if (!entry.entry.rules) continue;
      const entrySpan = nodeSpan(nodeAtPath(doc, entry.entry.path)?.node);
      if (!entrySpan || document.positionAt(entrySpan[1]).line < range.start.line || document.positionAt(entrySpan[0]).line > range.end.line) continue;
      for (const target of namespaceSources(entry.entry)) {
        if (!hasVariableReference(target.template)) continue;
        const span = nodeSpan(nodeAtPath(doc, target.path)?.node);
        if (!span) continue;
        const { values, invalid } = resolvedNamespaces(entry, target.rule);
        if (!values.length && !invalid) continue;
        const label = `→ ${values.join(' · ')}${invalid ? `${values.length ? ' · ' : ''}⚠ ${invalid} invalid` : ''}`;
        hints.push({ position: document.positionAt(span[1]), label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: 'Resolved namespace in the active scenarios where this rule applies (hover for details).' });
      }
    }
    // Hints of the whole visible range are kept; a later request for another range replaces them.
    this.lastGood.remember(document, hints, (hint) => hint.position.line);
    return hints;
  }
}
