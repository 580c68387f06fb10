/** What a CLI command may touch: its arguments, its output streams, stdin, and the working directory. */
export interface CliIo {
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
  /** Reads all of standard input (for batch modes). */
  readStdin(): Promise<string>;
  /**
   * Standard input as it arrives, decoded text piece by piece (streaming batch modes; the next piece
   * is read once the loop asks for it). Absent: `readStdin`, in one piece.
   */
  stdinText?(): AsyncIterable<string>;
  /** Writes like `out` and resolves once the output can take more (back-pressure). Absent: `out`. */
  write?(text: string): Promise<void>;
}

/** One `agentcfg <name>` sub-command. `run` returns the process exit status. */
export interface CliOption {
  readonly option: string;
  readonly says: string;
}

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** What each option does, for `<command> --help`: the option as written, and a sentence. */
  readonly options?: readonly CliOption[];
  run(argv: readonly string[], io: CliIo): Promise<number>;
  /** The whole command, for one listed before its code is loaded (its `usage` is read from it). */
  resolve?(): Promise<CliCommand>;
}
