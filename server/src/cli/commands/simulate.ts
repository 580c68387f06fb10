import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readCiAccess } from '../../engine/access/model';
import { simulateAccess, type AccessOutcome, type SimulationOptions } from '../../engine/access/simulate';
import { isCompatibilityTarget } from '../../engine/config/compatibilityTarget';
import { parseYaml } from '../../engine/config/yamlDocument';
import { classifyPath } from '../../engine/files';
import { ENVIRONMENT_TIERS, type EnvironmentTier } from '../../engine/vars/environment-tier';
import type { Scenario } from '../../engine/vars/scenario';
import { configProjectPathFromGit } from '../../workspace/gitRemote';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import type { CliCommand } from '../io';
import { checkName, choiceOption, environmentNameProblem, integerOption } from '../options';
import { workingOn } from '../run';

const USAGE = `agentcfg simulate <config.yaml> --project <full/path> [--environment <name>] [--tier <tier>] [--ref <ref>] [--tag]
       [--merge-request] [--default-branch <b>] [--protected] [--pipeline-source <s>] [--user <login>] [--project-id <id>]
       [--var K=V]... [--agent-project <full/path>] [--agent <name>] [--target proposal|gitlab]
       [--no-rule-match deny|allow] [--overlong-namespace error|truncate] [--instance-level] [--json]
   or: agentcfg simulate <config.yaml> --scenarios <file.json> [--json]   (a JSON array of scenarios; one result each)`;

/**
 * `agentcfg simulate`: which access a CI job gets from the agent of a config file — authorized?,
 * via which entry and rule, in which namespace, as which identity.
 */
export const simulateCommand: CliCommand = {
  name: 'simulate',
  summary: 'Simulate which CI/CD jobs get access to the agent, where and as whom.',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, {
      values: ['project', 'environment', 'tier', 'ref', 'default-branch', 'pipeline-source', 'user', 'project-id', 'agent-project', 'agent', 'target', 'no-rule-match', 'overlong-namespace', 'scenarios'],
      repeated: ['var'],
      flags: ['tag', 'merge-request', 'protected', 'json', 'instance-level'],
    });
    if (args.positional.length !== 1) throw new UsageError('name exactly one config.yaml');
    checkSimulateOptions(args);
    const file = path.resolve(io.cwd, args.positional[0]);
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${args.positional[0]}: ${err.code ?? err.message}`);
    });
    const kind = classifyPath(file);
    const agent = {
      configProjectPath: args.values['agent-project'] ?? configProjectPathFromGit(file) ?? '',
      name: args.values.agent ?? (kind.kind === 'agentConfig' ? kind.agentName : path.basename(path.dirname(file))),
    };
    const options = simulationOptions(args.values, args.flags.has('instance-level'));
    const model = await workingOn(args.positional[0], async () => readCiAccess(parseYaml(text).value));

    const scenarios = args.values.scenarios ? await readScenarios(path.resolve(io.cwd, args.values.scenarios)) : [scenarioFromArgs(args.values, args.flags, args.repeated.var ?? [])];
    const results = await workingOn(args.positional[0], async () => scenarios.map((scenario) => ({ scenario, outcome: simulateAccess(model, agent, scenario, options) })));

    if (args.flags.has('json')) {
      if (!args.values.scenarios) io.out(JSON.stringify(publicShape(results[0].outcome)) + '\n');
      else io.out(results.map((r) => JSON.stringify({ scenario: r.scenario, ...publicShape(r.outcome) })).join('\n') + '\n');
    } else {
      io.out(table(results) + '\n');
    }
    return 0;
  },
};

/** The option values, checked before the config is read. */
function checkSimulateOptions(args: ParsedArgs): void {
  simulationOptions(args.values, false);
  integerOption(args, 'project-id', false);
  choiceOption(args, 'tier', ENVIRONMENT_TIERS);
  if (args.values.agent !== undefined) checkName('agent', args.values.agent, 'label');
  const environment = args.values.environment;
  const problem = environment === undefined ? undefined : environmentNameProblem(environment);
  if (problem) throw new UsageError(`--environment must be a GitLab environment name (letters, digits, spaces, '-', '_', '/', '$', '{', '}', '.'); "${environment}" ${problem}`);
  if (args.values.scenarios !== undefined) {
    const single = ['project', 'environment', 'tier', 'ref', 'default-branch', 'pipeline-source', 'user', 'project-id'].filter((o) => args.values[o] !== undefined);
    if (single.length || args.repeated.var?.length) throw new UsageError(`--scenarios takes every scenario from its file; leave out ${[...single.map((o) => `--${o}`), ...(args.repeated.var?.length ? ['--var'] : [])].join(', ')}`);
  }
}

function simulationOptions(values: Partial<Record<string, string>>, instanceLevel: boolean): SimulationOptions {
  const target = values.target ?? 'proposal';
  if (!isCompatibilityTarget(target)) throw new UsageError('--target must be proposal or gitlab');
  const noRuleMatch = values['no-rule-match'] ?? 'deny';
  if (noRuleMatch !== 'deny' && noRuleMatch !== 'allow') throw new UsageError('--no-rule-match must be deny or allow');
  const overlong = values['overlong-namespace'] ?? 'error';
  if (overlong !== 'error' && overlong !== 'truncate') throw new UsageError('--overlong-namespace must be error or truncate');
  return { target, noRuleMatch, overlongNamespace: overlong, instanceLevel };
}

function scenarioFromArgs(values: Partial<Record<string, string>>, flags: Set<string>, vars: string[]): Scenario {
  if (!values.project) throw new UsageError('--project is required');
  const tier = values.tier;
  if (tier !== undefined && !ENVIRONMENT_TIERS.includes(tier as EnvironmentTier)) throw new UsageError(`--tier must be one of ${ENVIRONMENT_TIERS.join(', ')}`);
  const defaultBranch = values['default-branch'] ?? 'main';
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
    ...(values['pipeline-source'] ? { pipelineSource: values['pipeline-source'] } : {}),
    ...(values.user ? { userLogin: values.user } : {}),
    variables,
  };
}

async function readScenarios(file: string): Promise<Scenario[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read scenarios from ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!Array.isArray(data) || !data.every((s) => typeof s === 'object' && s && typeof (s as Scenario).projectPath === 'string' && typeof (s as Scenario).ref === 'string')) {
    throw new UsageError('the scenarios file must be a JSON array of objects with at least projectPath, ref and defaultBranch');
  }
  return (data as Scenario[]).map((s) => ({ ...s, defaultBranch: s.defaultBranch ?? 'main' }));
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
    explanation: o.explanation,
  };
}

function table(results: { scenario: Scenario; outcome: AccessOutcome }[]): string {
  const rows = results.map(({ scenario, outcome }) => [
    scenario.name ?? `${scenario.projectPath} @ ${scenario.ref}${scenario.environmentName !== undefined ? ` → ${scenario.environmentName}` : ''}`,
    outcome.authorized ? 'yes' : 'no',
    outcome.via ? `${outcome.via}${outcome.entry ? ` ${outcome.entry}` : ''}` : '-',
    outcome.rule ? String(outcome.rule) : '-',
    outcome.namespace ?? '-',
    outcome.identity?.username ?? '-',
    outcome.problems.map((p) => p.message).join('; ') || (outcome.authorized ? '' : (outcome.explanation.at(-1) ?? '')),
  ]);
  const header = ['scenario', 'authorized', 'via', 'rule', 'namespace', 'identity', 'problems'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
