import { ResponseError, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SIMULATE_REQUEST, type SimulateParams, type SimulateResult } from '../protocol';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';

/** `gitlabAgentConfig/simulate`: the full scenario × entry table for the results view. */
export class SimulateRequestFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
  ) {
    connection.onRequest(SIMULATE_REQUEST, (params: SimulateParams) => this.simulate(params));
  }

  private async simulate(params: SimulateParams): Promise<SimulateResult> {
    const document = this.documents.get(params.uri);
    if (!document) throw new ResponseError(-32602, `the document ${params.uri} is not open`);
    return this.simulations.table(document, await this.settings.get());
  }
}
