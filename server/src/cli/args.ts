/** A mistake in how a command was called: printed with the command's usage, exit status 2. */
export class UsageError extends Error {}

export interface ParsedArgs {
  readonly positional: string[];
  readonly values: Partial<Record<string, string>>;
  /** Options that may repeat (`--var A=1 --var B=2`). */
  readonly repeated: Partial<Record<string, string[]>>;
  readonly flags: Set<string>;
}

/**
 * Minimal, strict argument parsing: `--name value`, `--name=value`, boolean `--flag`, repeatable
 * options, `--` ends options. Unknown options are usage errors rather than silently ignored.
 */
export function parseArgs(argv: readonly string[], spec: { values?: string[]; repeated?: string[]; flags?: string[] }): ParsedArgs {
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
    if (flags.has(name) && eq === -1) {
      result.flags.add(name);
      continue;
    }
    if (!values.has(name) && !repeated.has(name)) throw new UsageError(`unknown option --${name}`);
    let value: string | undefined = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (repeated.has(name)) (result.repeated[name] ??= []).push(value);
    else result.values[name] = value;
    value = undefined;
  }
  return result;
}
