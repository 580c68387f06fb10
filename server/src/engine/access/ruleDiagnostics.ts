import type { Node } from 'yaml';
import type { EngineDiagnostic, Range } from '../diagnostics';
import { validateExpression } from '../expr';
import { expressionDialect, NEWEST_GITLAB_VERSION, VERSIONED_BEHAVIOURS, type GitlabVersion } from '../gitlab/gitlabVersions';
import { closestMatch } from '../text/didYouMean';
import { expandedText, hasVariableReference } from '../vars/expand';
import { checkNamespace } from '../vars/namespace';
import { PREDEFINED_VARIABLES, predefinedVariable } from '../vars/predefined';
import { variableValuesByProject } from '../vars/scenario';
import { scalarOffsetMapper } from '../yaml/scalarSource';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';
import { allEntries, namespaceSources, singleEntryModel, type AccessEntry, type AccessRule, type CiAccessModel } from './model';
import { projectPathForEntry, scenarioForEntry, type JobScenario } from './scenarios';
import { decidedBy, namespaceDecision, type NamespaceOutcome, type SimulationOptions } from './simulate';
import type { AgentRef } from './authorize';

export interface RuleCheckContext {
  readonly agent: AgentRef;
  readonly scenarios: readonly JobScenario[];
  readonly defaultBranch: string;
  readonly options: SimulationOptions;
}

const PREDEFINED_NAMES = PREDEFINED_VARIABLES.map((v) => v.name);

/**
 * Editor checks of the `rules` design and namespaces: expression syntax (inside the expression),
 * bare names meant as variables, `${VAR}` in `if:`, misspelled CI variables, unreachable rules,
 * and namespaces invalid for every scenario or for some.
 */
export function ruleDiagnostics(parsed: ParsedYaml, model: CiAccessModel, context: RuleCheckContext): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const entries = allEntries(model);
  const userVariables = userVariablesOf(context.scenarios);
  for (const entry of entries) {
    if (entry.rules && (context.options.target ?? 'proposal') === 'proposal') {
      let alwaysMatches: AccessRule | null = null;
      for (const rule of entry.rules) {
        if (alwaysMatches) out.push(unreachable(parsed, rule, alwaysMatches));
        if (rule.if !== undefined) out.push(...expressionDiagnostics(parsed, rule, userVariables, context.options.gitlabVersion ?? NEWEST_GITLAB_VERSION));
        else alwaysMatches ??= rule;
      }
    }
    out.push(...namespaceDiagnostics(parsed, entry, context));
  }
  return out;
}

/** The names of the scenarios' own variables, once per list of scenarios (each entry of a file is checked with the same list). */
function userVariablesOf(scenarios: readonly JobScenario[]): ReadonlySet<string> {
  let names = userVariableNames.get(scenarios);
  if (!names) userVariableNames.set(scenarios, (names = new Set(scenarios.flatMap((s) => Object.keys(s.variables ?? {})))));
  return names;
}

const userVariableNames = new WeakMap<readonly JobScenario[], ReadonlySet<string>>();

