import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { classifyPath, ENVIRONMENT_TIERS, readAgentConfig, scenarioContext, simulateAccess, simulateEntries, simulationTable, viaLabel, type AccessOutcome, type EnvironmentTier, type Scenario, type SimulationOptions, type SimulationTable } from '../../engine/api';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import type { CliCommand } from '../io';
import { checkName, choiceOption, environmentNameProblem, integerOption } from '../options';
import { PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs, settingsForFile } from '../projectSettings';
import { workingOn } from '../run';
import { readExpectation, unmetExpectations, type Expectation } from './simulateExpectations';

const USAGE = `agentcfg simulate <config.yaml> [--json] ${PROJECT_SETTING_USAGE}
         every entry × the active scenarios (the editor's "Simulate CI Access" table)
   or: agentcfg simulate <config.yaml> --project <full/path> [--environment <name>] [--tier <tier>] [--ref <ref>] [--tag]
       [--merge-request [--protect-merge-request-pipelines] [--merge-request-target-protected] [--from-fork]]
       [--protected] [--pipeline-source <s>] [--user <login>] [--project-id <id>] [--var K=V]...
       [--agent <name>] [--instance-level] [--expect authorized|denied] [--json] [settings options as above]
         --protected: the ref is protected (for a merge request: its source branch);
         --protect-merge-request-pipelines: the project setting is on, so a merge request between protected
         branches (--protected, --merge-request-target-protected) runs as protected, unless --from-fork
         (the scenario fields protectMergeRequestPipelines, mergeRequestTargetProtected, fromFork);
         --instance-level: an administrator enabled instance-level authorization, so entries outside the
         agent configuration project's top-level group count (from GitLab 18.1; --gitlab-version)
   or: agentcfg simulate <config.yaml> --scenarios <file.json> [--expect authorized|denied] [--json]
         (a JSON array of scenarios, each optionally with "expect": {"authorized", "namespace", "identity"}; one result each)
   --expect, or a scenario's "expect": exit 1 when a result differs (a pipeline can require the access it relies on).`;

/** Options that describe the one scenario of `--project` mode. */
export const SCENARIO_OPTIONS = ['project', 'environment', 'tier', 'ref', 'pipeline-source', 'user', 'project-id'];

/** Flags of that scenario, each a boolean field of it (docs/gitlab-behaviour.md#protected-merge-request-pipelines for the last three). */
const SCENARIO_FLAGS = ['tag', 'merge-request', 'protected', 'protect-merge-request-pipelines', 'merge-request-target-protected', 'from-fork'];

/** The flags that only describe a merge request. */
const MERGE_REQUEST_FLAGS = ['protect-merge-request-pipelines', 'merge-request-target-protected', 'from-fork'];

/**
 * `agentcfg simulate`: which access CI jobs get from the agent of a config file — authorized?,
 * via which entry and rule, in which namespace, as which identity. Without `--project` or
 * `--scenarios` it prints the editor's table (engine/api `simulationTable`), same settings, same rows.
 */
