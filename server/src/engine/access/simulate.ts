import type { CompatibilityTarget } from '../config/compatibilityTarget';
import { ciEntryPath, expressionDialect, keyAddedAfter, NEWEST_GITLAB_VERSION, type GitlabVersion } from '../config/gitlabVersions';
import { checkNamespace, type OverlongNamespacePolicy } from '../vars/namespace';
import { allVariableValues, refIsProtected, scenarioVariables, type Scenario } from '../vars/scenario';
import { decideAsGitLab, type AgentRef, type Via } from './authorize';
import { jobIdentity, kubeContextName, type JobIdentity } from './identity';
import type { CiAccessModel } from './model';
import { evaluateRules, type NoRuleMatchBehaviour, type RuleTrace } from './rules';

export interface SimulationOptions {
  /** `gitlab` ignores `rules` (GitLab rejects the key); `proposal` applies them (default). */
  readonly target?: CompatibilityTarget;
  /** The GitLab release whose `rules:if` dialect applies (the `!` operator from 18.11, docs/gitlab-behaviour.md#gitlab-versions); default the newest. */
  readonly gitlabVersion?: GitlabVersion;
  /** Rules exist and none matches: `deny` (option A, default) or `allow` (option B). */
  readonly noRuleMatch?: NoRuleMatchBehaviour;
  /** Resolved namespace over 63 characters: `error` (default, the job is aborted) or `truncate`. */
  readonly overlongNamespace?: OverlongNamespacePolicy;
  /** The administrator enabled instance-level authorization (entries of other top-level groups count from 18.1). */
  readonly instanceLevel?: boolean;
  /** Count the entry whatever its top-level group and place in its list (checks of one entry; authorize.ts `AuthorizationOptions`). */
  readonly anyEntry?: boolean;
}