function expressionDiagnostics(parsed: ParsedYaml, rule: AccessRule, userVariables: ReadonlySet<string>, version: GitlabVersion): EngineDiagnostic[] {
  const expression = rule.if!;
  const out: EngineDiagnostic[] = [];
  // The node is found only when there is something to report (most expressions have nothing): the
  // walk to it was a good part of a cold check.
  let located: { readonly whole: Range; readonly map: ((offset: number) => number) | null } | null | undefined;
  const report = (start: number, end: number, diagnostic: Omit<EngineDiagnostic, 'range'>) => {
    if (located === undefined) {
      const node = nodeAtPath(parsed.doc!, [...rule.path, 'if'])?.node;
      const whole = spanRange(parsed, node);
      located = whole ? { whole, map: scalarOffsetMapper(node, parsed.index.source) } : null;
    }
    if (!located) return;
    const { whole, map } = located;
    out.push({ range: map ? parsed.index.range(map(start), map(Math.max(end, start + 1))) : whole, ...diagnostic });
  };
  const dialect = expressionDialect(version);
  const result = validateExpression(expression, dialect);
  if (!result.valid) {
    const { range, message } = result.error;
    const rest = expression.slice(range.start);
    const braced = /^\$\{(\w+)\}/.exec(rest);
    const bare = /^[A-Za-z_]\w*/.exec(rest);
    if (!dialect.unaryNot && /^![^=~]?/.test(rest) && !/^![=~]/.test(rest)) {
      const since = VERSIONED_BEHAVIOURS.unaryNot.added;
      report(range.start, range.start + 1, { severity: 'error', code: 'expr.notInVersion', message: `GitLab ${version} has no unary "!" in rules:if (added in ${since}): it rejects the expression ("${message}"). Write the negation with != or !~, or choose GitLab ${since} or newer if yours is.`, data: { added: since, version } });
    } else if (braced) {
      report(range.start, range.start + braced[0].length, { severity: 'error', code: 'expr.bracedVariable', message: `rules:if does not accept \${${braced[1]}}: write $${braced[1]} (GitLab rejects the expression as invalid syntax).`, data: { replacement: `$${braced[1]}` } });
    } else if (bare && !['null', 'true', 'false'].includes(bare[0]) && (predefinedVariable(bare[0]) || userVariables.has(bare[0]) || /^[A-Z][A-Z0-9_]*$/.test(bare[0]))) {
      report(range.start, range.start + bare[0].length, { severity: 'error', code: 'expr.missingDollar', message: `"${bare[0]}" is not a variable reference: write $${bare[0]}. Without "$" GitLab rejects the expression ("${message}"), so this rule never matches.`, data: { replacement: `$${bare[0]}` } });
    } else {
      report(range.start, range.end, { severity: 'error', code: 'expr.syntax', message: `Invalid expression syntax: ${message}${result.error.detail ? ` (${result.error.detail})` : ''}` });
    }
    return out;
  }
  for (const token of result.tokens) {
    if (token.kind !== 'variable') continue;
    const name = token.text.slice(1);
    if (predefinedVariable(name) || userVariables.has(name)) continue;
    const suggestion = closestMatch(name, PREDEFINED_NAMES);
    if (suggestion) {
      report(token.range.start, token.range.end, { severity: 'warning', code: 'expr.unknownVariable', message: `Unknown CI/CD variable $${name}. Did you mean $${suggestion}?`, data: { replacement: `$${suggestion}` } });
    } else if (/^(CI|GITLAB)_/.test(name)) {
      report(token.range.start, token.range.end, { severity: 'warning', code: 'expr.unknownVariable', message: `$${name} is not a predefined CI/CD variable; unless a project or group defines it, it is undefined (null).` });
    }
  }
  return out;
}

function unreachable(parsed: ParsedYaml, rule: AccessRule, cause: AccessRule): EngineDiagnostic {
  const node = nodeAtPath(parsed.doc!, rule.path)?.node;
  const span = nodeSpan(node);
  const line = span ? parsed.index.positionAt(span[0]).line : 0;
  return {
    range: span ? parsed.index.range(span[0], Math.min(span[1], parsed.index.lineEnd(line))) : parsed.index.range(0, 0),
    severity: 'warning',
    code: 'rules.unreachable',
    message: `Rule ${rule.number} can never be reached: rule ${cause.number} has no "if" and always matches first.`,
  };
}

/**
 * A namespace with no variables is checked once; one with variables is checked in every scenario
 * where its rule decides the outcome: invalid in all of them is an error, in some a warning.
 */
