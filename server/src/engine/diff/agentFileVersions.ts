import { agentDirectoryOf, classifyPath } from '../files';
import { UNNAMED_AGENT } from '../settings/projectSettings';
import type { AccessDiffVersion } from './accessDiff';

/** One agent file in both versions, by its path from the repository root; null where a version lacks it. */
export interface AgentFilePair {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** The files GitLab reads of an agent (docs/gitlab-behaviour.md#ignored-file-names), relative to its folder. */
export const AGENT_CONFIG_FILE = 'config.yaml';
export const AGENT_TEMPLATE_FILE = 'environment_templates/default.yaml';

/** Whether GitLab reads this file of an agent: its `config.yaml` or `environment_templates/default.yaml`. */
export function isReadAgentFile(path: string): boolean {
  const inside = agentDirectoryOf(path)?.inside;
  return inside === AGENT_CONFIG_FILE || inside === AGENT_TEMPLATE_FILE;
}

/**
 * Both versions of a repository's agents from their files, keyed by agent name, or by folder when
 * two folders (two projects in one repository) name the same agent; `folderOf` gives each key's
 * folder (with its trailing `/`), to name the files in the output. Other files are ignored.
 */
export function agentFileVersions(files: readonly AgentFilePair[]): { before: AccessDiffVersion; after: AccessDiffVersion; folderOf: (key: string) => string } {
  const read = files.filter((f) => isReadAgentFile(f.path));
  const dirs = [...new Set(read.map((f) => agentDirectoryOf(f.path)!.directory))].sort();
  const names = dirs.map((d) => {
    const kind = classifyPath(`${d}${AGENT_CONFIG_FILE}`);
    return kind.kind === 'agentConfig' ? kind.agentName : UNNAMED_AGENT;
  });
  const keys = dirs.map((d, i) => (names.filter((n) => n === names[i]).length > 1 ? d.replace(/[\\/]$/, '') : names[i]));
  const version = (side: 'before' | 'after'): AccessDiffVersion => {
    const configs: Record<string, { text: string; name: string }> = {};
    const templates: Record<string, string> = {};
    for (const file of read) {
      const text = file[side];
      if (text === null) continue;
      const { directory, inside } = agentDirectoryOf(file.path)!;
      const i = dirs.indexOf(directory);
      if (inside === AGENT_CONFIG_FILE) configs[keys[i]] = { text, name: names[i] };
      else templates[keys[i]] = text;
    }
    return { configs, templates };
  };
  return { before: version('before'), after: version('after'), folderOf: (key) => dirs[keys.indexOf(key)] ?? '' };
}
