import { CONFIG_FILE_NAMES, DEFAULT_TEMPLATE_FILE_NAMES } from '../files';
import { readAgentConfig, type ParsedAgentConfig } from './agentConfig';

/**
 * The other file of an agent's pair, as the face finds it: config.yaml for a template, and
 * environment_templates/default.yaml for a config. The editor answers from open documents and its
 * caches, the CLI from the disk; the engine never reads a file itself.
 */
export interface AgentSiblings {
  /** The agent's config.yaml, parsed; null when the agent has none (GitLab ignores a config.yml). */
  config(): ParsedAgentConfig | null;
  /** The text of environment_templates/default.yaml; null when there is none (GitLab ignores a default.yml). */
  defaultTemplate(): string | null;
}

/** Reads a file of the agent directory by its path inside it (`config.yaml`, `environment_templates/default.yaml`); null when absent. */
export type AgentFileReader = (pathInAgentDirectory: string) => string | null;

/** Siblings read through a plain reader, each at most once, by the names GitLab reads. */
export function siblingsFrom(read: AgentFileReader): AgentSiblings {
  let config: ParsedAgentConfig | null | undefined;
  let template: string | null | undefined;
  const first = (names: readonly string[]) => {
    for (const name of names) {
      const text = read(name);
      if (text !== null) return text;
    }
    return null;
  };
  return {
    config() {
      if (config === undefined) {
        const text = first(CONFIG_FILE_NAMES);
        config = text === null ? null : readAgentConfig(text);
      }
      return config;
    },
    defaultTemplate() {
      if (template === undefined) template = first(DEFAULT_TEMPLATE_FILE_NAMES);
      return template;
    },
  };
}

/** No sibling: a file checked on its own (outside an agent directory). */
export const NO_SIBLINGS: AgentSiblings = { config: () => null, defaultTemplate: () => null };
