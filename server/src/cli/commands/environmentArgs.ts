/**
 * What `agentcfg render|apply|destroy` share: the template to use, the scenario and ids it is
 * rendered for (docs/gitlab-behaviour.md#template-variables-and-functions), and how template errors are printed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareEnvironment, type PreparedEnvironment } from '../../cluster/apply/environment';
import { classifyPath, ENVIRONMENT_TIERS, type EngineDiagnostic, type EnvironmentTier } from '../../engine/api';
import { UsageError, type ParsedArgs } from '../args';
import type { CliIo } from '../io';
import { checkName, choiceOption, environmentNameProblem, integerOption, nameOption } from '../options';
import { workingOn } from '../run';

/** Options naming the environment (values). */
export const ENVIRONMENT_VALUES = [
  'project',
  'project-id',
  'environment',
  'tier',
  'environment-url',
  'environment-id',
  'agent',
  'agent-id',
  'agent-project',
  'agent-namespace',
  'user',
  'user-id',
  'pipeline-id',
  'job-id',
  'gitlab-url',
];

export const ENVIRONMENT_USAGE = `[<environment_templates/default.yaml>] --project <full/path> --project-id <id> --environment <name> --agent-id <id>
       [--agent <name>] [--agent-project <full/path>] [--tier <tier>] [--environment-url <url>] [--environment-id <id>]
       [--user <login>] [--user-id <id>] [--pipeline-id <id>] [--job-id <id>] [--gitlab-url <url>] [--agent-namespace <ns>]
   (without a template file: GitLab's built-in default template)`;

/** Outcome of {@link environmentFromArgs}: template errors point at the template file. */
export type EnvironmentFromArgs =
  | { readonly ok: true; readonly environment: PreparedEnvironment; readonly templateFile: string | undefined }
  | { readonly ok: false; readonly templateFile: string | undefined; readonly errors: readonly EngineDiagnostic[]; readonly message?: string };

/** An http(s) URL option, when given. */
function urlOption(args: ParsedArgs, option: string): string | undefined {
  const value = args.values[option];
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new UsageError(`--${option} must be an http(s) URL such as https://gitlab.example.com, got "${value}"`);
  return value;
}

/**
 * Every option of the environment checked, before the template is read: names, ids, the tier,
 * URLs. Missing required options are reported by {@link environmentFromArgs}.
 */
export function checkEnvironmentOptions(args: ParsedArgs): void {
  const environment = args.values.environment;
  const problem = environment === undefined ? undefined : environmentNameProblem(environment);
  if (problem) throw new UsageError(`--environment must be a GitLab environment name (letters, digits, spaces, '-', '_', '/', '$', '{', '}', '.'); "${environment}" ${problem}`);
  if (args.values.agent !== undefined) checkName('agent', args.values.agent, 'label');
  nameOption(args, 'agent-namespace', 'namespace');
  choiceOption(args, 'tier', ENVIRONMENT_TIERS);
  for (const option of ['project-id', 'agent-id', 'environment-id', 'pipeline-id', 'job-id', 'user-id']) integerOption(args, option, false);
  urlOption(args, 'environment-url');
  urlOption(args, 'gitlab-url');
}

/** Reads the template (or uses the built-in default), renders it for the scenario of the flags. */
export async function environmentFromArgs(args: ParsedArgs, io: CliIo): Promise<EnvironmentFromArgs> {
  if (args.positional.length > 1) throw new UsageError('name at most one template file');
  checkEnvironmentOptions(args);
  const file = args.positional[0];
  const absolute = file === undefined ? undefined : path.resolve(io.cwd, file);
  const templateText =
    absolute === undefined
      ? undefined
      : await readFile(absolute, 'utf8').catch((err: NodeJS.ErrnoException) => {
          throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
        });
  const kind = absolute ? classifyPath(absolute) : undefined;
  const agentName = args.values.agent ?? (kind?.kind === 'environmentTemplate' ? kind.agentName : undefined);
  if (agentName !== undefined && args.values.agent === undefined) checkName('agent', agentName, 'label');
  if (!agentName) throw new UsageError('--agent <name> is required (or name a template under .gitlab/agents/<agent>/environment_templates/)');
  const project = args.values.project;
  if (!project) throw new UsageError('--project <full/path> is required');
  const environment = args.values.environment;
  if (!environment) throw new UsageError('--environment <name> is required (GitLab renders templates only for jobs with an environment)');
  const tier: EnvironmentTier | undefined = choiceOption(args, 'tier', ENVIRONMENT_TIERS);
  const optional = (name: string, key: string): Record<string, number> => {
    const n = integerOption(args, name, false);
    return n === undefined ? {} : { [key]: n };
  };
  // An exception in rendering is a bug; the message names the template it happened on.
  const result = await workingOn(file ?? '<built-in default template>', async () =>
    prepareEnvironment({
      templateText,
      ...(kind?.kind === 'environmentTemplate' ? { templateName: kind.templateName } : {}),
      scenario: {
        projectPath: project,
        projectId: integerOption(args, 'project-id', true),
        environmentName: environment,
        ...(tier ? { environmentTier: tier } : {}),
        ...(args.values['environment-url'] ? { environmentUrl: args.values['environment-url'] } : {}),
        ...(args.values.user ? { userLogin: args.values.user } : {}),
        ref: 'main',
        defaultBranch: 'main',
      },
      ids: {
        agentId: integerOption(args, 'agent-id', true) as number,
        agentName,
        ...(args.values['agent-project'] ? { agentProjectPath: args.values['agent-project'] } : {}),
        ...optional('environment-id', 'environmentId'),
        ...optional('pipeline-id', 'pipelineId'),
        ...optional('job-id', 'jobId'),
        ...optional('user-id', 'userId'),
        ...(args.values['gitlab-url'] ? { gitlabUrl: args.values['gitlab-url'] } : {}),
      },
      ...(args.values['agent-namespace'] ? { agentNamespace: args.values['agent-namespace'] } : {}),
    }),
  );
  if (result.ok) return { ok: true, environment: result.environment, templateFile: file };
  if (result.stage === 'data') throw new UsageError(result.message);
  return { ok: false, templateFile: file, errors: result.errors };
}

/** `file:line:col: severity: message [code]` lines, 1-based, as `agentcfg validate` prints them. */
export function diagnosticLines(file: string | undefined, diagnostics: readonly EngineDiagnostic[]): string {
  const name = file ?? '<built-in default template>';
  return diagnostics.map((d) => `${name}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message} [${d.code}]\n`).join('');
}
