import type { RuleCheckContext } from '../engine/access/ruleDiagnostics';
import { classifyPath } from '../engine/files';
import { scenarioContext, UNNAMED_AGENT, type ProjectSettings } from '../engine/project';
import type { ServerSettings } from '../protocol';
import { configProjectPathFromGit } from '../workspace/gitRemote';
import { projectPathOf as projectOfFile } from '../workspace/projectOfFile';
import { documentPath, localFilePath } from './uriPaths';

/** Project path per file, from its git remote; bounded (least recently used goes first). */
const gitCache = new Map<string, string | null>();
const GIT_CACHE_SIZE = 64;

/**
 * The project path of the repository holding `file`, from its git remote, remembered: features ask
 * on every request, and reading `.git/config` each time would put file I/O on every keystroke.
 */
export function projectPathFromGit(file: string): string | null {
  if (gitCache.has(file)) {
    const hit = gitCache.get(file)!;
    gitCache.delete(file);
    gitCache.set(file, hit);
    return hit;
  }
  const found = configProjectPathFromGit(file);
  gitCache.set(file, found);
  if (gitCache.size > GIT_CACHE_SIZE) gitCache.delete(gitCache.keys().next().value!);
  return found;
}

/** The folders the editor opened (absolute paths). */
let workspaceRoots: readonly string[] = [];

/** Tells the project lookups which folders the editor opened (from `initialize`). */
export function useWorkspaceFolders(folders: readonly string[]): void {
  workspaceRoots = [...folders];
}

/** The GitLab project of the repository holding `file` (workspace/projectOfFile.ts), with the remotes remembered. */
export function projectPathOf(file: string | null, setting: string): string {
  return projectOfFile(file, setting, workspaceRoots, projectPathFromGit);
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