export interface SimulationProblem {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** What one CI job gets from one agent. The JSON shape `agentcfg simulate --json` prints. */
export interface AccessOutcome {
  readonly authorized: boolean;
  readonly via: Via | null;
  /** Id of the winning entry (`null` for implicit and instance). */
  readonly entry: string | null;
  /** 1-based number of the rule that decided, or null. */
  readonly rule: number | null;
  readonly namespace: string | null;
  readonly access_as: JobIdentity['mode'] | null;
  readonly identity: JobIdentity | null;
  readonly context: string | null;
  readonly resource_management: boolean;
  readonly problems: readonly SimulationProblem[];
  /** Why the job gets no access, in words (the last step of `explanation`); null when authorized. */
  readonly denial: string | null;
  /** Why: each decision step in words. */
  readonly explanation: readonly string[];
  /** Data path of the winning entry in the file, for editors (not part of the CLI contract). */
  readonly entryPath?: readonly (string | number)[];
  readonly ruleTrace?: readonly RuleTrace[];
}

/**
 * Whether the namespace source `rule` decided this outcome: that rule matched, or (null) the
 * entry was reached and no rule decided, so `default_namespace` applies.
 */
export function decidedBy(outcome: AccessOutcome, rule: number | null): boolean {
  return rule === null ? outcome.rule === null && outcome.via !== null : outcome.rule === rule;
}

/** How the job reached the agent, as every face shows it: `project acme/web`, `group acme`, `instance`, `implicit`; null when no entry was reached. */
export function viaLabel(outcome: AccessOutcome): string | null {
  return outcome.via ? `${outcome.via}${outcome.entry ? ` ${outcome.entry}` : ''}` : null;
}

/**
 * Simulates one scenario (a CI job) against the agent's `ci_access`. `variables` are the scenario's
 * variable values when the caller already has them (`variableValuesByProject`), else derived here.
 */
export function simulateAccess(
  model: CiAccessModel,
  agent: AgentRef,
  scenario: Scenario,
  options: SimulationOptions = {},
  variables: ReadonlyMap<string, string> = allVariableValues(scenarioVariables(scenario)),
): AccessOutcome {
  const decision = decideAsGitLab(model, agent, { projectPath: scenario.projectPath, ...(scenario.environmentName !== undefined ? { environment: scenario.environmentName } : {}), protectedRef: refIsProtected(scenario) }, options);
  const problems: SimulationProblem[] = decision.problems.map((message) => ({ code: 'environment.pattern', severity: 'warning', message }));
  const explanation = [...decision.steps];
  const candidate = decision.candidate;
  const base = {
    via: candidate?.via ?? null,
    entry: candidate?.entry?.id ?? null,
    ...(candidate?.entry ? { entryPath: candidate.entry.path } : {}),
  };
  const denied = (reason: string, rule: number | null = null, extra: Partial<AccessOutcome> = {}): AccessOutcome => ({
    authorized: false,
    ...base,
    rule,
    namespace: null,
    access_as: null,
    identity: null,
    context: null,
    resource_management: false,
    problems,
    denial: reason,
    explanation: [...explanation, `denied: ${reason}`],
    ...extra,
  });
  if (!decision.authorized) return denied(decision.reason);

  const entry = candidate!.entry;
  let namespace: string | null = entry?.defaultNamespace ?? null;
  let rule: number | null = null;
  let ruleTrace: RuleTrace[] | undefined;
  const useRules = (options.target ?? 'proposal') === 'proposal' && entry?.rules !== undefined;
  if (useRules && entry) {
    ruleTrace = [];
    const outcome = evaluateRules(entry, variables, options.noRuleMatch ?? 'deny', ruleTrace, expressionDialect(options.gitlabVersion));
    for (const t of ruleTrace) {
      explanation.push(`rule ${t.rule.number}: ${t.result === 'matched' ? 'matches' : t.result === 'error' ? 'cannot be evaluated' : 'does not match'} (${t.detail})`);
      if (t.result === 'error') problems.push({ code: 'rule.evaluation', severity: 'error', message: `rule ${t.rule.number}: ${t.detail}` });
    }
    switch (outcome.kind) {
      case 'never':
        return denied(`rule ${outcome.rule.number} has when: never`, outcome.rule.number, { ruleTrace });
      case 'noMatch':
        if (!outcome.allowed) return denied('rules exist and none matches (option A)', null, { ruleTrace });
        explanation.push('no rule matches: allowed (option B), default_namespace applies');
        break;
      case 'matched':
        rule = outcome.rule.number;
        namespace = outcome.namespace;
        break;
      case 'noRules':
        break;
    }
  }

  if (namespace !== null) {
    const check = checkNamespace(namespace, options.overlongNamespace ?? 'error');
    if (check.kind === 'truncated') {
      explanation.push(`namespace "${check.original}" is over 63 characters: truncated to "${check.namespace}"`);
      problems.push({ code: 'namespace.truncated', severity: 'warning', message: `namespace "${check.original}" (${check.original.length} characters) truncated to "${check.namespace}"` });
      namespace = check.namespace;
    } else if (check.kind === 'invalid') {
      const why = check.problems.map((p) => p.message).join('; ');
      const message = `namespace "${namespace}" is not a valid Kubernetes namespace: ${why}`;
      if (useRules) {
        // In the rules design GitLab creates the namespace before the job starts; an invalid name aborts the job.
        problems.push({ code: 'namespace.invalid', severity: 'error', message: `${message}; the job would be aborted` });
        return denied(message, rule, { namespace, ...(ruleTrace ? { ruleTrace } : {}) });
      }
      problems.push({ code: 'namespace.invalid', severity: 'warning', message: `${message}; kubectl commands in the job would fail` });
    }
  }

  const identity = jobIdentity(entry, {
    projectPath: scenario.projectPath,
    ...(scenario.projectId !== undefined ? { projectId: scenario.projectId } : {}),
    ...(scenario.environmentName !== undefined ? { environmentName: scenario.environmentName, environmentTier: variables.get('CI_ENVIRONMENT_TIER') } : {}),
    ...(scenario.userLogin ? { userLogin: scenario.userLogin } : {}),
  });
  explanation.push(`authorized${namespace ? ` in namespace "${namespace}"` : ' (no namespace in the kubeconfig context)'} as ${identity.username}`);
  return {
    authorized: true,
    ...base,
    rule,
    namespace,
    access_as: identity.mode,
    identity,
    context: kubeContextName(agent),
    // Before the release that added `resource_management`, the key is unknown: no managed resources.
    resource_management: entry !== null && entry.resourceManagement && !keyAddedAfter(ciEntryPath(entry.kind, 'resource_management'), options.gitlabVersion ?? NEWEST_GITLAB_VERSION),
    problems,
    denial: null,
    explanation,
    ...(ruleTrace ? { ruleTrace } : {}),
  };
}
