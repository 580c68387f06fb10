import { kubeContextName } from '../access/identity';
import { allEntries, honouredEntries, type AccessEntry, type CiAccessModel } from '../access/model';
import type { RuleCheckContext } from '../access/ruleDiagnostics';
import { scenarioForEntry, type JobScenario } from '../access/scenarios';
import { simulateAccess, viaLabel, type AccessOutcome } from '../access/simulate';
import { NEWEST_GITLAB_VERSION } from '../gitlab/gitlabVersions';
import { nodeAtPath, nodeSpan } from '../yaml/yamlDocument';
import type { ParsedAgentConfig } from './agentConfig';

export interface EntrySimulation {
  readonly entry: AccessEntry;
  /** One outcome per active scenario, in scenario order. */
  readonly outcomes: readonly { scenario: JobScenario; outcome: AccessOutcome }[];
}

/** Every entry of a config simulated for every active scenario. */
export interface ConfigSimulation {
  readonly context: RuleCheckContext;
  readonly model: CiAccessModel;
  readonly entries: readonly EntrySimulation[];
}

/** One row of the scenario × entry table: what the results view and `agentcfg simulate` print. */
export interface SimulationRow {
  readonly scenario: string;
  readonly project: string;
  /** Where the entry is in the file (0-based line). */
  readonly line: number | null;
  readonly authorized: boolean;
  /** `project acme/web`, `group acme`, `instance`, `implicit` (engine/access/simulate `viaLabel`). */
  readonly via: string | null;
  readonly rule: number | null;
  readonly namespace: string | null;
  readonly identity: string | null;
  readonly problems: readonly string[];
  /** Why the job gets no access; null when authorized. */
  readonly denial: string | null;
  readonly explanation: readonly string[];
  /** The entry simulated, as a row label: `project acme/web`, `group acme`, `instance`. */
  readonly entry: string;
  /** What decided the outcome (0-based line): the rule that matched, else the winning entry, else this row's entry. */
  readonly decidedLine: number | null;
  /** How the job acts in the cluster (`access_as`); null when denied. */
  readonly accessAs: AccessOutcome['access_as'] | null;
}

export interface SimulationTable {
  readonly agent: string;
  /** The kubeconfig context GitLab names for the agent: `<config project path>:<agent>`. */
  readonly context: string;
  readonly scenarios: readonly string[];
  readonly rows: readonly SimulationRow[];
}

/**
 * Each entry of `model` simulated with every scenario of `context`, the entry's own project (or a
 * project inside the entry's group) standing in for the job's, through the full model so shadowing
 * by other entries shows as it would in GitLab. Outcomes are computed when first read: a hover
 * simulates one entry, not all.
 */
export function simulateEntries(model: CiAccessModel, context: RuleCheckContext): ConfigSimulation {
  // The entries the chosen release reads (docs/gitlab-behaviour.md#top-level-keys-and-list-limits): later ones get no row, as GitLab ignores them.
  const read = honouredEntries(model, context.options.gitlabVersion ?? NEWEST_GITLAB_VERSION);
  const entries = allEntries(read).map((entry) =>
    lazyEntry(entry, () => context.scenarios.map((scenario) => ({ scenario, outcome: simulateAccess(model, context.agent, scenarioForEntry(scenario, entry, context.defaultBranch), context.options) }))),
  );
  return { context, model, entries };
}

/** The whole scenario × entry table of a config, rows in entry order then scenario order. */
export function simulationTable(config: ParsedAgentConfig, simulation: ConfigSimulation): SimulationTable {
  const { parsed } = config;
  const { context } = simulation;
  const lineOf = (path: readonly (string | number)[] | null | undefined): number | null => {
    const span = path && parsed.doc ? nodeSpan(nodeAtPath(parsed.doc, path)?.node) : null;
    return span ? parsed.index.positionAt(span[0]).line : null;
  };
  return {
    agent: context.agent.name,
    context: kubeContextName(context.agent),
    scenarios: context.scenarios.map((s) => s.name),
    rows: simulation.entries.flatMap(({ entry, outcomes }) => {
      const line = lineOf(entry.path);
      return outcomes.map(({ scenario, outcome }) => {
        // The outcome's rule is a rule of the winning entry, which may be another entry than this row's (shadowing).
        const winner = outcome.entryPath ?? entry.path;
        return {
          scenario: scenario.name,
          project: scenarioForEntry(scenario, entry, context.defaultBranch).projectPath,
          line,
          authorized: outcome.authorized,
          via: viaLabel(outcome),
          rule: outcome.rule,
          namespace: outcome.namespace,
          identity: outcome.identity?.username ?? null,
          problems: outcome.problems.map((p) => p.message),
          denial: outcome.denial,
          explanation: outcome.explanation,
          entry: entry.id === null ? entry.kind : `${entry.kind} ${entry.id}`,
          decidedLine: (outcome.rule !== null ? lineOf([...winner, 'rules', outcome.rule - 1]) : null) ?? lineOf(outcome.entryPath) ?? line,
          accessAs: outcome.authorized ? outcome.access_as : null,
        };
      });
    }),
  };
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
