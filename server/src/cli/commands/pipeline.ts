import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentAsGitlabReads, classifyPath, pipelineAccess, TRIGGER_JOB_ACCESS, usedContextText, type JobAccess, type JobScenario, type MappedAgent, type ProjectSettings } from '../../engine/api';
import { agentDirectoriesUnder } from '../../repository/agentConfigs';
import { repositoryFiles } from '../../repository/repositoryFiles';
import { configProjectPathFromGit, repositoryRootOf } from '../../repository/gitRemote';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import type { CliCommand } from '../io';
import { PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs } from '../projectSettings';
import { formatOption } from '../options';

const USAGE = `agentcfg pipeline <.gitlab-ci.yml> [--project <full/path>] [--agent-config <config.yaml>]... [--root <dir>]
       [--ref <ref>] [--tag] [--merge-request] [--protected] [--pipeline-source <s>] [--user <login>] [--var K=V]...
       [--format text|json] ${PROJECT_SETTING_USAGE}
   Without --root: the folder of a .gitlab-ci.yml, else (a custom CI file path) the git repository's root.
   Without --project: the project of the git remote (origin first) of the pipeline's repository.
   Without --agent-config: every agent of .gitlab/agents/ under the repository root (default: the pipeline file's folder),
   each with its config.yaml (an agent without one still authorizes its own project).
   Without scenario flags: the built-in pipeline situations (push to the default branch, to a feature branch, a tag,
   a merge request, a schedule), then the scenarios of --settings.`;

/** Options that describe one pipeline situation. */
const SITUATION_VALUES = ['ref', 'pipeline-source', 'user'];
const SITUATION_FLAGS = ['tag', 'merge-request', 'protected'];

/**
 * `agentcfg pipeline`: the access map of a project's pipeline — for each job and situation, whether
 * it runs, its environment, and every agent's context in its KUBECONFIG (authorized or why not,
 * namespace, identity, managed environment). The same engine call as the editor's lenses on `.gitlab-ci.yml`.
 */
export const pipelineCommand: CliCommand = {
  name: 'pipeline',
  summary: "Map which jobs of a .gitlab-ci.yml get which agent's cluster, where and as whom.",
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, {
      values: ['project', 'root', 'format', ...SITUATION_VALUES, ...PROJECT_SETTING_OPTIONS.values],
      repeated: ['agent-config', 'var'],
      flags: [...SITUATION_FLAGS, ...PROJECT_SETTING_OPTIONS.flags],
    });
    if (args.positional.length !== 1) throw new UsageError('name exactly one .gitlab-ci.yml');
    const format = formatOption(args);
    const settings = projectSettingsFromArgs(args, io.cwd);
    const situation = situationFromArgs(args);
    const file = path.resolve(io.cwd, args.positional[0]);
    // The project the pipeline runs in: the flag, else the git remote of the pipeline's repository.
    const projectPath = args.values.project || configProjectPathFromGit(file);
    if (!projectPath) throw new UsageError(`${args.positional[0]} is in no git repository with a remote: name the project it runs in with --project <full/path>`);
    const root = path.resolve(io.cwd, args.values.root ?? defaultRoot(file));
    const text = readText(file);
    if (text === null) throw new UsageError(`cannot read ${args.positional[0]}`);
    // Agents beside the pipeline share its repository; those named by --agent-config live in their own.
    const extra = args.repeated['agent-config'];
    const agents = extra
      ? extra.map((c) => mappedAgent(path.resolve(io.cwd, c), configProjectPathFromGit(path.resolve(io.cwd, c)) || settings.configProjectPath || projectPath, settings))
      : agentDirectoriesUnder(root).map((dir) => {
          const configProjectPath = settings.configProjectPath || configProjectPathFromGit(path.join(root, '.gitlab')) || projectPath;
          return agentAsGitlabReads({ configProjectPath, name: dir.name }, dir.config === null ? null : readText(dir.config), { gitlabVersion: settings.gitlabVersion, target: settings.target, ignored: dir.ignored });
        });

    const result = pipelineAccess({
      text,
      file: path.relative(root, file).replaceAll(path.sep, '/'),
      read: Object.assign((included: string) => readText(path.join(root, included.replace(/^\/+/, ''))), { list: repositoryFiles(root) }),
      projectPath,
      settings,
      agents,
      ...(situation ? { scenarios: [situation] } : {}),
    });
    const rows = [...result.map, ...result.children];
    io.out(format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : mapText(rows, agents.length));
    // Paths as the user typed them: relative to the working directory, not the repository root.
    const shown = (repositoryPath: string) => {
      const absolute = path.join(root, repositoryPath);
      const relative = path.relative(io.cwd, absolute);
      return relative.startsWith('..') ? absolute : relative || repositoryPath;
    };
    for (const d of result.diagnostics) io.err(`${shown(d.file)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message} [${d.code}]\n`);
    return result.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
  },
};

