/**
 * Ctrl-C during a cluster command: the first SIGINT aborts the operation's AbortSignal (it stops at
 * the next request boundary) and the command then prints what was done and what was not, and exits
 * 130; a second SIGINT prints the same summary at once and exits. What was done comes from the
 * progress the operation reports, matched against the steps the command expected (its plan).
 */
import type { ProgressSink } from '../cluster/progressSteps';
import type { ProgressStep } from '../cluster/progressSteps';
import type { CliIo } from './io';

/** Exit status of an interrupted command (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** The steps of one operation: expected, done, and the waits in flight. */
export class StepLedger {
  /** key → what the step is while not done, in plan order. */
  private readonly todo = new Map<string, string>();
  private readonly done: string[] = [];
  /** key → what is not confirmed while a wait is in flight. */
  private readonly waiting = new Map<string, string>();

  /** A step the operation means to do. */
  expect(key: string, label: string): void {
    this.todo.set(key, label);
  }

  /** A step done (expected or not), said as `label`. */
  complete(key: string, label: string): void {
    this.todo.delete(key);
    this.waiting.delete(key);
    this.done.push(label);
  }

  /** A wait started; until {@link settle} it counts as not done. */
  waitFor(key: string, label: string): void {
    this.waiting.set(key, label);
  }

  /** The waits `finished` says are over (the operation moved past them). */
  settle(finished: (key: string) => boolean): void {
    for (const key of [...this.waiting.keys()]) if (finished(key)) this.waiting.delete(key);
  }

  /**
   * What was done and what was not (waits in flight first, then the steps not started). Before any
   * step was known (interrupted while planning), nothing was done and all of it remains.
   */
  summary(): { done: string[]; notDone: string[] } {
    const notDone = [...this.waiting.values(), ...this.todo.values()];
    if (this.done.length === 0 && notDone.length === 0) return { done: [], notDone: ['all of it (interrupted before any change was made)'] };
    return { done: [...this.done], notDone };
  }
}

/** Where SIGINT comes from (the process; a stand-in in tests). */
export interface SignalSource {
  on(event: 'SIGINT', listener: () => void): unknown;
  off(event: 'SIGINT', listener: () => void): unknown;
}

const LIST_LIMIT = 12;

function listText(items: readonly string[]): string {
  if (items.length === 0) return 'nothing';
  const shown = items.slice(0, LIST_LIMIT).join('; ');
  return items.length > LIST_LIMIT ? `${shown}; and ${items.length - LIST_LIMIT} more` : shown;
}

/** The text of an interruption summary. */
export function interruptionText(summary: { done: readonly string[]; notDone: readonly string[] }, closing: string): string {
  return `Interrupted.\n  done: ${listText(summary.done)}\n  not done: ${listText(summary.notDone)}\n  ${closing}\n`;
}

export interface InterruptionOptions {
  readonly io: CliIo;
  /** `apply`, `workspace terminate`…, for the messages. */
  readonly command: string;
  readonly format: 'text' | 'json';
  readonly source?: SignalSource;
  readonly exit?: (code: number) => void;
}

/**
 * One cluster command's interruption: owns the AbortController the operation receives, the ledger
 * the command fills from its plan and progress, and the SIGINT listener while the command runs.
 */
export class Interruption {
  readonly ledger = new StepLedger();
  /** What to say after the lists (a read-only command changes that). */
  closing = 'Nothing more was changed. Run the same command again to converge.';
  private readonly controller = new AbortController();
  private readonly source: SignalSource;
  private readonly exit: (code: number) => void;
  private observe: (step: ProgressStep) => void = () => undefined;
  private summarized = false;
  private readonly onSignal = (): void => {
    if (!this.controller.signal.aborted) {
      this.controller.abort();
      this.options.io.err(`\nagentcfg ${this.options.command}: interrupted; stopping after the request in flight (Ctrl-C again to stop at once)\n`);
      return;
    }
    if (!this.summarized) this.printSummary();
    this.exit(EXIT_INTERRUPTED);
  };

  constructor(private readonly options: InterruptionOptions) {
    this.source = options.source ?? process;
    this.exit = options.exit ?? ((code) => process.exit(code));
    this.source.on('SIGINT', this.onSignal);
  }

  /** Aborted by the first SIGINT. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Progress lines on stderr, each also given to the command's observer (which fills the ledger). */
  progress(): ProgressSink {
    return {
      report: (message, _percentage, step) => {
        this.options.io.err(`agentcfg ${this.options.command}: ${message}\n`);
        if (step) this.observe(step);
      },
    };
  }

  /** How the command reads its operation's progress into the ledger. */
  observeWith(observe: (step: ProgressStep) => void): void {
    this.observe = observe;
  }

  /** Prints the summary (stderr, or one JSON line on stdout) and returns {@link EXIT_INTERRUPTED}. */
  printSummary(): number {
    this.summarized = true;
    const summary = this.ledger.summary();
    if (this.options.format === 'json') this.options.io.out(JSON.stringify({ ok: false, interrupted: true, ...summary }) + '\n');
    else this.options.io.err(interruptionText(summary, this.closing));
    return EXIT_INTERRUPTED;
  }

  /**
   * Removes the SIGINT listener when the command ends uninterrupted. After an interruption it stays:
   * another Ctrl-C while the process winds down exits 130 at once, not by Node's default signal death.
   */
  dispose(): void {
    if (!this.interrupted) this.source.off('SIGINT', this.onSignal);
  }
}
