import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAMES } from '../engine/files';

/**
 * The agent configurations of a repository: `<root>/.gitlab/agents/<agent>/config.yaml`, one per
 * agent, in agent-name order (a `config.yml` is ignored by GitLab, so its agent has no configuration).
 */
export function agentConfigsUnder(root: string): string[] {
  const agentsDir = path.join(root, '.gitlab', 'agents');
  let agents: string[];
  try {
    agents = readdirSync(agentsDir).sort();
  } catch {
    return [];
  }
  return agents.flatMap((agent) => {
    const found = CONFIG_FILE_NAMES.map((name) => path.join(agentsDir, agent, name)).find(isFile);
    return found ? [found] : [];
  });
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
