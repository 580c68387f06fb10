import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AccessEntry, CiAccessModel } from '../engine/access/model';
import { scenarioForEntry, type JobScenario } from '../engine/access/scenarios';
import { simulateAccess, type AccessOutcome } from '../engine/access/simulate';
import { kubeContextName } from '../engine/access/identity';
import type { RuleCheckContext } from '../engine/access/ruleDiagnostics';
import { nodeAtPath, nodeSpan } from '../engine/config/yamlDocument';
import type { ServerSettings, SimulateResult } from '../protocol';
import type { DocumentModels } from './documentModels';
import { simulationContext } from './simulationContext';

export interface EntrySimulation {
  readonly entry: AccessEntry;
  /** One outcome per active scenario, in scenario order. */
  readonly outcomes: readonly { scenario: JobScenario; outcome: AccessOutcome }[];
}

export interface DocumentSimulation {
  readonly context: RuleCheckContext;
  readonly model: CiAccessModel;
  readonly entries: readonly EntrySimulation[];
}

/**
 * Simulates every active scenario against the entries of a document, once per document version
 * and settings, each entry on first use; hover, inlay hints, code lenses and the results view all
 * read the same result.
 * Each entry is simulated with its own project (or a project inside its group), through the full
 * model, so shadowing by other entries shows as it would in GitLab.
 */
export class SimulationService {
  private readonly cache = new Map<string, { version: number; settings: ServerSettings; result: DocumentSimulation }>();

  constructor(private readonly models: DocumentModels) {}

  get(document: TextDocument, settings: ServerSettings): DocumentSimulation {
    const hit = this.cache.get(document.uri);
    if (hit && hit.version === document.version && hit.settings === settings) return hit.result;
    const context = simulationContext(document.uri, settings);
    const model = this.models.ciAccess(document);
    // Outcomes are computed when a feature first reads them: a hover simulates one entry, not all.
    const entries = [...model.projects, ...model.groups, ...(model.instance ? [model.instance] : [])].map((entry) => lazyEntry(entry, () => context.scenarios.map((scenario) => ({ scenario, outcome: simulateAccess(model, context.agent, scenarioForEntry(scenario, entry, context.defaultBranch), context.options) }))));
    const result = { context, model, entries };
    this.cache.set(document.uri, { version: document.version, settings, result });
    return result;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** The table the "Simulate CI access" view shows. */
  table(document: TextDocument, settings: ServerSettings): SimulateResult {
    const simulation = this.get(document, settings);
    const parsed = this.models.get(document);
    return {
      agent: simulation.context.agent.name,
      context: kubeContextName(simulation.context.agent),
      scenarios: simulation.context.scenarios.map((s) => s.name),
      rows: simulation.entries.flatMap(({ entry, outcomes }) => {
        const span = parsed.doc ? nodeSpan(nodeAtPath(parsed.doc, entry.path)?.node) : null;
        return outcomes.map(({ scenario, outcome }) => ({
          scenario: scenario.name,
          project: scenarioForEntry(scenario, entry, simulation.context.defaultBranch).projectPath,
          line: span ? parsed.index.positionAt(span[0]).line : null,
          authorized: outcome.authorized,
          via: outcome.via ? `${outcome.via}${outcome.entry ? ` ${outcome.entry}` : ''}` : null,
          rule: outcome.rule,
          namespace: outcome.namespace,
          identity: outcome.identity?.username ?? null,
          problems: outcome.problems.map((p) => p.message),
          explanation: outcome.explanation,
        }));
      }),
    };
  }
}

/** An entry whose outcomes are simulated on first read, then kept. */
function lazyEntry(entry: AccessEntry, simulate: () => EntrySimulation['outcomes']): EntrySimulation {
  let outcomes: EntrySimulation['outcomes'] | undefined;
  return {
    entry,
    get outcomes() {
      return (outcomes ??= simulate());
    },
  };
}
