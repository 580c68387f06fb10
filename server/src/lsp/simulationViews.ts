import { allVariableValues, decidedBy, evaluate, evaluateTree, formatExpressionTree, scenarioForEntry, scenarioVariables, validateExpression, viaLabel, walkExpression, type AccessRule, type ConfigSimulation, type EntrySimulation, type ExprNode, type JobIdentity } from '../engine/api';

/** Which part of an entry a data path points at. */
export type EntryTarget =
  | { readonly kind: 'id' }
  | { readonly kind: 'defaultNamespace' }
  | { readonly kind: 'ruleNamespace'; readonly rule: AccessRule }
  | { readonly kind: 'ruleIf'; readonly rule: AccessRule }
  | { readonly kind: 'other' };

export function findEntry(simulation: ConfigSimulation, path: readonly (string | number)[]): EntrySimulation | null {
  return simulation.entries.find((e) => e.entry.path.length <= path.length && e.entry.path.every((s, i) => path[i] === s)) ?? null;
}

export function entryTarget(entry: EntrySimulation, path: readonly (string | number)[]): EntryTarget {
  const rest = path.slice(entry.entry.path.length);
  if (rest.length === 1 && rest[0] === 'id') return { kind: 'id' };
  if (rest.length === 1 && rest[0] === 'default_namespace') return { kind: 'defaultNamespace' };
  if (rest[0] === 'rules' && typeof rest[1] === 'number' && rest.length === 3) {
    const rule = entry.entry.rules?.[rest[1]];
    if (rule && rest[2] === 'namespace') return { kind: 'ruleNamespace', rule };
    if (rule && rest[2] === 'if') return { kind: 'ruleIf', rule };
  }
  return { kind: 'other' };
}

const escape = (text: string) => text.replace(/[|\\`*_]/g, (c) => `\\${c}`);

/** Resolved namespace per scenario, for the scenarios where `rule` (null: default_namespace) decides. */
export function namespacePreview(entry: EntrySimulation, rule: number | null): string {
  const rows = entry.outcomes.map(({ scenario, outcome }) => {
    const decides = decidedBy(outcome, rule);
    if (!decides) {
      const why = outcome.rule !== null ? `rule ${outcome.rule} decides` : outcome.authorized ? 'default_namespace applies' : `not reached: ${outcome.denial ?? 'denied'}`;
      return `| ${escape(scenario.name)} | — | ${rule === null && outcome.rule !== null ? 'a rule decides' : escape(why)} |`;
    }
    const invalid = outcome.problems.find((p) => p.code.startsWith('namespace.'));
    if (outcome.namespace === null && !invalid) return `| ${escape(scenario.name)} | (none) | ${outcome.authorized ? 'no namespace in the context' : 'denied'} |`;
    return `| ${escape(scenario.name)} | \`${outcome.namespace ?? ''}\` | ${invalid ? `⚠ ${escape(invalid.message)}` : outcome.authorized ? '✓ valid' : 'denied'} |`;
  });
  return ['**Resolved namespace per scenario**', '', '| scenario | namespace | |', '|---|---|---|', ...rows].join('\n');
}

