/**
 * An agent as GitLab reads it, for the pipeline map: its configuration `config.yaml`, or none. The
 * agent server reads only `.gitlab/agents/<agent>/config.yaml` and sends Rails a configuration only
 * when it parses and validates (unknown keys included); Rails authorizes every agent for its own
 * project whatever its configuration says, even without one.
 * docs/gitlab-behaviour.md#agents-as-gitlab-reads-them.
 */
import type { AgentRef } from '../access/authorize';
import { readCiAccess, type CiAccessModel } from '../access/model';
import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import type { GitlabVersion } from '../gitlab/gitlabVersions';
import { validateParsedAgentConfig } from '../config/validateAgentConfig';
import { parseYaml, type ParsedYaml } from '../yaml/yamlDocument';

/** An agent whose configuration the map reads: found in the workspace, or named in settings. */
export interface MappedAgent {
  readonly agent: AgentRef;
  readonly ciAccess: CiAccessModel;
  /** How GitLab reads the agent's directory (absent: its configuration as given). */
  readonly reading?: AgentReading;
}

/** What GitLab does with an agent's directory. */
export type AgentReading =
  | { readonly kind: 'read' }
  /** No `config.yaml`: only the implicit authorization of the agent's own project holds. */
  | { readonly kind: 'missing'; readonly ignored: readonly string[] }
  /** A `config.yaml` the agent server refuses: Rails keeps the authorizations of the last one it accepted. */
  | { readonly kind: 'rejected'; readonly reason: string };

export interface AgentReadingOptions {
  readonly gitlabVersion?: GitlabVersion;
  /** The compatibility target the user chose (default `gitlab`): with `proposal`, the proposed `rules` are not a refusal. */
  readonly target?: CompatibilityTarget;
  readonly ignored?: readonly string[];
}

/**
 * The agent of a directory: its configuration — its text, or its parse when the caller has one
 * (an editor's open document); null when the directory has no `config.yaml` (`ignored` names the
 * files there GitLab does not read, such as `config.yml`).
 */
export function agentAsGitlabReads(agent: AgentRef, config: string | { readonly parsed: ParsedYaml; readonly ciAccess: CiAccessModel } | null, options: AgentReadingOptions = {}): MappedAgent {
  if (config === null) return { agent, ciAccess: readCiAccess({}), reading: { kind: 'missing', ignored: options.ignored ?? [] } };
  const parsed = typeof config === 'string' ? parseYaml(config) : config.parsed;
  const ciAccess = typeof config === 'string' ? readCiAccess(parsed.value) : config.ciAccess;
  const refusal = validateParsedAgentConfig(parsed, { target: options.target ?? 'gitlab', securityLints: false, ciAccess, ...(options.gitlabVersion ? { gitlabVersion: options.gitlabVersion } : {}) }).find(
    (d) => d.severity === 'error' && (d.code.startsWith('yaml.') || d.code.startsWith('schema.')),
  );
  if (!refusal) return { agent, ciAccess, reading: { kind: 'read' } };
  return { agent, ciAccess, reading: { kind: 'rejected', reason: `line ${refusal.range.start.line + 1}: ${refusal.message}` } };
}

/** The note on an agent GitLab does not read as written; undefined when it does. */
export function agentReadingNote(agent: MappedAgent): string | undefined {
  const reading = agent.reading;
  if (!reading || reading.kind === 'read') return undefined;
  if (reading.kind === 'missing') {
    const ignored = reading.ignored.length ? ` (GitLab reads only config.yaml, not ${reading.ignored.join(', ')})` : '';
    return `agent "${agent.agent.name}" has no configuration file${ignored}: it authorizes only its own project`;
  }
  return `GitLab's agent rejects the configuration of "${agent.agent.name}" (${reading.reason}) and keeps the authorizations of the last one it accepted, which cannot be known here; shown is what this configuration would give once valid`;
}