export const simulateCommand: CliCommand = {
  name: 'simulate',
  summary: 'Simulate which CI/CD jobs get access to the agent, where and as whom.',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, {
      values: [...SCENARIO_OPTIONS, 'agent', 'scenarios', 'expect', ...PROJECT_SETTING_OPTIONS.values],
      repeated: ['var'],
      flags: [...SCENARIO_FLAGS, 'json', 'instance-level', ...PROJECT_SETTING_OPTIONS.flags],
    });
    if (args.positional.length !== 1) throw new UsageError('name exactly one config.yaml');
    const mode = checkSimulateOptions(args);
    const file = path.resolve(io.cwd, args.positional[0]);
    const settings = settingsForFile(projectSettingsFromArgs(args, io.cwd), file, io.cwd);
    const expectAll = readExpectation(args.values.expect);
    const scenarios = mode === 'scenarios' ? await readScenarios(path.resolve(io.cwd, args.values.scenarios!), settings.defaultBranch) : mode === 'project' ? [{ scenario: scenarioFromArgs(args.values, args.flags, args.repeated.var ?? [], settings.defaultBranch) }] : [];
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${args.positional[0]}: ${err.code ?? err.message}`);
    });
    const kind = classifyPath(file);
    const agentName = args.values.agent ?? (kind.kind === 'agentConfig' ? kind.agentName : path.basename(path.dirname(file)));
    const context = scenarioContext(settings, agentName);
    const { parsed, ciAccess } = await workingOn(args.positional[0], async () => readAgentConfig(text));

    if (mode === 'table') {
      const table = await workingOn(args.positional[0], async () => simulationTable({ parsed, ciAccess }, simulateEntries(ciAccess, context)));
      io.out((args.flags.has('json') ? JSON.stringify(table) : tableText(table)) + '\n');
      return 0;
    }
    const options: SimulationOptions = { ...context.options, instanceLevel: args.flags.has('instance-level') };
    const results = await workingOn(args.positional[0], async () => scenarios.map(({ scenario, expect }) => ({ scenario, expect: expect ?? expectAll, outcome: simulateAccess(ciAccess, context.agent, scenario, options) })));

    if (args.flags.has('json')) {
      if (mode === 'project') io.out(JSON.stringify(publicShape(results[0].outcome)) + '\n');
      else io.out(results.map((r) => JSON.stringify({ scenario: r.scenario, ...publicShape(r.outcome) })).join('\n') + '\n');
    } else {
      io.out(resultsText(results) + '\n');
    }
    const unmet = results.flatMap((r) => unmetExpectations(r.expect, r.outcome).map((why) => `${scenarioLabel(r.scenario)}: ${why}`));
    for (const line of unmet) io.err(`expectation not met: ${line}\n`);
    return unmet.length ? 1 : 0;
  },
};

/** The option values, checked before the config is read; which of the three modes the options ask for. */
function checkSimulateOptions(args: ParsedArgs): 'table' | 'project' | 'scenarios' {
  integerOption(args, 'project-id', false);
  choiceOption(args, 'tier', ENVIRONMENT_TIERS);
  readExpectation(args.values.expect);
  if (args.values.agent !== undefined) checkName('agent', args.values.agent, 'label');
  const environment = args.values.environment;
  const problem = environment === undefined ? undefined : environmentNameProblem(environment);
  if (problem) throw new UsageError(`--environment must be a GitLab environment name (letters, digits, spaces, '-', '_', '/', '$', '{', '}', '.'); "${environment}" ${problem}`);
  const single = SCENARIO_OPTIONS.filter((o) => args.values[o] !== undefined);
  const given = [...single.map((o) => `--${o}`), ...(args.repeated.var?.length ? ['--var'] : []), ...SCENARIO_FLAGS.filter((f) => args.flags.has(f)).map((f) => `--${f}`)];
  const mergeRequestOnly = MERGE_REQUEST_FLAGS.filter((f) => args.flags.has(f)).map((f) => `--${f}`);
  if (mergeRequestOnly.length && !args.flags.has('merge-request')) {
    throw new UsageError(`${mergeRequestOnly.join(', ')} describe${mergeRequestOnly.length === 1 ? 's' : ''} a merge request pipeline: add --merge-request`);
  }
  if (args.values.scenarios !== undefined) {
    if (given.length) throw new UsageError(`--scenarios takes every scenario from its file; leave out ${given.join(', ')}`);
    return 'scenarios';
  }
  if (args.values.project !== undefined) return 'project';
  if (given.length) throw new UsageError(`${given.join(', ')} describe${given.length === 1 ? 's' : ''} one job: --project is required with ${given.length === 1 ? 'it' : 'them'}`);
  if (args.values.expect !== undefined) throw new UsageError('--expect checks the results of --project or --scenarios');
  if (args.flags.has('instance-level')) throw new UsageError('--instance-level applies to --project or --scenarios');
  return 'table';
}

export function scenarioFromArgs(values: Partial<Record<string, string>>, flags: Set<string>, vars: string[], defaultBranch: string): Scenario {
  if (!values.project) throw new UsageError('--project is required');
  const tier = values.tier;
  if (tier !== undefined && !ENVIRONMENT_TIERS.includes(tier as EnvironmentTier)) throw new UsageError(`--tier must be one of ${ENVIRONMENT_TIERS.join(', ')}`);
  const variables: Record<string, string> = {};
  for (const pair of vars) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var needs KEY=VALUE, got "${pair}"`);
    variables[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    projectPath: values.project,
    ...(values['project-id'] ? { projectId: values['project-id'] } : {}),
    ...(values.environment !== undefined ? { environmentName: values.environment } : {}),
    ...(tier ? { environmentTier: tier as EnvironmentTier } : {}),
    ref: values.ref ?? defaultBranch,
    isTag: flags.has('tag'),
    isMergeRequest: flags.has('merge-request'),
    defaultBranch,
    protectedRef: flags.has('protected'),
    // Left out unless given: a merge request without the project setting keeps --protected as given (as scenario files do).
    ...(flags.has('protect-merge-request-pipelines') ? { protectMergeRequestPipelines: true } : {}),
    ...(flags.has('merge-request-target-protected') ? { mergeRequestTargetProtected: true } : {}),
    ...(flags.has('from-fork') ? { fromFork: true } : {}),
    ...(values['pipeline-source'] ? { pipelineSource: values['pipeline-source'] } : {}),
    ...(values.user ? { userLogin: values.user } : {}),
    variables,
  };
}

