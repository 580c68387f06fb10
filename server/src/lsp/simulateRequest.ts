import { ResponseError, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  SCENARIOS_REQUEST,
  SIMULATE_REQUEST,
  SIMULATION_ACCESS_REQUEST,
  type SimulateParams,
  type SimulateResult,
  type SimulationAccessParams,
  type SimulationAccessResult,
} from '../protocol';
import { activeScenarios, type JobIdentity } from '../engine/api';
import { previewKey, type AccessPreviewService } from './cluster/accessPreview';
import { onCustomRequest } from './customRequests';
import { accessKey } from './simulationTable';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';
import { projectPathFromGit } from './simulationContext';
import { localFilePath } from './uriPaths';

/** Identity × namespace pairs one "Check in cluster" asks about at most (each is ~70 SubjectAccessReviews). */
const MAX_ACCESS_PAIRS = 12;

/**
 * `gitlabAgentConfig/simulate`: the full scenario × entry table for the results view;
 * `gitlabAgentConfig/simulationAccess`: the cluster's RBAC answer for its cells;
 * `gitlabAgentConfig/scenarios`: the active scenarios.
 */
export class SimulateRequestFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
    private readonly accessPreview: AccessPreviewService,
  ) {
    onCustomRequest(connection, SIMULATE_REQUEST, (params) => this.simulate(params));
    onCustomRequest(connection, SIMULATION_ACCESS_REQUEST, (params) => this.access(params));
    onCustomRequest(connection, SCENARIOS_REQUEST, async () => ({ scenarios: activeScenarios(await this.settings.get()) }));
  }

  private document(uri: string): TextDocument {
    const document = this.documents.get(uri);
    if (!document) throw new ResponseError(-32602, `the document ${uri} is not open`);
    return document;
  }

  private async simulate(params: SimulateParams): Promise<SimulateResult> {
    const settings = await this.settings.get();
    const table = this.simulations.table(this.document(params.uri), settings);
    // The same lookup as the simulation's (projectSettings): the setting first, then the git remote.
    const local = localFilePath(params.uri);
    const contextSource = settings.configProjectPath ? 'setting' : local !== null && projectPathFromGit(local) ? 'git remote' : null;
    return { ...table, contextSource, cluster: this.accessPreview.availability() };
  }

  private async access(params: SimulationAccessParams): Promise<SimulationAccessResult> {
    const availability = this.accessPreview.availability();
    if ('unavailable' in availability) return { unavailable: availability.unavailable, answers: [], skipped: 0 };
    const simulation = this.simulations.get(this.document(params.uri), await this.settings.get());
    const wanted = new Set(params.keys);
    // The view's key → the pair; the preview's answers are keyed by the full identity × namespace.
    const pairs = new Map<string, { identity: JobIdentity; namespace: string | null }>();
    for (const { outcomes } of simulation.entries) {
      for (const { outcome } of outcomes) {
        if (!outcome.authorized || !outcome.identity || outcome.identity.mode === 'agent') continue;
        const key = accessKey(outcome.identity, outcome.namespace);
        if (wanted.has(key)) pairs.set(key, { identity: outcome.identity, namespace: outcome.namespace });
      }
    }
    const asked = [...pairs].slice(0, MAX_ACCESS_PAIRS);
    const answers = await this.accessPreview.review(asked.map(([, pair]) => pair));
    return {
      unavailable: null,
      answers: asked.flatMap(([key, pair]) => {
        const answer = answers.get(previewKey(pair.identity, pair.namespace));
        if (!answer) return [];
        return [answer.ok ? { key, ok: true, text: answer.summary, capabilities: answer.capabilities.map(({ text, allowed }) => ({ text, allowed })) } : { key, ok: false, text: answer.message, capabilities: [] }];
      }),
      skipped: pairs.size - asked.length,
    };
  }
}
