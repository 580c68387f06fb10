import { evaluate, type ExprOptions } from '../expr';
import { expandedText } from '../vars/expand';
import type { AccessEntry, AccessRule } from './model';

/** When rules exist and none matches: deny (option A, the default) or allow (option B). docs/gitlab-behaviour.md#ci_access-rules-design. */
export type NoRuleMatchBehaviour = 'deny' | 'allow';

export type RulesOutcome =
  | { readonly kind: 'noRules' }
  | { readonly kind: 'matched'; readonly rule: AccessRule; readonly namespace: string | null; readonly namespaceSource: 'rule' | 'default_namespace' | 'none' }
  | { readonly kind: 'never'; readonly rule: AccessRule }
  | { readonly kind: 'noMatch'; readonly allowed: boolean };

export interface RuleTrace {
  readonly rule: AccessRule;
  readonly result: 'matched' | 'notMatched' | 'error';
  readonly detail: string;
}

/**
 * The proposed `rules` design (docs/gitlab-behaviour.md#ci_access-rules-design): rules in order, the first match wins; a rule without `if` always
 * matches; `when: never` denies; `namespace` (or, without one, `default_namespace`) is expanded
 * with the job's variables. An `if` that cannot be evaluated does not match (GitLab's
 * `Statement#truthful?`).
 */
export function evaluateRules(entry: AccessEntry, variables: ReadonlyMap<string, string>, noRuleMatch: NoRuleMatchBehaviour, trace: RuleTrace[] | null = null, dialect: ExprOptions = {}): RulesOutcome {
  if (!entry.rules) return { kind: 'noRules' };
  for (const rule of entry.rules) {
    if (rule.if !== undefined) {
      const result = evaluate(rule.if, variables, dialect);
      if (!result.ok) {
        trace?.push({ rule, result: 'error', detail: result.error.message });
        continue;
      }
      if (!result.truthy) {
        trace?.push({ rule, result: 'notMatched', detail: `if evaluates to ${JSON.stringify(result.value)}` });
        continue;
      }
      trace?.push({ rule, result: 'matched', detail: `if evaluates to ${JSON.stringify(result.value)}` });
    } else {
      trace?.push({ rule, result: 'matched', detail: 'no if: always matches' });
    }
    if (rule.when === 'never') return { kind: 'never', rule };
    const template = rule.namespace ?? entry.defaultNamespace;
    if (template === undefined) return { kind: 'matched', rule, namespace: null, namespaceSource: 'none' };
    return { kind: 'matched', rule, namespace: expandedText(template, variables), namespaceSource: rule.namespace !== undefined ? 'rule' : 'default_namespace' };
  }
  return { kind: 'noMatch', allowed: noRuleMatch === 'allow' };
}
