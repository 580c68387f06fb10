// `agentcfg expr --batch` streams: answers come as the requests arrive, in their order,
// and stdin is read only as fast as the output is taken. Memory is a figure of `npm run bench`
// (bench/cli.ts), never asserted here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';
import { exprCommand } from '../../server/src/cli/commands/expr';
import type { CliIo } from '../../server/src/cli/io';
import { repoRoot } from '../support/lspClient';

/** Request `i`: its answer names `i`, so order and content can be checked line by line. */
function request(i: number): string {
  switch (i % 5) {
    case 0:
      return JSON.stringify({ expr: '$A', vars: { A: `v${i}-é🚀` } });
    case 1:
      return JSON.stringify({ expr: '$A == "x"', vars: { A: i % 2 ? 'x' : 'y' } });
    case 2:
      return `not json ${i}`;
    case 3:
      return JSON.stringify({ expr: `$[[ inputs.n ]]`, inputs: { n: String(i) } });
    default:
      return JSON.stringify({ expr: '$A =~ /^review\\//', vars: { A: `review/${i}` } });
  }
}

function expected(i: number, lineNumber: number): unknown {
  switch (i % 5) {
    case 0:
      return { value: `v${i}-é🚀`, truthy: true };
    case 1:
      return { value: i % 2 === 1, truthy: i % 2 === 1 };
    case 2:
      return { error: `line ${lineNumber}: not valid JSON`, range: null, kind: 'input' };
    case 3:
      return { value: String(i), truthy: true };
    default:
      return { value: true, truthy: true };
  }
}

describe('agentcfg expr --batch streams (built CLI, through pipes)', () => {
  test('200,000 lines: one answer per request in order; the first answers arrive before stdin ends', { timeout: 120_000 }, async (t) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'expr', '--batch'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    t.after(() => child.kill());
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const answers: string[] = [];
    let partial = '';
    let answered = 0;
    const waiters: Array<{ count: number; resolve: () => void }> = [];
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      const text = partial + t;
      const lines = text.split('\n');
      partial = lines.pop()!;
      answers.push(...lines);
      answered = answers.length;
      for (const w of waiters.splice(0)) if (answered >= w.count) w.resolve();
      else waiters.push(w);
    });
    let exited = false;
    child.on('close', () => {
      exited = true;
      for (const w of waiters.splice(0)) w.resolve();
    });
    const answersReach = (count: number) => new Promise<void>((resolve) => (answered >= count || exited ? resolve() : waiters.push({ count, resolve })));

    const total = 200_000;
    // Lines written with `\n` and `\r\n` endings, with a blank line every 1,000 requests (it gets no
    // answer but counts as a line), in pieces cut anywhere — inside a line, inside a character.
    const inputLines: Array<{ i: number; lineNumber: number }> = [];
    const parts: string[] = [];
    let lineNumber = 0;
    for (let i = 0; i < total; i++) {
      if (i % 1000 === 999) {
        parts.push(i % 2000 === 999 ? '\r\n' : '   \n');
        lineNumber++;
      }
      parts.push(request(i) + (i % 7 === 0 ? '\r\n' : '\n'));
      inputLines.push({ i, lineNumber: ++lineNumber });
    }
    const input = Buffer.from(parts.join(''), 'utf8');
    const write = async (bytes: Buffer): Promise<void> => {
      if (!child.stdin.write(bytes)) await once(child.stdin, 'drain');
    };

    // The first 1,000 requests (cut inside a multi-byte character), then wait for their answers with stdin still open.
    const firstEnd = input.indexOf(Buffer.from(request(1000)));
    const cut = input.indexOf(Buffer.from('🚀'), 100) + 2;
    await write(input.subarray(0, cut));
    await write(input.subarray(cut, firstEnd));
    await answersReach(1000);
    assert.ok(!exited, `the command is still running with stdin open (stderr: ${stderr})`);
    assert.equal(answered, 1000, 'every request sent so far is answered, and no more');

    for (let at = firstEnd; at < input.length; at += 65_537) await write(input.subarray(at, Math.min(input.length, at + 65_537)));
    child.stdin.end();
    const [code] = (await once(child, 'close')) as [number];
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(partial, '', 'the output ends with a newline');
    assert.equal(answers.length, total);
    for (let k = 0; k < total; k++) {
      const { i, lineNumber: n } = inputLines[k];
      assert.deepEqual(JSON.parse(answers[k]), expected(i, n), `answer ${k + 1}`);
    }
  });

  test('a last line without a newline is answered', async () => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'expr', '--batch'], { cwd: repoRoot });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stdin.end('{"expr": "true"}\n{"expr": "$A", "vars": {"A": "last"}}');
    const [code] = (await once(child, 'close')) as [number];
    assert.equal(code, 0);
    assert.deepEqual(out.trimEnd().split('\n').map((l) => JSON.parse(l)), [{ value: true, truthy: true }, { value: 'last', truthy: true }]);
  });
});

describe('agentcfg expr --batch back-pressure (in-process)', () => {
  test('the next piece of stdin is read only after the output has taken the answers so far', async () => {
    const events: string[] = [];
    // Pieces of 2,000 requests each: one piece's answers exceed a write (64 KiB), so each piece is answered in writes.
    const piece = (p: number) => Array.from({ length: 2000 }, (_, k) => JSON.stringify({ expr: '$A', vars: { A: `${p}-${k}-${'x'.repeat(20)}` } }) + '\n').join('');
    let out = '';
    const io: CliIo = {
      cwd: process.cwd(),
      out: () => assert.fail('a streaming io is written with write()'),
      err: (t) => assert.fail(`stderr: ${t}`),
      readStdin: () => assert.fail('a streaming io is read with stdinText()'),
      async *stdinText() {
        for (let p = 0; p < 3; p++) {
          events.push(`read ${p}`);
          yield piece(p);
        }
      },
      async write(text) {
        events.push('write');
        await new Promise((resolve) => setTimeout(resolve, 5));
        out += text;
        events.push('written');
      },
    };
    assert.equal(await exprCommand.run(['--batch'], io), 0);
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, 6000);
    assert.deepEqual(JSON.parse(lines[4321]), { value: `2-321-${'x'.repeat(20)}`, truthy: true });
    // Every write completes before anything else happens (no read while a write is pending), and the
    // first answers are written before the last piece is read.
    for (let k = 0; k < events.length; k++) if (events[k] === 'write') assert.equal(events[k + 1], 'written', events.join(' '));
    assert.ok(events.indexOf('write') < events.indexOf('read 2'), events.join(' '));
  });
});
