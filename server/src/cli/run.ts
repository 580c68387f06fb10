/**
 * `agentcfg <command> [options]`: finds the command, runs it and turns what it ends with into an
 * exit status. Separate from main.ts (the process wiring) so tests can run it in-process.
 *
 * Exit status: 0 success; 1 problems found or the operation failed (the message says why; also a
 * file or socket the system refused);
 * 2 usage error (unknown command or option, missing or malformed value, before anything else
 * happens); 3 internal error (a bug: the message names the command and what it was working on);
 * 130 interrupted with Ctrl-C (after a summary of what was done).
 */
import { UsageError } from './args';
import type { CliCommand, CliIo } from './io';
import { AGENTCFG_VERSION } from './version';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

/** Registered (`Symbol.for`): the cluster commands' bundle tags errors with it too. */
const SUBJECT = Symbol.for('agentcfg.subject');

/**
 * Runs `work`; an unexpected exception from it is tagged with `subject` (a file, an object), so the
 * internal-error message says what the command was working on. Usage errors pass unchanged.
 */
export async function workingOn<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UsageError || err === null || typeof err !== 'object' || SUBJECT in err) throw err;
    Object.defineProperty(err, SUBJECT, { value: subject });
    throw err;
  }
}

function subjectOf(err: unknown): string | undefined {
  return err !== null && typeof err === 'object' && SUBJECT in err ? String((err as Record<symbol, unknown>)[SUBJECT]) : undefined;
}

/** The first frames of a stack, for a bug report (never the whole dump on its own). */
function frames(err: unknown, count = 3): string[] {
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
  return stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, count)
    .map((line) => `  ${line.trim()}`);
}

/** The message of an internal error: which command, on what, what happened, and where in the code. */
export function internalErrorText(command: string, argv: readonly string[], err: unknown): string {
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const subject = subjectOf(err);
  return [
    `agentcfg ${command}: internal error${subject ? ` while working on ${subject}` : ''}: ${what}`,
    `  command: agentcfg ${[command, ...argv].join(' ')}`,
    ...frames(err),
    'This is a bug in agentcfg, not a problem with your input: please report it with the command above.',
    '',
  ].join('\n');
}

/** A Node system error (`ENOENT: no such file or directory, open '…'`). */
function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

function help(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: agentcfg <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'agentcfg <command> --help shows the usage of a command; agentcfg --version (-V) prints the version.',
    'Exit status: 0 success, 1 problems found or operation failed, 2 usage error, 3 internal error, 130 interrupted (Ctrl-C).',
    '',
  ].join('\n');
}

/** Runs one command line; never throws. */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CliCommand[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(help(commands));
    return EXIT_OK;
  }
  if (name === '--version' || name === '-V') {
    io.out(`agentcfg ${AGENTCFG_VERSION}\n`);
    return EXIT_OK;
  }
  if (!name) {
    io.err(help(commands));
    return EXIT_USAGE;
  }
  const listed = commands.find((c) => c.name === name);
  if (!listed) {
    io.err(`agentcfg: unknown command "${name}"\n\n${help(commands)}`);
    return EXIT_USAGE;
  }
  const command = listed.resolve ? await listed.resolve() : listed;
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (options.includes('--help') || options.includes('-h')) {
    io.out(commandHelp(command));
    return EXIT_OK;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`agentcfg ${command.name}: ${err.message}\nusage: ${command.usage}\n`);
      return EXIT_USAGE;
    }
    if (isSystemError(err)) {
      // The machine said no (a file, a directory, a socket): not a bug, and the message says which.
      io.err(`agentcfg ${command.name}: ${err.message}\n`);
      return EXIT_FAILED;
    }
    io.err(internalErrorText(command.name, rest, err));
    return EXIT_INTERNAL;
  }
}

/** `<command> --help`: its usage, and for a command that explains its options, what it does and each option on a line of its own. */
function commandHelp(command: CliCommand): string {
  if (!command.options?.length) return `usage: ${command.usage}\n`;
  // The options are explained below: the usage line names them once, as [options].
  const width = Math.max(...command.options.map((o) => o.option.length));
  const lines = [`usage: ${command.usage.split(' [')[0]} [options]`, '', command.summary, '', 'options:', ...command.options.map((o) => `  ${o.option.padEnd(width)}  ${o.says}`)];
  return `${lines.join('\n')}\n`;
}
