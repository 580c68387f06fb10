/**
 * What every cluster command of `agentcfg` shares: which kubeconfig and context (`--kubeconfig`,
 * `--context`; `KUBECONFIG` and the current context by default, never written), `--format
 * text|json`, `--timeout`, progress on stderr (stdout stays the result), failures as one sentence
 * (exit status 1), Ctrl-C (a summary of what was done, exit status 130), and the confirmation a
 * change needs (`--yes`, or a "y" on a terminal).
 */
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { describeOutcome, isFailure, type ClusterFailure, type ClusterOutcome } from '../cluster/kube/outcome';
import { openSession, type ClusterSession } from '../cluster/kube/session';
import { CLI_ADVICE } from '../cluster/kube/advice';
import { takeLock, type HeldLock, type LockSubject } from '../cluster/operationLock';
import type { ProgressSink } from '../cluster/progressSteps';
import type { ProgressStep } from '../cluster/progressSteps';
import type { ParsedArgs } from './args';
import { EXIT_INTERRUPTED, Interruption, type StepLedger } from './interrupt';
import type { CliIo } from './io';
import { formatOption } from './options';

export { timeoutOption } from './options';

/** Options every cluster command of the CLI takes. */
export const CLUSTER_VALUES = ['context', 'kubeconfig', 'format', 'timeout'];

/** `--format text|json`. */
export function outputFormat(args: ParsedArgs): 'text' | 'json' {
  return formatOption(args);
}

/** Opens the session of `--kubeconfig`/`--context` (KUBECONFIG and the current context by default). */
function cliSession(args: ParsedArgs, io: CliIo, signal?: AbortSignal): ClusterOutcome<ClusterSession> {
  const kubeconfig = args.values.kubeconfig;
  return openSession({
    ...(kubeconfig ? { kubeconfigPath: path.resolve(io.cwd, kubeconfig) } : {}),
    ...(args.values.context ? { context: args.values.context } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** One cluster command at work: its session, its interruption, and how it reports. */
export interface ClusterRun {
  readonly session: ClusterSession;
  /** Aborted by Ctrl-C; give it to every cluster operation. */
  readonly signal: AbortSignal;
  /** Progress lines on stderr, also read into {@link ledger}. */
  readonly progress: ProgressSink;
  /** What was done and not done, for the summary Ctrl-C prints. */
  readonly ledger: StepLedger;
  /** Reads the operation's progress messages into {@link ledger} (set once the plan is known). */
  observe(observer: (step: ProgressStep) => void): void;
  /** Says what to add after the lists of an interruption summary (default: run again to converge). */
  closing(text: string): void;
  /** Prints a failure (or, after Ctrl-C, the summary) and returns the exit status. */
  fail(failure: ClusterFailure): number;
}

/**
 * Runs `work` with the session of `--kubeconfig`/`--context`, then closes it (its kept-alive sockets
 * would otherwise hold the process open); a session that cannot be opened is printed as a failure.
 * While it runs, Ctrl-C aborts the run's signal; the command then ends with the summary of what was
 * done and exit status 130 (a second Ctrl-C prints the summary and exits at once).
 */
export async function withClusterSession(args: ParsedArgs, io: CliIo, format: 'text' | 'json', command: string, work: (run: ClusterRun) => Promise<number>): Promise<number> {
  const interruption = new Interruption({ io, command, format });
  try {
    // After Ctrl-C the session sends nothing new, whatever code path is running.
    const opened = cliSession(args, io, interruption.signal);
    if (isFailure(opened)) return interruption.interrupted ? interruption.printSummary() : printFailure(io, format, opened);
    const session = opened.value;
    let summarized = false;
    const run: ClusterRun = {
      session,
      signal: interruption.signal,
      progress: interruption.progress(),
      ledger: interruption.ledger,
      observe: (observer) => interruption.observeWith(observer),
      closing: (text) => {
        interruption.closing = text;
      },
      fail: (failure) => {
        if (!interruption.interrupted) return printFailure(io, format, failure, session.context);
        // After Ctrl-C a cancellation is expected; another failure is worth saying too.
        if (failure.type !== 'cancelled' && format === 'text') io.err(`${describeOutcome(withContext(failure, session.context), CLI_ADVICE)}\n`);
        summarized = true;
        return interruption.printSummary();
      },
    };
    try {
      const code = await work(run);
      if (code !== 0 && interruption.interrupted && !summarized) return interruption.printSummary();
      return summarized ? EXIT_INTERRUPTED : code;
    } finally {
      session.close();
    }
  } finally {
    interruption.dispose();
  }
}

/** Puts the kubeconfig context into the failures whose message names it (TLS and credentials). */
function withContext(failure: ClusterFailure, context: string | undefined): ClusterFailure {
  return failure.type === 'unreachable' && context !== undefined && failure.context === undefined ? { ...failure, context } : failure;
}

/** Prints a failure (JSON or a sentence) and returns exit status 1. */
function printFailure(io: CliIo, format: 'text' | 'json', failure: ClusterFailure, context?: string): number {
  const described = withContext(failure, context);
  if (format === 'json') io.out(JSON.stringify({ ok: false, error: { type: described.type, ...(described.type === 'unreachable' && described.cause ? { cause: described.cause } : {}), message: described.message, description: describeOutcome(described, CLI_ADVICE) } }) + '\n');
  else io.err(`${describeOutcome(described, CLI_ADVICE)}\n`);
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
 * refuses: changing a cluster without a person or `--yes` is not allowed). Ctrl-C at the question is
 * a "no" and is handed on as SIGINT (a terminal in raw mode sends it to readline, not the process).
 */
export async function askYesNo(question: string): Promise<boolean | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const interrupted = new Promise<false>((resolve) =>
      rl.once('SIGINT', () => {
        process.stderr.write('\n');
        process.emit('SIGINT');
        resolve(false);
      }),
    );
    const answer = await Promise.race([rl.question(`${question} [y/N] `), interrupted]);
    return answer !== false && /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/**
 * Runs `work` holding the lock of `subject` (cluster/operationLock.ts) from before the plan until
 * the execution ends, so that the plan a person reads, and the one `--yes` carries out, is made
 * after any other run on the same environment or workspace has finished. Where the lock's namespace
 * does not exist yet (a first apply), `work` gets no lock and the execution takes it itself; a dry
 * run (`subject` null) changes nothing and takes none.
 */
export async function withPlanLock(run: ClusterRun, subject: LockSubject | null, operation: string, timeoutMs: number | undefined, work: (lock: HeldLock | undefined) => Promise<number>): Promise<number> {
  if (subject === null) return work(undefined);
  const lock = await takeLock(run.session, subject, operation, { signal: run.signal, progress: run.progress, ...(timeoutMs ? { timeoutMs } : {}) });
  if (isFailure(lock) && lock.type !== 'notFound') return run.fail(lock);
  const held = isFailure(lock) ? undefined : lock.value;
  try {
    return await work(held);
  } finally {
    await held?.release();
  }
}
