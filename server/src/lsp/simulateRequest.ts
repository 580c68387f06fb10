import { ResponseError, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SCENARIOS_REQUEST, SIMULATE_REQUEST, type ScenariosResult, type SimulateParams, type SimulateResult } from '../protocol';
import { activeScenarios } from '../engine/project';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';

/** `gitlabAgentConfig/simulate`: the full scenario × entry table for the results view; `gitlabAgentConfig/scenarios`: the active scenarios. */
export class SimulateRequestFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
  ) {
    connection.onRequest(SIMULATE_REQUEST, (params: SimulateParams) => this.simulate(params));
    connection.onRequest(SCENARIOS_REQUEST, async (): Promise<ScenariosResult> => ({ scenarios: activeScenarios(await this.settings.get()) }));
  }

  private async simulate(params: SimulateParams): Promise<SimulateResult> {
    const document = this.documents.get(params.uri);
    if (!document) throw new ResponseError(-32602, `the document ${params.uri} is not open`);
    return this.simulations.table(document, await this.settings.get());
  }
}
