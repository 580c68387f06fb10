import { classifyPath, scenarioContext, UNNAMED_AGENT, type ProjectSettings, type RuleCheckContext } from '../engine/api';
import type { ServerSettings } from '../protocol';
import { configProjectPathFromGit, repositoryRootOf } from '../repository/gitRemote';
import { projectPathOf as projectOfFile } from '../repository/projectOfFile';
import { documentPath, localFilePath } from './uriPaths';

/**
 * `lookup` remembered per file, bounded (the least recently used goes first): features ask on every
 * request, and walking up to `.git` or reading `.git/config` each time would put file I/O on every
 * keystroke.
 */
function rememberedPerFile<T>(lookup: (file: string) => T): (file: string) => T {
  const cache = new Map<string, T>();
  return (file) => {
    if (cache.has(file)) {
      const hit = cache.get(file)!;
      cache.delete(file);
      cache.set(file, hit);
      return hit;
    }
    const found = lookup(file);
    cache.set(file, found);
    if (cache.size > FILES_REMEMBERED) cache.delete(cache.keys().next().value!);
    return found;
  };
}

const FILES_REMEMBERED = 64;

/** The project path of the repository holding `file`, from its git remote, remembered. */
export const projectPathFromGit = rememberedPerFile(configProjectPathFromGit);

/** The working tree holding `file`, remembered. */
const repositoryRootRemembered = rememberedPerFile(repositoryRootOf);

/** The folders the editor opened (absolute paths). */
let workspaceRoots: readonly string[] = [];

/** Tells the project lookups which folders the editor opened (from `initialize`). */
export function useWorkspaceFolders(folders: readonly string[]): void {
  workspaceRoots = [...folders];
}

/** The GitLab project of the repository holding `file` (workspace/projectOfFile.ts), with the remotes remembered. */
export function projectPathOf(file: string | null, setting: string): string {
  return projectOfFile(file, setting, workspaceRoots, { remoteOf: projectPathFromGit, rootOf: repositoryRootRemembered });
}

/**
 * The settings the engine reads for one document: the editor's, with the agent configuration
 * project's path that of the file's repository ({@link projectPathOf}).
 */
export function projectSettings(uri: string, settings: ServerSettings): ProjectSettings {
  const configProjectPath = projectPathOf(localFilePath(uri), settings.configProjectPath);
  return configProjectPath !== settings.configProjectPath ? { ...settings, configProjectPath } : settings;
}

/** The agent a document belongs to (its folder under `.gitlab/agents/`). */
export function agentNameOf(uri: string): string {
  const kind = classifyPath(documentPath(uri));
  return kind.kind === 'other' ? UNNAMED_AGENT : kind.agentName;
}

/** Which agent a document configures and how to simulate it, from its path and the settings. */
export function simulationContext(uri: string, settings: ServerSettings): RuleCheckContext {
  return scenarioContext(projectSettings(uri, settings), agentNameOf(uri));
}
