import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { agentAsGitlabReads, classifyPath, CONFIG_FILE_NAMES, pipelineAccess, type MappedAgent, type PipelineAccess } from '../../engine/api';
import type { ServerSettings } from '../../protocol';
import type { DocumentModels } from '../documentModels';
import { agentDirectoriesUnder } from '../../repository/agentConfigs';
import { repositoryFiles } from '../../repository/repositoryFiles';
import { projectPathFromGit, projectPathOf } from '../simulationContext';
import { documentPath, localFilePath } from '../uriPaths';

/** The project a pipeline is mapped for when neither a setting nor the git remote names it. */
const UNKNOWN_PROJECT = 'this-group/this-project';

/** Only the project's main CI file: `.gitlab-ci.yml` (the name GitLab reads by default). */
export function isPipelineDocument(uri: string): boolean {
  return path.posix.basename(documentPath(uri).replaceAll('\\', '/')) === '.gitlab-ci.yml';
}

/**
 * The editor's side of the pipeline access map: finds the agent configurations (open documents,
 * `.gitlab/agents/<agent>/config.yaml` beside the pipeline, and `gitlabAgentConfig.agentConfigs`),
 * reads included files, and keeps one map per pipeline version, settings and agents' texts.
 */
export class PipelineService {
  private readonly cache = new Map<string, { key: string; settings: ServerSettings; result: PipelineAccess }>();
  /** Each agent as last read, by its configuration's path: the same object while its text is the same. */
  private readonly read = new Map<string, { version: string; mapped: MappedAgent }>();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {}

  /** The project the pipeline at `file` runs in: the setting, else its git remote. */
  projectOf(file: string | null, settings: ServerSettings): string {
    return projectPathOf(file, settings.pipelineProjectPath) || UNKNOWN_PROJECT;
  }

  /**
   * The pipeline beside an agent configuration (`<repository>/.gitlab-ci.yml` for
   * `<repository>/.gitlab/agents/<agent>/config.yaml`), open or on disk, mapped; null when there is none.
   */
  besideAgent(configUri: string, settings: ServerSettings): { file: string; access: PipelineAccess } | null {
    const config = localFilePath(configUri);
    if (config === null) return null;
    const file = path.join(path.dirname(path.dirname(path.dirname(path.dirname(config)))), '.gitlab-ci.yml');
    const open = this.documents.all().find((d) => localFilePath(d.uri) === file);
    if (open) return { file, access: this.get(open, settings) };
    try {
      // Versioned by modification time, so the cache notices an edit on disk.
      const document = TextDocument.create(pathToFileURL(file).href, 'yaml', statSync(file).mtimeMs, readFileSync(file, 'utf8'));
      return { file, access: this.get(document, settings) };
    } catch {
      return null;
    }
  }

  get(document: TextDocument, settings: ServerSettings): PipelineAccess {
    const file = localFilePath(document.uri);
    const root = file === null ? null : path.dirname(file);
    const agents = this.agents(root, settings);
    const key = `${document.version}\u0000${agents.map((a) => `${a.version}:${a.file}`).join('\u0000')}`;
    const hit = this.cache.get(document.uri);
    if (hit && hit.key === key && hit.settings === settings) return hit.result;
    const result = pipelineAccess({
      text: document.getText(),
      file: '.gitlab-ci.yml',
      read: root === null ? () => null : Object.assign((included: string) => this.readIncluded(root, included), { list: repositoryFiles(root) }),
      projectPath: this.projectOf(file, settings),
      settings,
      agents: agents.map((a) => a.mapped),
      // The last map of this document, whatever changed since: the engine reuses what still holds.
      ...(hit ? { previous: hit.result } : {}),
    });
    this.cache.set(document.uri, { key, settings, result });
    return result;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** An included file: open (unsaved edits count) or on disk, inside the repository root only. */
  private readIncluded(root: string, included: string): string | null {
    const target = path.resolve(root, included.replace(/^\/+/, ''));
    if (path.relative(root, target).startsWith('..')) return null;
    const open = this.documents.all().find((d) => localFilePath(d.uri) === target);
    if (open) return open.getText();
    try {
      return readFileSync(target, 'utf8');
    } catch {
      return null;
    }
  }

  /**
   * Every agent for a pipeline at `root`, with a version that changes when its text does: the
   * directories under `<root>/.gitlab/agents/` (their `config.yaml` open or on disk, or none; their
   * configuration project from the setting, else the git remote), then those of
   * `gitlabAgentConfig.agentConfigs` (their project from their own git remote first: they live in
   * another repository). Each is read as GitLab reads it (engine/pipeline/agents.ts).
   */
  private agents(root: string | null, settings: ServerSettings): { file: string; version: string; mapped: MappedAgent }[] {
    const directories = root === null ? [] : agentDirectoriesUnder(root);
    const beside = new Map<string, { file: string; ignored: readonly string[]; hasConfig: boolean }>();
    for (const dir of directories) {
      const file = dir.config ?? path.join(root!, '.gitlab', 'agents', dir.name, CONFIG_FILE_NAMES[0]);
      beside.set(file, { file, ignored: dir.ignored, hasConfig: dir.config !== null });
    }
    const open = new Map<string, TextDocument>();
    for (const document of this.documents.all()) {
      const file = localFilePath(document.uri);
      if (file === null || classifyPath(file).kind !== 'agentConfig') continue;
      open.set(file, document);
      if (root !== null && path.dirname(path.dirname(path.dirname(path.dirname(file)))) === root && !beside.has(file)) beside.set(file, { file, ignored: [], hasConfig: true });
    }
    const elsewhere = settings.agentConfigs.map((extra) => (root !== null ? path.resolve(root, extra) : extra)).filter((file) => !beside.has(file));
    const found = [
      ...[...beside.values()].sort((a, b) => a.file.localeCompare(b.file)).map((dir) => ({ ...dir, project: projectPathOf(dir.file, settings.configProjectPath) })),
      ...elsewhere.map((file) => ({ file, ignored: [], hasConfig: true, project: projectPathFromGit(file) ?? settings.configProjectPath })),
    ];
    return found.flatMap(({ file, ignored, hasConfig, project }) => {
      const kind = classifyPath(file);
      if (kind.kind !== 'agentConfig') return [];
      const agent = { configProjectPath: project, name: kind.agentName };
      const document = open.get(file);
      // An open configuration is taken as the editor parsed it.
      const source = document
        ? { version: `open ${document.version}`, config: () => ({ parsed: this.models.get(document), ciAccess: this.models.ciAccess(document) }) }
        : hasConfig
          ? this.fromDisk(file)
          : { version: `none ${ignored.join(',')}`, config: () => null };
      if (!source) return [];
      const version = `${source.version} ${project} ${settings.gitlabVersion} ${settings.target}`;
      const cached = this.read.get(file);
      if (cached?.version === version) return [{ file, version, mapped: cached.mapped }];
      const mapped = agentAsGitlabReads(agent, source.config(), { gitlabVersion: settings.gitlabVersion, target: settings.target, ignored });
      this.read.set(file, { version, mapped });
      return [{ file, version, mapped }];
    });
  }

  /** A configuration on disk, versioned by its modification time; null when it cannot be read. */
  private fromDisk(file: string): { version: string; config: () => string | null } | null {
    try {
      const mtimeMs = statSync(file).mtimeMs;
      return { version: `disk ${mtimeMs}`, config: () => readText(file) };
    } catch {
      return null;
    }
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
