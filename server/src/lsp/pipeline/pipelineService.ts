import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readCiAccess, type CiAccessModel } from '../../engine/access/model';
import { parseYaml } from '../../engine/config/yamlDocument';
import { classifyPath } from '../../engine/files';
import type { MappedAgent } from '../../engine/pipeline/accessMap';
import { pipelineAccess, type PipelineAccess } from '../../engine/project';
import type { ServerSettings } from '../../protocol';
import type { DocumentModels } from '../documentModels';
import { agentConfigsUnder } from '../../workspace/agentConfigs';
import { projectPathFromGit } from '../simulationContext';
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
  private readonly onDisk = new Map<string, { mtimeMs: number; ciAccess: CiAccessModel }>();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {}

  /** The project the pipeline at `file` runs in: the setting, else its git remote. */
  projectOf(file: string | null, settings: ServerSettings): string {
    return settings.pipelineProjectPath || (file === null ? null : projectPathFromGit(file)) || UNKNOWN_PROJECT;
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
      read: (included) => (root === null ? null : this.readIncluded(root, included)),
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
   * Every agent configuration for a pipeline at `root`, with a version that changes when its text
   * does: those under `<root>/.gitlab/agents/` (open or on disk; their configuration project from the
   * setting, else the git remote), then those of `gitlabAgentConfig.agentConfigs` (their project from
   * their own git remote first: they live in another repository).
   */
  private agents(root: string | null, settings: ServerSettings): { file: string; version: string; mapped: MappedAgent }[] {
    const beside = new Set(root === null ? [] : agentConfigsUnder(root));
    const open = new Map<string, TextDocument>();
    for (const document of this.documents.all()) {
      const file = localFilePath(document.uri);
      if (file === null || classifyPath(file).kind !== 'agentConfig') continue;
      open.set(file, document);
      if (root !== null && path.dirname(path.dirname(path.dirname(path.dirname(file)))) === root) beside.add(file);
    }
    const elsewhere = settings.agentConfigs.map((extra) => (root !== null ? path.resolve(root, extra) : extra)).filter((file) => !beside.has(file));
    const found = [...[...beside].sort().map((file) => ({ file, project: settings.configProjectPath || (projectPathFromGit(file) ?? '') })), ...elsewhere.map((file) => ({ file, project: projectPathFromGit(file) ?? settings.configProjectPath }))];
    return found.flatMap(({ file, project }) => {
      const kind = classifyPath(file);
      if (kind.kind !== 'agentConfig') return [];
      const agent = { configProjectPath: project, name: kind.agentName };
      const document = open.get(file);
      if (document) return [{ file, version: `open ${document.version}`, mapped: { agent, ciAccess: this.models.ciAccess(document) } }];
      const disk = this.fromDisk(file);
      return disk ? [{ file, version: `disk ${disk.mtimeMs}`, mapped: { agent, ciAccess: disk.ciAccess } }] : [];
    });
  }

  private fromDisk(file: string): { mtimeMs: number; ciAccess: CiAccessModel } | null {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    const cached = this.onDisk.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached;
    try {
      const entry = { mtimeMs, ciAccess: readCiAccess(parseYaml(readFileSync(file, 'utf8')).value) };
      this.onDisk.set(file, entry);
      return entry;
    } catch {
      return null;
    }
  }
}
