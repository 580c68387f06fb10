/**
 * What every cluster command of `agentcfg` shares: which kubeconfig and context (`--kubeconfig`,
 * `--context`; `KUBECONFIG` and the current context by default, never written), `--format
 * text|json`, `--timeout`, progress on stderr (stdout stays the result), failures as one sentence
 * (exit status 1), and the confirmation a change needs (`--yes`, or a "y" on a terminal).
 */
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { describeOutcome, isFailure, type ClusterFailure, type ClusterOutcome } from '../cluster/kube/outcome';
import { openSession, type ClusterSession } from '../cluster/kube/session';
import { UsageError, type ParsedArgs } from './args';
import type { CliIo } from './io';

/** Options every cluster command of the CLI takes. */
export const CLUSTER_VALUES = ['context', 'kubeconfig', 'format', 'timeout'];

/** `--format text|json`. */
export function outputFormat(args: ParsedArgs): 'text' | 'json' {
  const format = args.values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  return format;
}

/** `--timeout 90s|5m|1500ms|90` (seconds when no unit) in milliseconds. */
export function timeoutOption(args: ParsedArgs): number | undefined {
  const text = args.values.timeout;
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m || Number(m[1]) <= 0) throw new UsageError(`--timeout needs a duration such as 90s, 5m or 1500ms, got "${text}"`);
  return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000);
}

/** Opens the session of `--kubeconfig`/`--context` (KUBECONFIG and the current context by default). */
export function cliSession(args: ParsedArgs, io: CliIo): ClusterOutcome<ClusterSession> {
  const kubeconfig = args.values.kubeconfig;
  return openSession({ ...(kubeconfig ? { kubeconfigPath: path.resolve(io.cwd, kubeconfig) } : {}), ...(args.values.context ? { context: args.values.context } : {}) });
}

/**
 * Runs `work` with the session of `--kubeconfig`/`--context`, then closes it (its kept-alive sockets
 * would otherwise hold the process open); a session that cannot be opened is printed as a failure.
 */
export async function withClusterSession(args: ParsedArgs, io: CliIo, format: 'text' | 'json', work: (session: ClusterSession) => Promise<number>): Promise<number> {
  const opened = cliSession(args, io);
  if (isFailure(opened)) return printFailure(io, format, opened);
  try {
    return await work(opened.value);
  } finally {
    opened.value.close();
  }
}

/** Progress goes to stderr so that stdout stays the result (text or JSON). */
export function stderrProgress(io: CliIo, command: string): { report(message: string): void } {
  return { report: (message) => io.err(`agentcfg ${command}: ${message}\n`) };
}

/** Prints a failure (JSON or a sentence) and returns exit status 1. */
export function printFailure(io: CliIo, format: 'text' | 'json', failure: ClusterFailure): number {
  if (format === 'json') io.out(JSON.stringify({ ok: false, error: { type: failure.type, message: failure.message, description: describeOutcome(failure) } }) + '\n');
  else io.err(`${describeOutcome(failure)}\n`);
  return 1;
}

/**
 * `go` with `--yes` or a "y" on the terminal; otherwise says why nothing happens (stderr) and the
 * caller exits 1: changing a cluster needs a person or `--yes`.
 */
export async function confirmChange(io: CliIo, args: ParsedArgs, question: string): Promise<boolean> {
  if (args.flags.has('yes')) return true;
  const answer = await askYesNo(question);
  if (answer === true) return true;
  io.err(answer === undefined ? 'Nothing changed: no terminal to confirm on; pass --yes to proceed without asking.\n' : 'Nothing changed.\n');
  return false;
}

/**
 * Asks a yes/no question on the terminal; undefined when stdin is not a terminal (the caller then
 * refuses: changing a cluster without a person or `--yes` is not allowed).
 */
export async function askYesNo(question: string): Promise<boolean | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
