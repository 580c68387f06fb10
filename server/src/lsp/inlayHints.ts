import { InlayHintKind, type Connection, type InlayHint, type Range } from 'vscode-languageserver';
import { namespaceSources } from '../engine/access/model';
import { nodeAtPath, nodeSpan } from '../engine/config/yamlDocument';
import { findVariableReferences } from '../engine/vars/expand';
import type { DocumentModels } from './documentModels';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';
import { resolvedNamespaces } from './simulationViews';

/** Inlay hints: the resolved namespace after each `namespace:` (and `default_namespace:` used by rules) that holds variables. */
export class InlayHintsFeature {
  constructor(
    connection: Connection,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
  ) {
    connection.languages.inlayHint.on((params) => this.hints(params.textDocument.uri, params.range));
  }

  /** Hints for the entries in `range` (the visible part): only those entries are simulated. */
  private async hints(uri: string, range: Range): Promise<InlayHint[]> {
    const config = this.models.agentConfig(uri);
    if (!config || config.parsed.hasSyntaxErrors) return [];
    const { document, doc } = config;
    const simulation = this.simulations.get(document, await this.settings.get());
    const hints: InlayHint[] = [];
    for (const entry of simulation.entries) {
      // Without rules default_namespace is used literally: nothing to resolve.
      if (!entry.entry.rules) continue;
      const entrySpan = nodeSpan(nodeAtPath(doc, entry.entry.path)?.node);
      if (!entrySpan || document.positionAt(entrySpan[1]).line < range.start.line || document.positionAt(entrySpan[0]).line > range.end.line) continue;
      for (const target of namespaceSources(entry.entry)) {
        if (!findVariableReferences(target.template).length) continue;
        const span = nodeSpan(nodeAtPath(doc, target.path)?.node);
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