/**
 * The repository root `include:local` paths start from: a `.gitlab-ci.yml` is where GitLab reads it
 * by default, at the root; a CI file by another name is a project's custom CI path, somewhere in its
 * repository, whose root is the git root.
 */
function defaultRoot(file: string): string {
  if (path.basename(file) === '.gitlab-ci.yml') return path.dirname(file);
  return repositoryRootOf(file) ?? path.dirname(file);
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The situation the flags describe, or null for the active ones. */
function situationFromArgs(args: ParsedArgs): JobScenario | null {
  const given = SITUATION_VALUES.some((o) => args.values[o] !== undefined) || SITUATION_FLAGS.some((f) => args.flags.has(f)) || (args.repeated.var?.length ?? 0) > 0;
  if (!given) return null;
  const variables: Record<string, string> = {};
  for (const pair of args.repeated.var ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var needs KEY=VALUE, got "${pair}"`);
    variables[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const ref = args.values.ref ?? 'main';
  return {
    name: `${args.flags.has('merge-request') ? 'merge request from ' : args.flags.has('tag') ? 'tag ' : 'push to '}${ref}`,
    ref,
    isTag: args.flags.has('tag'),
    isMergeRequest: args.flags.has('merge-request'),
    protectedRef: args.flags.has('protected'),
    ...(args.values['pipeline-source'] ? { pipelineSource: args.values['pipeline-source'] } : {}),
    ...(args.values.user ? { userLogin: args.values.user } : {}),
    variables,
  };
}

/** An agent from its config file, named by its folder. */
function mappedAgent(file: string, configProjectPath: string, settings: ProjectSettings): MappedAgent {
  const text = readText(file);
  if (text === null) throw new UsageError(`cannot read --agent-config ${file}`);
  const kind = classifyPath(file);
  if (kind.kind !== 'agentConfig') throw new UsageError(`--agent-config ${file} is not at .gitlab/agents/<agent>/config.yaml, so its agent has no name`);
  return agentAsGitlabReads({ configProjectPath, name: kind.agentName }, text, { gitlabVersion: settings.gitlabVersion, target: settings.target });
}

function mapText(map: readonly JobAccess[], agents: number): string {
  if (!map.length) return 'No jobs.\n';
  const lines: string[] = [];
  let job = '';
  // A child pipeline's job is named under its trigger job.
  const nameOf = (r: JobAccess) => (r.parent ? `${r.parent} ▸ ${r.job}` : r.job);
  // Grouped by job, jobs in pipeline order (the map is ordered by situation, then job), each
  // trigger job's child jobs right under it.
  const named = [...new Set(map.map(nameOf))];
  const childrenOf = (name: string) => named.filter((n) => n.startsWith(`${name} ▸ `));
  const jobs = [...new Set(named.filter((n) => !map.some((r) => r.parent && nameOf(r) === n)).flatMap((n) => [n, ...childrenOf(n)]))];
  for (const row of jobs.flatMap((name) => map.filter((r) => nameOf(r) === name))) {
    if (nameOf(row) !== job) {
      job = nameOf(row);
      // The environment as expanded where the job runs (its name may depend on the ref).
      const environment = (map.find((r) => nameOf(r) === job && r.runs !== false) ?? row).environment;
      lines.push('', `${job}${environment ? ` → environment ${environment.name}${environment.action !== 'start' ? ` (${environment.action})` : ''}` : ''}`);
    }
    const runs = row.runs === true ? (row.when === 'manual' ? 'manual' : 'runs') : row.runs === false ? 'does not run' : 'depends';
    const contexts = row.runs === false ? '' : row.trigger ? TRIGGER_JOB_ACCESS : row.contexts.map((c) => (c.authorized ? `${c.context} → ${c.namespace ?? '(no namespace)'} as ${c.identity}${c.managedEnvironment ? ' [managed environment]' : ''}` : `${c.context} ✗ ${c.reason ?? 'not authorized'}`)).join('; ') || (agents ? '' : 'no agent configuration found');
    const used = row.runs === false || !row.usedContexts.length ? '' : `; selects ${row.usedContexts.map(usedContextText).join(', ')}`;
    lines.push(`  ${row.scenario}: ${runs} (${row.reason})${contexts ? ` — ${contexts}` : ''}${used}`);
  }
  return `${lines.join('\n').trimStart()}\n`;
}
