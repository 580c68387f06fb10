import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { accessDiff, AGENT_CONFIG_FILE, AGENT_TEMPLATE_FILE, agentFileVersions, changeJson, classifyPath, diffMarkdown, diffText, isReadAgentFile, UNNAMED_AGENT, type AccessDiffVersion, type AgentFilePaths, type AgentFiles, type ProjectSettings } from '../../engine/api';
import { parseArgs, UsageError } from '../args';
import type { CliCommand } from '../io';
import { DIFF_SUMMARY } from './diffSummary';
import { checkName, choiceOption } from '../options';
import { PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs, settingsForFile } from '../projectSettings';
import { workingOn } from '../run';

const USAGE = `agentcfg diff --base <git revision> [paths...] [--format text|json|markdown] [--project <full/path>]...
       [--pipeline <.gitlab-ci.yml> [--pipeline-project <full/path>]] ${PROJECT_SETTING_USAGE}
         the agent files of the work tree against those of <revision> (read with git show): every
         .gitlab/agents/<agent>/config.yaml and environment_templates/default.yaml of the repository,
         or those under [paths...], agents added or deleted since included
   or: agentcfg diff <old config.yaml> <new config.yaml> [--agent <name>] [same options]
         (two environment templates: compared with the config.yaml beside the new one)
   --project adds a project to compare (one a group entry covers, the project a pipeline runs in).
   --pipeline adds each job of that pipeline in each pipeline situation as a scenario (both versions of the file
   with --base); its project is --pipeline-project, by default the agents' configuration project.
   Exit 0 when no change is listed, 1 when one is (a pipeline can require approval; a via change, where another
   entry or rule now decides the same access, counts), 2 usage errors.`;


/** Both versions and where each agent's files are, for the output. */
interface Versions {
  readonly before: AccessDiffVersion;
  readonly after: AccessDiffVersion;
  readonly files: (agent: string, version: 'before' | 'after') => Omit<AgentFilePaths, 'pipeline'>;
  /** The repository root (git) or the working directory (two files): where `.gitlab-ci.yml` and its includes are read. */
  readonly root: string;
  /** Reads a file of one version, by its path from `root`; null when that version has none. */
  readonly read: (version: 'before' | 'after', file: string) => string | null;
  /** What the old version is called in the output. */
  readonly base: string;
}

/**
 * `agentcfg diff`: what a change to agent configurations and templates does to CI/CD jobs — which
 * project in which situation gains or loses access, moves namespace, changes identity or managed
 * objects (engine/diff `accessDiff`, with the editor's settings).
 */
export const diffCommand: CliCommand = {
  name: 'diff',
  summary: DIFF_SUMMARY,
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['base', 'format', 'agent', 'pipeline', 'pipeline-project', ...PROJECT_SETTING_OPTIONS.values], repeated: ['project'], flags: [...PROJECT_SETTING_OPTIONS.flags] });
    const format = choiceOption(args, 'format', ['text', 'json', 'markdown'] as const) ?? 'text';
    const base = args.values.base;
    if (base === undefined && args.positional.length !== 2) throw new UsageError('give --base <git revision> (and optionally paths), or exactly two files: <old> <new>');
    if (base !== undefined && args.values.agent !== undefined) throw new UsageError('--agent names the agent of two files; with --base each agent is named by its folder');
    if (args.values.agent !== undefined) checkName('agent', args.values.agent, 'label');
    for (const project of args.repeated.project ?? []) if (!/^[^/\s]+(\/[^/\s]+)+$/.test(project)) throw new UsageError(`--project must be a full project path such as acme/shop/web, got "${project}"`);
    let settings = projectSettingsFromArgs(args, io.cwd);

    const versions = base !== undefined ? gitVersions(base, args.positional, io.cwd) : fileVersions(args.positional[0], args.positional[1], args.values.agent, io.cwd);
    if (!settings.configProjectPath) settings = settingsForFile(settings, path.join(io.cwd, 'config.yaml'), io.cwd);
    const pipeline = args.values.pipeline === undefined ? undefined : pipelineVersions(versions, path.relative(versions.root, path.resolve(io.cwd, args.values.pipeline)).replaceAll(path.sep, '/'), args.values['pipeline-project'] ?? settings.configProjectPath);
    if (args.values.pipeline === undefined && args.values['pipeline-project'] !== undefined) throw new UsageError('--pipeline-project goes with --pipeline');
    const changes = await workingOn(versions.base, async () => accessDiff({ before: withProject(versions.before, settings), after: withProject(versions.after, settings), settings, projects: args.repeated.project ?? [], ...(pipeline ? { pipeline } : {}) }));

    const pipelineShown = args.values.pipeline ?? '.gitlab-ci.yml';
    const files: AgentFiles = (agent, version) => ({ ...versions.files(agent, version), pipeline: pipelineShown });
    if (format === 'json') io.out(`${JSON.stringify(changes.map((c) => changeJson(c, files)), null, 2)}\n`);
    else if (format === 'markdown') io.out(diffMarkdown(changes, versions.base, files));
    else io.out(diffText(changes, versions.base, files));
    return changes.length ? 1 : 0;
  },
};

