/**
 * `agentcfg`: the engine from the command line, for pipelines and pre-commit hooks. The exit
 * statuses are documented in run.ts: 0 success, 1 problems or failure, 2 usage error, 3 internal
 * error, 130 interrupted.
 */
import { StringDecoder } from 'node:string_decoder';
import { COMMANDS } from './commands/index';
import type { CliIo } from './io';
import { EXIT_INTERNAL, internalErrorText, runCli } from './run';

/**
 * Set when the reader of stdout has gone (`agentcfg validate . | head`): what is left to print is
 * dropped, and the command still finishes (an `apply` is not cut off half-way) and exits with its
 * own status. Before, the broken pipe surfaced as an internal error ("a bug in agentcfg").
 */
let stdoutGone = false;

const io: CliIo = {
  cwd: process.cwd(),
  out: (text) => void (stdoutGone || process.stdout.write(text)),
  err: (text) => void process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  stdinText: async function* () {
    // A character split between two chunks is held back until its last byte arrives.
    const decoder = new StringDecoder('utf8');
    for await (const chunk of process.stdin) yield decoder.write(chunk as Buffer);
    const rest = decoder.end();
    if (rest) yield rest;
  },
  write: (text) => (stdoutGone || process.stdout.write(text) ? Promise.resolve() : drained(process.stdout)),
};

/** Resolves when a stream that refused more (`write` returned false) has flushed, or has failed. */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('error', done);
  });
}

const argv = process.argv.slice(2);

// An exception outside the command's own promise (an event handler, a stray rejection) is still an
// internal error with its own exit status and a message naming the command, not Node's bare dump.
const crash = (err: unknown): void => {
  process.stderr.write(internalErrorText(argv[0] ?? '', argv.slice(1), err));
  process.exit(EXIT_INTERNAL);
};
process.on('uncaughtException', crash);
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') return crash(err);
  stdoutGone = true;
});
process.on('unhandledRejection', crash);

void runCli(argv, io, COMMANDS).then((code) => {
  process.exitCode = code;
});
