/** Marks usage errors across bundles (the cluster commands are a bundle of their own, with its own copy of this class). */
const USAGE_ERROR = Symbol.for('agentcfg.usageError');

/** A mistake in how a command was called: printed with the command's usage, exit status 2. */
export class UsageError extends Error {
  readonly [USAGE_ERROR] = true;

  /** `instanceof` holds for a usage error thrown by either bundle's copy of the class. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && USAGE_ERROR in value;
  }
}

export interface ParsedArgs {
  readonly positional: string[];
  readonly values: Partial<Record<string, string>>;
  /** Options that may repeat (`--var A=1 --var B=2`). */
  readonly repeated: Partial<Record<string, string[]>>;
  readonly flags: Set<string>;
}

/** The options a command (or sub-command) accepts. */
export interface ArgsSpec {
  readonly values?: readonly string[];
  readonly repeated?: readonly string[];
  readonly flags?: readonly string[];
}

/**
 * Minimal, strict argument parsing: `--name value`, `--name=value`, boolean `--flag`, repeatable
 * options, `--` ends options. Unknown options, an option without its value (`--name` last, or
 * followed by another option: `--name --yes`), a value given to a flag (`--yes=no`) and a
 * non-repeatable option given twice are usage errors rather than guesses. A value that starts with
 * `--` can still be given as `--name=--value`.
 */
export function parseArgs(argv: readonly string[], spec: ArgsSpec): ParsedArgs {
  const result: ParsedArgs = { positional: [], values: {}, repeated: {}, flags: new Set() };
  const values = new Set(spec.values ?? []);
  const repeated = new Set(spec.repeated ?? []);
  const flags = new Set(spec.flags ?? []);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      result.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      result.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (flags.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value (got "${arg}")`);
      result.flags.add(name);
      continue;
    }
    if (!values.has(name) && !repeated.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq === -1 ? argv[i + 1] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    if (eq === -1) i++;
    if (repeated.has(name)) (result.repeated[name] ??= []).push(value);
    else if (result.values[name] !== undefined) throw new UsageError(`--${name} is given twice ("${result.values[name]}" and "${value}"); give it once`);
    else result.values[name] = value;
  }
  return result;
}