/** Both versions of `.gitlab-ci.yml` (by its path from the root) with their includes; a version without the file has an empty pipeline. */
function pipelineVersions(versions: Versions, file: string, projectPath: string) {
  if (file.startsWith('..')) throw new UsageError(`--pipeline ${file} is outside ${versions.root}`);
  if (!projectPath) throw new UsageError('--pipeline needs the project it runs in: --pipeline-project <full/path> (or --agent-project, or a git remote)');
  if (versions.read('after', file) === null && versions.read('before', file) === null) throw new UsageError(`cannot read --pipeline ${file}`);
  const version = (side: 'before' | 'after') => ({ text: versions.read(side, file) ?? '', file, read: (included: string) => versions.read(side, included.replace(/^\/+/, '')), projectPath });
  return { before: version('before'), after: version('after') };
}

/** Each config with the agent configuration project the settings (or the git remote) name. */
function withProject(version: AccessDiffVersion, settings: ProjectSettings): AccessDiffVersion {
  return { ...version, configs: Object.fromEntries(Object.entries(version.configs).map(([key, c]) => [key, { ...c, configProjectPath: c.configProjectPath ?? settings.configProjectPath }])) };
}

function git(args: readonly string[], cwd: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The base revision's agent files (git show) and the work tree's, for the agents under `paths` (default: all). */
function gitVersions(revision: string, paths: readonly string[], cwd: string): Versions {
  let root: string;
  try {
    root = git(['rev-parse', '--show-toplevel'], cwd).trim();
  } catch {
    throw new UsageError(`--base needs a git repository: ${cwd} is not in one`);
  }
  if (revision.startsWith('-')) throw new UsageError(`--base must be a git revision, got "${revision}"`);
  try {
    git(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], root);
  } catch {
    throw new UsageError(`--base ${revision} is not a commit of this repository (in a CI job, fetch it first: GIT_DEPTH or git fetch)`);
  }
  const scopes = paths.map((p) => path.relative(root, path.resolve(cwd, p)).replaceAll(path.sep, '/'));
  for (const [i, scope] of scopes.entries()) if (scope.startsWith('..')) throw new UsageError(`${paths[i]} is outside the repository ${root}`);
  const inScope = (file: string) => !scopes.length || scopes.some((s) => s === '' || file === s || file.startsWith(`${s}/`));
  const agentFile = (file: string) => isReadAgentFile(file) && inScope(file);
  const baseFiles = new Set(git(['ls-tree', '-r', '-z', '--name-only', revision], root).split('\0').filter(agentFile));
  const headFiles = new Set(git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root).split('\0').filter(agentFile));
  const readBase = (file: string) => {
    try {
      return git(['show', `${revision}:${file}`], root);
    } catch {
      return null; // not in the base revision
    }
  };
  // null: deleted in the work tree, not yet staged
  const readHead = (file: string) => readOptional(path.join(root, file));
  const pairs = [...new Set([...baseFiles, ...headFiles])].map((file) => ({ path: file, before: baseFiles.has(file) ? readBase(file) : null, after: headFiles.has(file) ? readHead(file) : null }));
  const { before, after, folderOf } = agentFileVersions(pairs);
  const displayed = (file: string) => path.relative(cwd, path.join(root, file)).replaceAll(path.sep, '/') || file;
  return {
    before,
    after,
    files: (agent) => ({ config: displayed(`${folderOf(agent)}${AGENT_CONFIG_FILE}`), template: displayed(`${folderOf(agent)}${AGENT_TEMPLATE_FILE}`) }),
    base: revision,
    root,
    read: (side, file) => (side === 'before' ? readBase(file) : readHead(file)),
  };
}

/** Two files: two configs of one agent, or two templates compared with the config beside the new one. */
function fileVersions(oldFile: string, newFile: string, agent: string | undefined, cwd: string): Versions {
  const read = (file: string) => {
    try {
      return readFileSync(path.resolve(cwd, file), 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  const kinds = [classifyPath(path.resolve(cwd, newFile)), classifyPath(path.resolve(cwd, oldFile))];
  const named = kinds.flatMap((k) => (k.kind === 'other' ? [] : [k.agentName]))[0];
  const name = agent ?? named ?? UNNAMED_AGENT;
  const oldText = read(oldFile);
  const newText = read(newFile);
  if (kinds[0].kind === 'environmentTemplate') {
    const configFile = path.join(path.dirname(path.dirname(path.resolve(cwd, newFile))), AGENT_CONFIG_FILE);
    const config = read(path.relative(cwd, configFile));
    return {
      before: { configs: { [name]: { text: config } }, templates: { [name]: oldText } },
      after: { configs: { [name]: { text: config } }, templates: { [name]: newText } },
      files: (_agent, version) => ({ config: path.relative(cwd, configFile), template: version === 'before' ? oldFile : newFile }),
      base: oldFile,
      root: cwd,
      read: (_side, file) => readOptional(path.join(cwd, file)),
    };
  }
  return { before: { configs: { [name]: { text: oldText } } }, after: { configs: { [name]: { text: newText } } }, files: (_agent, version) => ({ config: version === 'before' ? oldFile : newFile, template: AGENT_TEMPLATE_FILE }), base: oldFile, root: cwd, read: (_side, file) => readOptional(path.join(cwd, file)) };
}

function readOptional(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
