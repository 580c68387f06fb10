import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import { ciEntryPath, expressionDialect, hasBehaviour, keyAddedAfter, NEWEST_GITLAB_VERSION, VERSIONED_BEHAVIOURS, type GitlabVersion } from '../gitlab/gitlabVersions';
import { checkNamespace, type NamespaceCheck, type OverlongNamespacePolicy } from '../vars/namespace';
import { allVariableValues, refIsProtected, scenarioVariables, type Scenario } from '../vars/scenario';
import { decideAsGitLab, type AgentRef, type GitLabDecision, type Via } from './authorize';
import { jobIdentity, kubeContextName, type JobIdentity } from './identity';
import type { CiAccessModel } from './model';
import { evaluateRules, type NoRuleMatchBehaviour, type RulesOutcome, type RuleTrace } from './rules';

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
export function decidedBy(outcome: Pick<AccessOutcome, 'rule' | 'via'>, rule: number | null): boolean {
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
  const trace: RuleTrace[] = [];
  const { decision, useRules, rules, rule, namespace: written, check } = decide(model, agent, scenario, options, variables, trace);
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
  // The trace is part of the outcome whenever the rules were evaluated.
  const ruleTrace = rules ? trace : undefined;
  for (const t of trace) {
    explanation.push(`rule ${t.rule.number}: ${t.result === 'matched' ? 'matches' : t.result === 'error' ? 'cannot be evaluated' : 'does not match'} (${t.detail})`);
    if (t.result === 'error') problems.push({ code: 'rule.evaluation', severity: 'error', message: `rule ${t.rule.number}: ${t.detail}` });
  }
  if (rules?.kind === 'never') return denied(`rule ${rule} has when: never`, rule, { ruleTrace });
  if (rules?.kind === 'noMatch') {
    if (!rules.allowed) return denied('rules exist and none matches (option A)', null, { ruleTrace });
    explanation.push('no rule matches: allowed (option B), default_namespace applies');
  }

  let namespace = written;
  if (check?.kind === 'truncated') {
    explanation.push(`namespace "${check.original}" is over 63 characters: truncated to "${check.namespace}"`);
    problems.push({ code: 'namespace.truncated', severity: 'warning', message: `namespace "${check.original}" (${check.original.length} characters) truncated to "${check.namespace}"` });
    namespace = check.namespace;
  } else if (check?.kind === 'invalid') {
    const { reason, problem } = invalidNamespace(written!, check, useRules);
    problems.push(problem);
    // In the rules design GitLab creates the namespace before the job starts; an invalid name aborts the job.
    if (useRules) return denied(reason, rule, { namespace, ...(ruleTrace ? { ruleTrace } : {}) });
  }

  const identity = jobIdentity(entry, {
    projectPath: scenario.projectPath,
    ...(scenario.projectId !== undefined ? { projectId: scenario.projectId } : {}),
    ...(scenario.environmentName !== undefined ? { environmentName: scenario.environmentName, environmentTier: variables.get('CI_ENVIRONMENT_TIER') } : {}),
    ...(scenario.userLogin ? { userLogin: scenario.userLogin } : {}),
  });
  explanation.push(`authorized${namespace ? ` in namespace "${namespace}"` : ' (no namespace in the kubeconfig context)'} as ${identity.username}`);
  const version = options.gitlabVersion ?? NEWEST_GITLAB_VERSION;
  // Before the release that added `resource_management`, the key is unknown: no managed resources.
  const resourceManagement = entry !== null && entry.resourceManagement && !keyAddedAfter(ciEntryPath(entry.kind, 'resource_management'), version);
  if (resourceManagement && !hasBehaviour('resourceManagementWithoutFlag', version)) {
    // docs/gitlab-behaviour.md#gitlab-versions: whether an instance turned the flag on is not knowable here.
    explanation.push(`GitLab ${version} prepares managed resources only where the feature flag gitlab_managed_cluster_resources is on (off by default; generally available from ${VERSIONED_BEHAVIOURS.resourceManagementWithoutFlag.added}): taken as on here`);
  }
  return {
    authorized: true,
    ...base,
    rule,
    namespace,
    access_as: identity.mode,
    identity,
    context: kubeContextName(agent),
    resource_management: resourceManagement,
    problems,
    denial: null,
    explanation,
    ...(ruleTrace ? { ruleTrace } : {}),
  };
}

