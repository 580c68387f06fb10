// agentcfg's exit statuses (server/src/cli/run.ts): 0 success, 1 problems or failure (also a file
// the system refuses), 2 usage error, 3 internal error naming the command and what it worked on
// (not a bare stack dump), 130 interrupted; and the Ctrl-C machinery (server/src/cli/interrupt.ts)
// with a stand-in signal source: the first SIGINT aborts, the second prints the summary and exits.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { UsageError } from '../../server/src/cli/args';
import { EXIT_INTERRUPTED, Interruption, StepLedger } from '../../server/src/cli/interrupt';
import type { CliCommand, CliIo } from '../../server/src/cli/io';
import { EXIT_INTERNAL, runCli, workingOn } from '../../server/src/cli/run';

function capture(): CliIo & { stdout: string; stderr: string } {
  const io = {
    cwd: process.cwd(),
    stdout: '',
    stderr: '',
    out: (text: string) => void (io.stdout += text),
    err: (text: string) => void (io.stderr += text),
    readStdin: async () => '',
  };
  return io;
}

const command = (name: string, run: CliCommand['run']): CliCommand => ({ name, summary: `the ${name} command`, usage: `agentcfg ${name} <file>`, run });

const COMMANDS = [
  command('ok', async () => 0),
  command('problems', async () => 1),
  command('usage', async () => {
    throw new UsageError('--x must be y');
  }),
  command('bug', async (argv) =>
    workingOn(argv[0], async () => {
      const value = undefined as unknown as { length: number };
      return value.length;
    }),
  ),
  command('enoent', async () => {
    throw Object.assign(new Error("ENOENT: no such file or directory, scandir '/nowhere'"), { code: 'ENOENT', syscall: 'scandir', path: '/nowhere' });
  }),
];

test('0, 1 and 2 as the command says; no command is a usage error, help is not', async () => {
  assert.equal(await runCli(['ok'], capture(), COMMANDS), 0);
  assert.equal(await runCli(['problems'], capture(), COMMANDS), 1);
  const usage = capture();
  assert.equal(await runCli(['usage'], usage, COMMANDS), 2);
  assert.equal(usage.stderr, 'agentcfg usage: --x must be y\nusage: agentcfg usage <file>\n');
  const none = capture();
  assert.equal(await runCli([], none, COMMANDS), 2);
  assert.equal(none.stdout, '', 'the help goes to stderr when it answers a mistake');
  assert.match(none.stderr, /^usage: agentcfg <command>[\s\S]*Exit status: 0 success, 1 problems found or operation failed, 2 usage error, 3 internal error, 130 interrupted/);
  assert.equal(await runCli(['help'], capture(), COMMANDS), 0);
  assert.equal(await runCli(['ok', '--help'], capture(), COMMANDS), 0);
});

test('an unexpected exception exits 3 and names the command, the file it worked on and the code location', async () => {
  const io = capture();
  assert.equal(await runCli(['bug', 'agents/prod/config.yaml', '--format', 'json'], io, COMMANDS), EXIT_INTERNAL);
  const lines = io.stderr.split('\n');
  assert.match(lines[0], /^agentcfg bug: internal error while working on agents\/prod\/config\.yaml: TypeError: Cannot read properties of undefined \(reading 'length'\)$/);
  assert.equal(lines[1], '  command: agentcfg bug agents/prod/config.yaml --format json');
  assert.match(lines[2], /^ {2}at .*cli-exit-codes\.test\.ts:\d+:\d+/, 'where in the code');
  assert.match(io.stderr, /This is a bug in agentcfg, not a problem with your input: please report it/);
  assert.ok(lines.filter((l) => /^\s+at /.test(l)).length <= 3, 'a few frames, not the whole dump');
});

test('a system error (a file the machine refuses) is a failure (1), not a bug', async () => {
  const io = capture();
  assert.equal(await runCli(['enoent'], io, COMMANDS), 1);
  assert.equal(io.stderr, "agentcfg enoent: ENOENT: no such file or directory, scandir '/nowhere'\n");
});

test('Ctrl-C: the first SIGINT aborts and says so; the second prints the summary and exits 130 at once', () => {
  const source = new EventEmitter();
  const exits: number[] = [];
  const io = capture();
  const interruption = new Interruption({ io, command: 'apply', format: 'text', source, exit: (code) => void exits.push(code) });
  interruption.ledger.expect('a', 'create A');
  interruption.ledger.expect('b', 'create B');
  interruption.observeWith((step) => void (step.kind === 'applied' && interruption.ledger.complete(step.ref.name, `created ${step.ref.name}`)));
  interruption.progress().report('created a', undefined, { kind: 'applied', ref: { group: '', version: 'v1', kind: 'ConfigMap', namespace: '', name: 'a' }, action: 'created', done: 1, total: 2 });
  assert.equal(io.stderr, 'agentcfg apply: created a\n');
  source.emit('SIGINT');
  assert.equal(interruption.signal.aborted, true);
  assert.match(io.stderr, /interrupted; stopping after the request in flight \(Ctrl-C again to stop at once\)/);
  assert.deepEqual(exits, []);
  source.emit('SIGINT');
  assert.deepEqual(exits, [EXIT_INTERRUPTED]);
  assert.match(io.stderr, /Interrupted\.\n {2}done: created a\n {2}not done: create B\n {2}Nothing more was changed\. Run the same command again to converge\.\n$/);
  source.emit('SIGINT');
  assert.deepEqual(exits, [EXIT_INTERRUPTED, EXIT_INTERRUPTED]);
  assert.equal(io.stderr.match(/^Interrupted\.$/gm)?.length, 1, 'the summary is printed once');
  interruption.dispose();
  assert.equal(source.listenerCount('SIGINT'), 1, 'after an interruption, a further Ctrl-C still exits 130');

  const quiet = new EventEmitter();
  new Interruption({ io: capture(), command: 'apply', format: 'text', source: quiet }).dispose();
  assert.equal(quiet.listenerCount('SIGINT'), 0, 'an uninterrupted command leaves no listener behind');
});

test('the ledger: waits in flight are not done until settled; --format json prints one JSON line', () => {
  const ledger = new StepLedger();
  ledger.expect('apply x', 'create x');
  ledger.expect('apply y', 'create y');
  ledger.complete('apply x', 'created x');
  ledger.waitFor('ready x', 'x ready (applied; not confirmed ready)');
  assert.deepEqual(ledger.summary(), { done: ['created x'], notDone: ['x ready (applied; not confirmed ready)', 'create y'] });
  ledger.settle((key) => key === 'ready x');
  assert.deepEqual(ledger.summary(), { done: ['created x'], notDone: ['create y'] });

  const io = capture();
  const interruption = new Interruption({ io, command: 'destroy', format: 'json', source: new EventEmitter(), exit: () => undefined });
  interruption.ledger.expect('inventory', 'delete inventory a/b');
  assert.equal(interruption.printSummary(), 130);
  assert.deepEqual(JSON.parse(io.stdout), { ok: false, interrupted: true, done: [], notDone: ['delete inventory a/b'] });
});