/** A scenarios file: each object a full scenario (projectPath and ref at least), optionally with its `expect`. */
async function readScenarios(file: string, defaultBranch: string): Promise<{ scenario: Scenario; expect?: Expectation }[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read scenarios from ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!Array.isArray(data) || !data.every((s) => typeof s === 'object' && s && typeof (s as Scenario).projectPath === 'string' && typeof (s as Scenario).ref === 'string')) {
    throw new UsageError('the scenarios file must be a JSON array of objects with at least projectPath and ref (defaultBranch defaults to --default-branch)');
  }
  return (data as (Scenario & { expect?: unknown })[]).map(({ expect, ...s }, i) => ({
    scenario: { ...s, defaultBranch: s.defaultBranch ?? defaultBranch },
    ...(expect !== undefined ? { expect: readExpectation(expect, `scenario ${i + 1}`) } : {}),
  }));
}

/** The documented JSON contract (editor-only fields left out). */
function publicShape(o: AccessOutcome) {
  return {
    authorized: o.authorized,
    via: o.via,
    entry: o.entry,
    rule: o.rule,
    namespace: o.namespace,
    access_as: o.access_as,
    identity: o.identity,
    context: o.context,
    resource_management: o.resource_management,
    problems: o.problems,
    denial: o.denial,
    explanation: o.explanation,
  };
}

function scenarioLabel(scenario: Scenario): string {
  return scenario.name ?? `${scenario.projectPath} @ ${scenario.ref}${scenario.environmentName !== undefined ? ` → ${scenario.environmentName}` : ''}`;
}

/** What to show in the last column: the problems, or why the job is denied. */
function remarks(problems: readonly string[], denial: string | null): string {
  return [...problems, ...(denial ? [denial] : [])].join('; ');
}

function resultsText(results: readonly { scenario: Scenario; outcome: AccessOutcome }[]): string {
  return columns(
    ['scenario', 'authorized', 'via', 'rule', 'namespace', 'identity', 'problems'],
    results.map(({ scenario, outcome }) => [scenarioLabel(scenario), outcome.authorized ? 'yes' : 'no', viaLabel(outcome) ?? '-', outcome.rule ? String(outcome.rule) : '-', outcome.namespace ?? '-', outcome.identity?.username ?? '-', remarks(outcome.problems.map((p) => p.message), outcome.denial)]),
  );
}

function tableText(table: SimulationTable): string {
  const heading = `agent ${table.agent} · kubeconfig context ${table.context} · ${table.scenarios.length} scenarios`;
  const rows = table.rows.map((r) => [r.project, r.line === null ? '-' : String(r.line + 1), r.scenario, r.authorized ? 'yes' : 'no', r.via ?? '-', r.rule ? String(r.rule) : '-', r.namespace ?? '-', r.identity ?? '-', remarks(r.problems, r.denial)]);
  return `${heading}\n\n${columns(['project', 'line', 'scenario', 'authorized', 'via', 'rule', 'namespace', 'identity', 'problems'], rows)}`;
}

/** Left-aligned columns two spaces apart; the last column is not padded. */
function columns(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
