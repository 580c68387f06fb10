import { sortKey, type CompletionCandidate } from './types';

/** An environment name a scenario deploys to, with the scenarios that use it. */
export interface ScenarioEnvironment {
  readonly name: string;
  readonly scenarios: readonly string[];
}

/**
 * Items of an `environments` filter: the environment names of the active scenarios, and for a name
 * with a folder (`review/feature-login`) the folder wildcard (`review/*`) — how filters are usually
 * written. GitLab matches `*` unanchored (docs/gitlab-behaviour.md#environment-filter). Names already in the list are left out.
 */
export function environmentCandidates(environments: readonly ScenarioEnvironment[], alreadyInList: ReadonlySet<string>, replace: readonly [number, number]): CompletionCandidate[] {
  const offered = new Map<string, string>();
  for (const env of environments) {
    offered.set(env.name, `environment of ${env.scenarios.map((s) => `“${s}”`).join(', ')}`);
    const folder = env.name.lastIndexOf('/');
    if (folder > 0) offered.set(`${env.name.slice(0, folder)}/*`, `matches ${env.name} (GitLab matches * unanchored)`);
  }
  return [...offered]
    .filter(([name]) => !alreadyInList.has(name))
    .map(([name, why], i) => ({
      label: name,
      kind: 'value' as const,
      // `*` cannot start a plain scalar (an alias); a wildcard elsewhere is fine unquoted.
      insertText: name.startsWith('*') ? `"${name}"` : name,
      snippet: false,
      replace,
      sortText: sortKey(0, i),
      detail: why,
    }));
}
