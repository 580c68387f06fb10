import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAMES } from '../engine/api';

/** An agent's directory: its `config.yaml` (null when absent) and the files GitLab would not read as one. */
export interface AgentDirectory {
  readonly name: string;
  readonly config: string | null;
  /** `config.yml` and the like: names a user means as the configuration, which GitLab ignores. */
  readonly ignored: readonly string[];
}

/** Every `<root>/.gitlab/agents/<agent>/` directory, in agent-name order, with or without a configuration. */
export function agentDirectoriesUnder(root: string): AgentDirectory[] {
  const agentsDir = path.join(root, '.gitlab', 'agents');
  let agents: string[];
  try {
    agents = readdirSync(agentsDir).sort();
  } catch {
    return [];
  }
  return agents.flatMap((name) => {
    const dir = path.join(agentsDir, name);
    if (!isDirectory(dir)) return [];
    const config = CONFIG_FILE_NAMES.map((file) => path.join(dir, file)).find(isFile) ?? null;
    const ignored = MISTAKEN_CONFIG_NAMES.filter((file) => isFile(path.join(dir, file)));
    return [{ name, config, ignored }];
  });
}

/** Names of a configuration GitLab does not read (it reads only `config.yaml`). */
const MISTAKEN_CONFIG_NAMES = ['config.yml', 'config.json'];

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
