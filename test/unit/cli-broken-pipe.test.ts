// When the reader of agentcfg's stdout goes away (`agentcfg validate . | head`), the command drops
// what is left to print, finishes, and exits with its own status: not "internal error ... a bug in
// agentcfg" (exit 3), as the broken pipe made validate do before. expr --batch, which waits for
// stdout to drain, already came through; its test keeps it from hanging. Built CLI, through real pipes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/lspClient';

const CLI = path.join(repoRoot, 'dist', 'cli.js');

/** Runs the CLI and closes its stdout after the first chunk; its exit status, what it wrote to stderr and how much stdout was read. */
async function readFirstChunkOnly(args: readonly string[], cwd: string, stdin?: (write: (text: string) => boolean) => Promise<void>) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let read = 0;
  child.stdout.once('data', (chunk: Buffer) => {
    read = chunk.length;
    child.stdout.destroy();
  });
  child.stdin.on('error', () => undefined);
  if (stdin) await stdin((text) => child.stdin.write(text));
  child.stdin.end();
  const [status] = (await once(child, 'exit')) as [number | null];
  return { status, stderr, read };
}

test('validate piped into a reader that stops early: exit 1 for the problems found, only the summary on stderr', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-pipe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const broken = readFileSync(path.join(repoRoot, 'examples', '.gitlab', 'agents', 'broken-agent', 'config.yaml'), 'utf8');
  // Far more than a pipe holds (64 KiB): the writes after the reader is gone meet a broken pipe.
  for (let i = 0; i < 200; i++) {
    const agent = path.join(dir, '.gitlab', 'agents', `agent-${i}`);
    mkdirSync(agent, { recursive: true });
    writeFileSync(path.join(agent, 'config.yaml'), broken);
  }
  const run = await readFirstChunkOnly(['validate', '.'], dir);
  assert.ok(run.read > 0, 'the first chunk was read');
  // The report's summary line is all: no broken-pipe error.
  assert.match(run.stderr, /^\n✖ \d+ problems \([^)]*\) in \d+ files\n$/);
  assert.equal(run.status, 1);
});

test('expr --batch piped into a reader that stops early still reads all its input and exits 0', { timeout: 120_000 }, async () => {
  const lines = 50_000;
  const run = await readFirstChunkOnly(['expr', '--batch'], repoRoot, async (write) => {
    for (let i = 0; i < lines; i++) {
      if (!write(`${JSON.stringify({ expr: '$A == "x"', vars: { A: `value-${i}` } })}\n`)) await new Promise((resolve) => setImmediate(resolve));
    }
  });
  assert.ok(run.read > 0, 'the first chunk was read');
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});