function namespaceDiagnostics(parsed: ParsedYaml, entry: AccessEntry, context: RuleCheckContext): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const useRules = entry.rules !== undefined && (context.options.target ?? 'proposal') === 'proposal';
  const targets = namespaceSources(entry).filter((source) => useRules || source.rule === null);
  const policy = context.options.overlongNamespace ?? 'error';
  const decisions = new EntryDecisions(entry, context);

  for (const target of targets) {
    // Found only for a diagnostic (most namespaces have none): walking to the node is a good part of a cold check.
    const range = () => spanRange(parsed, nodeAtPath(parsed.doc!, target.path)?.node);
    const hasVariables = hasVariableReference(target.template);
    if (!hasVariables || (!useRules && target.rule === null)) {
      // default_namespace is used literally by GitLab; rule namespaces without variables are constant.
      const check = checkNamespace(target.template, policy);
      const at = check.kind === 'invalid' ? range() : null;
      if (check.kind === 'invalid' && at) {
        out.push({ range: at, severity: useRules ? 'error' : 'warning', code: 'namespace.invalid', message: `"${target.template}" is not a valid Kubernetes namespace: ${check.problems.map((p) => p.message).join('; ')}.` });
      }
      continue;
    }
    // A scenario fails only where this source decides and gives an invalid namespace. What it would
    // give is known without deciding: a rule's namespace expanded with the scenario's variables (as
    // `evaluateRules` expands it when that rule matches), `default_namespace` as written (as `decide`
    // takes it when rules apply and none decides). So the scenarios are decided (the authorization
    // and every rule) only where that namespace is invalid, and all of them only when one fails.
    const failsSomewhere = context.scenarios.some((_job, i) => {
      const namespace = target.rule === null ? target.template : expandedText(target.template, decisions.variables(i));
      return checkNamespace(namespace, policy).kind === 'invalid' && decidedBy(decisions.outcome(i), target.rule);
    });
    if (!failsSomewhere) continue;
    const failing: string[] = [];
    let deciding = 0;
    for (let i = 0; i < context.scenarios.length; i++) {
      const outcome = decisions.outcome(i);
      if (!decidedBy(outcome, target.rule)) continue;
      deciding++;
      if (outcome.invalid) failing.push(`${context.scenarios[i]!.name}: ${outcome.invalid.message}`);
    }
    const at = failing.length ? range() : null;
    if (!at) continue;
    if (failing.length === deciding) {
      out.push({ range: at, severity: 'error', code: 'namespace.invalidForAll', message: `The namespace is invalid in every scenario where this rule applies — ${failing.join(' | ')}` });
    } else {
      out.push({ range: at, severity: 'warning', code: 'namespace.invalidForSome', message: `The namespace is invalid in ${failing.length} of ${deciding} scenarios — ${failing.join(' | ')}` });
    }
  }
  return out;
}

/**
 * Who decides the namespace of `entry` alone in each scenario of the context (as `simulateAccess`
 * would), decided when first asked and then kept for the entry's other namespaces.
 */
class EntryDecisions {
  private readonly outcomes: (NamespaceOutcome | undefined)[] = [];
  private readonly values: (ReadonlyMap<string, string> | undefined)[] = [];
  private model: CiAccessModel | null = null;

  constructor(
    private readonly entry: AccessEntry,
    private readonly context: RuleCheckContext,
  ) {}

  /** The variables of scenario `i` in the entry's project: the values its rules are evaluated and its namespaces expanded with. */
  variables(i: number): ReadonlyMap<string, string> {
    const job = this.context.scenarios[i]!;
    return (this.values[i] ??= jobValuesByProject(job, this.context.defaultBranch)(projectPathForEntry(job, this.entry)));
  }

  outcome(i: number): NamespaceOutcome {
    let outcome = this.outcomes[i];
    if (!outcome) {
      const { entry, context } = this;
      const scenario = scenarioForEntry(context.scenarios[i]!, entry, context.defaultBranch);
      this.model ??= singleEntryModel(entry);
      outcome = namespaceDecision(this.model, context.agent, scenario, anyEntryOptions(context.options), this.variables(i));
      this.outcomes[i] = outcome;
    }
    return outcome;
  }
}

/** The options with `anyEntry`, once per options object (the same for every entry of a file). */
function anyEntryOptions(options: SimulationOptions): SimulationOptions {
  let made = withAnyEntry.get(options);
  if (!made) withAnyEntry.set(options, (made = { ...options, anyEntry: true }));
  return made;
}

const withAnyEntry = new WeakMap<SimulationOptions, SimulationOptions>();

/**
 * A job scenario's variables, by project. A scenario differs between entries only by its project,
 * so its variables are derived once per scenario object and default branch (the editor checks
 * each entry alone, with the same scenario objects for the whole document) and moved to each
 * entry's project, instead of derived again for every entry. Scenarios are never modified.
 */
function jobValuesByProject(job: JobScenario, defaultBranch: string): (projectPath: string) => ReadonlyMap<string, string> {
  let derived = derivedJobValues.get(job);
  if (derived?.defaultBranch !== defaultBranch) {
    derived = { defaultBranch, byProject: variableValuesByProject(scenarioForEntry(job, null, defaultBranch)) };
    derivedJobValues.set(job, derived);
  }
  return derived.byProject;
}

const derivedJobValues = new WeakMap<JobScenario, { readonly defaultBranch: string; readonly byProject: (projectPath: string) => ReadonlyMap<string, string> }>();

function spanRange(parsed: ParsedYaml, node: Node | null | undefined) {
  const span = nodeSpan(node);
  return span ? parsed.index.range(span[0], span[1]) : null;
}
