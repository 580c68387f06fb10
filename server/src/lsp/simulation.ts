import type { TextDocument } from 'vscode-languageserver-textdocument';
import { simulateEntries, simulationTable, type ConfigSimulation } from '../engine/api';
import type { ServerSettings, SimulateResult } from '../protocol';
import type { DocumentModels } from './documentModels';
import { simulationContext } from './simulationContext';
import { viewRows } from './simulationTable';

/**
 * The engine's simulation of a document, kept once per document version and settings; hover,
 * inlay hints, code lenses and the results view all read the same result.
 */
export class SimulationService {
  private readonly cache = new Map<string, { version: number; settings: ServerSettings; result: ConfigSimulation }>();

  constructor(private readonly models: DocumentModels) {}

  get(document: TextDocument, settings: ServerSettings): ConfigSimulation {
    const hit = this.cache.get(document.uri);
    if (hit && hit.version === document.version && hit.settings === settings) return hit.result;
    const result = simulateEntries(this.models.ciAccess(document), simulationContext(document.uri, settings));
    this.cache.set(document.uri, { version: document.version, settings, result });
    return result;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** The table the "Simulate CI access" view shows. */
  table(document: TextDocument, settings: ServerSettings): Omit<SimulateResult, 'contextSource' | 'cluster'> {
    const config = { parsed: this.models.get(document), ciAccess: this.models.ciAccess(document) };
    const simulation = this.get(document, settings);
    const table = simulationTable(config, simulation);
    return { ...table, rows: viewRows(simulation, table) };
  }
}