/** The value of an `if:` per scenario, and the parsed structure. */
export function expressionPreview(entry: EntrySimulation, rule: AccessRule, defaultBranch: string): string {
  const expression = rule.if ?? '';
  const parsed = validateExpression(expression);
  const structure = parsed.valid ? `\`${formatExpressionTree(parsed.ast)}\`` : `invalid: ${parsed.error.message}`;
  const names = parsed.valid ? variableNames(parsed.ast) : [];
  const parts = parsed.valid ? subExpressions(parsed.ast) : [];
  const unsetEverywhere = new Set(names);
  const rows = entry.outcomes.map(({ scenario }) => {
    const variables = allVariableValues(scenarioVariables(scenarioForEntry(scenario, entry.entry, defaultBranch)));
    const result = evaluate(expression, variables);
    const value = result.ok ? JSON.stringify(result.value) : `error: ${result.error.message}`;
    // Each variable's value in this scenario, then what each part of the expression gave.
    const values = names.map((name) => {
      const v = variables.get(name);
      if (v !== undefined) unsetEverywhere.delete(name);
      return `\`$${name}\` = ${v === undefined ? '*unset*' : codeCell(JSON.stringify(v))}`;
    });
    const partial = parts.map((node) => {
      const outcome = evaluateTree(node, { variables });
      return `${codeCell(formatExpressionTree(node))} → ${outcome.ok ? codeCell(JSON.stringify(outcome.value)) : 'error'}`;
    });
    return `| ${escape(scenario.name)} | \`${escape(value)}\` | ${result.truthy ? '✓ matches' : '✗ no match'} | ${values.join('<br>') || '—'} |${parts.length ? ` ${partial.join('<br>')} |` : ''}`;
  });
  const header = parts.length ? ['| scenario | value | | variables | parts |', '|---|---|---|---|---|'] : ['| scenario | value | | variables |', '|---|---|---|---|'];
  const notes = [...unsetEverywhere].map(
    (name) => `⚠ \`$${name}\` is set in no scenario, so every scenario reads it as unset (null): add it to a scenario's variables (setting \`gitlabAgentConfig.scenarios\`) to see this rule match.`,
  );
  return [`**Rule ${rule.number}** — parsed as ${structure}`, '', ...header, ...rows, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

/** Text as code in a table cell: markdown escapes do not apply inside code, only the cell's `|` must be escaped. */
function codeCell(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

/** The variables an expression reads, in order of first appearance. */
function variableNames(ast: ExprNode): string[] {
  const names = new Set<string>();
  walkExpression(ast, (node) => {
    if (node.type === 'variable') names.add(node.name);
  });
  return [...names];
}

/** The operations below the root (their results explain the whole one's), parents first. */
function subExpressions(ast: ExprNode): ExprNode[] {
  const out: ExprNode[] = [];
  walkExpression(ast, (node) => {
    if (node !== ast && (node.type === 'binary' || node.type === 'not')) out.push(node);
  });
  return out;
}

/** What each scenario gets from this entry. */
export function entryPreview(entry: EntrySimulation): string {
  const rows = entry.outcomes.map(({ scenario, outcome }) => {
    const via = viaLabel(outcome) ?? '—';
    const result = outcome.authorized ? `✓ ${outcome.namespace ? `\`${outcome.namespace}\`` : '(no namespace)'}` : `✗ ${escape(outcome.denial ?? 'denied')}`;
    return `| ${escape(scenario.name)} | ${result} | ${escape(via)} | ${outcome.rule ?? '—'} | ${escape(outcome.identity?.username ?? '—')} |`;
  });
  return ['**CI access per scenario**', '', '| scenario | result | via | rule | identity |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Distinct namespaces a rule (or default_namespace) resolves to where it decides. */
export function resolvedNamespaces(entry: EntrySimulation, rule: number | null): { values: string[]; invalid: number } {
  const values = new Set<string>();
  let invalid = 0;
  for (const { outcome } of entry.outcomes) {
    const decides = decidedBy(outcome, rule);
    if (!decides) continue;
    if (outcome.problems.some((p) => p.code === 'namespace.invalid')) invalid++;
    else if (outcome.namespace !== null) values.add(outcome.namespace);
  }
  return { values: [...values], invalid };
}

/**
 * The scenarios whose identity and namespace the RBAC preview asks about, for a hover on
 * `namespace:`/`default_namespace:` (the scenarios that namespace decides) or `access_as:` (every
 * authorized scenario); empty elsewhere.
 */
export function rbacRequests(entry: EntrySimulation, path: readonly (string | number)[], target: EntryTarget): { scenario: string; identity: JobIdentity; namespace: string | null }[] {
  const onAccessAs = path[entry.entry.path.length] === 'access_as';
  const rule = target.kind === 'ruleNamespace' ? target.rule.number : target.kind === 'defaultNamespace' ? null : undefined;
  if (!onAccessAs && rule === undefined) return [];
  return entry.outcomes.flatMap(({ scenario, outcome }) =>
    outcome.authorized && outcome.identity && (onAccessAs || decidedBy(outcome, rule ?? null)) ? [{ scenario: scenario.name, identity: outcome.identity, namespace: outcome.namespace }] : [],
  );
}
