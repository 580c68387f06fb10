/**
 * Option values checked before anything else happens: each bad value is a {@link UsageError} that
 * names the option, says the expected form and shows what was given (exit status 2), so that no
 * cluster call, file write or rendering starts from a value the command would misread.
 */
import { dnsLabelProblem, dnsSubdomainProblem } from '../cluster/kube/names';
import { UsageError, type ParsedArgs } from './args';

/** The rule a Kubernetes name given on the command line must follow. */
export type NameRule = 'namespace' | 'label' | 'subdomain';

const NAME_RULES: Readonly<Record<NameRule, { what: string; problem: (name: string) => string | undefined }>> = {
  namespace: { what: 'a namespace name (DNS-1123 label: at most 63 lowercase letters, digits or "-")', problem: dnsLabelProblem },
  label: { what: 'a DNS-1123 label (at most 63 lowercase letters, digits or "-")', problem: dnsLabelProblem },
  subdomain: { what: 'an object name (DNS-1123 subdomain: at most 253 lowercase letters, digits, "-" or ".")', problem: dnsSubdomainProblem },
};

/** Throws the usage error for a value that breaks a Kubernetes name rule. */
export function checkName(option: string, value: string, rule: NameRule): string {
  const problem = NAME_RULES[rule].problem(value);
  if (problem !== undefined) throw new UsageError(`--${option} must be ${NAME_RULES[rule].what}; "${value}" ${problem}`);
  return value;
}

/** `--<option>` as a Kubernetes name, when given. */
export function nameOption(args: ParsedArgs, option: string, rule: NameRule): string | undefined {
  const value = args.values[option];
  return value === undefined ? undefined : checkName(option, value, rule);
}

/** `--<option>` as one of `choices`, when given. */
export function choiceOption<T extends string>(args: ParsedArgs, option: string, choices: readonly T[]): T | undefined {
  const value = args.values[option];
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`--${option} must be ${orList(choices)}, got "${value}"`);
  return value as T;
}

/** `--<option>` as a non-negative integer id, when given (`required`: missing is a usage error). */
export function integerOption(args: ParsedArgs, option: string, required: boolean): number | undefined {
  const text = args.values[option];
  if (text === undefined) {
    if (required) throw new UsageError(`--${option} is required`);
    return undefined;
  }
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${option} must be a non-negative integer, got "${text}"`);
  return Number(text);
}

/** `--format text|json` (text by default). */
export function formatOption(args: ParsedArgs): 'text' | 'json' {
  return choiceOption(args, 'format', ['text', 'json'] as const) ?? 'text';
}

/** setTimeout's limit; a longer timer would fire at once. */
const MAX_TIMEOUT_MS = 24 * 3_600_000;

/** `--timeout 90s|5m|1h|1500ms|90` (seconds when no unit) in milliseconds, when given. */
export function timeoutOption(args: ParsedArgs): number | undefined {
  const text = args.values.timeout;
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const unit = m?.[2] ?? 's';
  const ms = m ? Number(m[1]) * (unit === 'ms' ? 1 : unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000) : NaN;
  if (!(ms >= 1)) throw new UsageError(`--timeout needs a duration such as 90s, 5m or 1500ms, got "${text}"`);
  if (ms > MAX_TIMEOUT_MS) throw new UsageError(`--timeout must be at most 24h, got "${text}"`);
  return Math.round(ms);
}

/**
 * A GitLab environment name (docs/gitlab-behaviour.md#ci-expressions-and-variables, `Gitlab::Regex.environment_name_regex`): letters, digits,
 * space, `-`, `_`, `/`, `$`, `{`, `}`, `.`, not starting or ending with `/`.
 */
export function environmentNameProblem(name: string): string | undefined {
  if (name === '') return 'must not be empty';
  if (!/^[a-zA-Z0-9 \-_/${}.]+$/.test(name)) return "may contain only letters, digits, spaces, '-', '_', '/', '$', '{', '}' and '.'";
  if (name.startsWith('/') || name.endsWith('/')) return "must not start or end with '/'";
  return undefined;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