/** What {@link namespaceDecision} answers: the fields of {@link AccessOutcome} the namespace checks read. */
export interface NamespaceOutcome {
  readonly via: Via | null;
  readonly rule: number | null;
  /** The `namespace.invalid` problem, when the namespace is invalid. */
  readonly invalid: SimulationProblem | null;
}

/**
 * How the job reached the agent (`via`), the rule that decided (`rule`) and the problem of an
 * invalid namespace, exactly as {@link simulateAccess} reports them, without the explanation,
 * identity and context it adds: the namespace checks of a config ask this for every entry and
 * scenario, thousands of times at the first open of a big file.
 */
export function namespaceDecision(
  model: CiAccessModel,
  agent: AgentRef,
  scenario: Scenario,
  options: SimulationOptions,
  variables: ReadonlyMap<string, string>,
): NamespaceOutcome {
  const { decision, useRules, rule, namespace, check } = decide(model, agent, scenario, options, variables, null);
  return { via: decision.candidate?.via ?? null, rule, invalid: check?.kind === 'invalid' ? invalidNamespace(namespace!, check, useRules).problem : null };
}

/** What {@link simulateAccess} decides before it puts it in words. */
interface Decision {
  readonly decision: GitLabDecision;
  /** The entry's rules apply: the proposal's target and an authorized entry with `rules`. */
  readonly useRules: boolean;
  /** What the rules gave, when they apply. */
  readonly rules: RulesOutcome | null;
  /** The rule that decided (matched, or `when: never`). */
  readonly rule: number | null;
  /** The namespace the rules or `default_namespace` give, as expanded (before any truncation); null when denied or none. */
  readonly namespace: string | null;
  readonly check: NamespaceCheck | null;
}

/**
 * GitLab's authorization, then the entry's rules, then the namespace check. With a `trace`, each
 * rule's result and the authorization's steps are put in words; without, none are.
 */
function decide(model: CiAccessModel, agent: AgentRef, scenario: Scenario, options: SimulationOptions, variables: ReadonlyMap<string, string>, trace: RuleTrace[] | null): Decision {
  const decision = decideAsGitLab(model, agent, { projectPath: scenario.projectPath, ...(scenario.environmentName !== undefined ? { environment: scenario.environmentName } : {}), protectedRef: refIsProtected(scenario) }, options, trace !== null);
  if (!decision.authorized) return { decision, useRules: false, rules: null, rule: null, namespace: null, check: null };
  const entry = decision.candidate!.entry;
  const useRules = (options.target ?? 'proposal') === 'proposal' && entry?.rules !== undefined;
  const rules = useRules && entry ? evaluateRules(entry, variables, options.noRuleMatch ?? 'deny', trace, expressionDialect(options.gitlabVersion)) : null;
  const rule = rules?.kind === 'matched' || rules?.kind === 'never' ? rules.rule.number : null;
  const refused = rules?.kind === 'never' || (rules?.kind === 'noMatch' && !rules.allowed);
  const namespace = refused ? null : rules?.kind === 'matched' ? rules.namespace : (entry?.defaultNamespace ?? null);
  const check = namespace === null ? null : checkNamespace(namespace, options.overlongNamespace ?? 'error');
  return { decision, useRules, rules, rule, namespace, check };
}

/** The denial reason and the problem of an invalid namespace: the job is aborted with rules, its kubectl commands fail without. */
function invalidNamespace(namespace: string, check: Extract<NamespaceCheck, { kind: 'invalid' }>, useRules: boolean): { reason: string; problem: SimulationProblem } {
  const reason = `namespace "${namespace}" is not a valid Kubernetes namespace: ${check.problems.map((p) => p.message).join('; ')}`;
  return useRules
    ? { reason, problem: { code: 'namespace.invalid', severity: 'error', message: `${reason}; the job would be aborted` } }
    : { reason, problem: { code: 'namespace.invalid', severity: 'warning', message: `${reason}; kubectl commands in the job would fail` } };
}
