import { readCiAccess, type CiAccessModel } from '../access/model';
import { parseYaml, type ParsedYaml } from '../yaml/yamlDocument';

/** An agent's config.yaml, parsed, with its `ci_access` read once. */
export interface ParsedAgentConfig {
  readonly parsed: ParsedYaml;
  readonly ciAccess: CiAccessModel;
}

/** Parses a config's text and reads its `ci_access`: what every check, simulation and map of a config starts from. */
export function readAgentConfig(text: string): ParsedAgentConfig {
  return agentConfigOf(parseYaml(text));
}

/** The same from a parse the caller already holds (the editor's incremental model). */
export function agentConfigOf(parsed: ParsedYaml): ParsedAgentConfig {
  return { parsed, ciAccess: readCiAccess(parsed.value) };
}
