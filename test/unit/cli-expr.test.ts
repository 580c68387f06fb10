// CLI `agentcfg expr` and `agentcfg slug` (output stable for scripts), called directly with a fake CliIo.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../server/src/cli/args';
import { exprCommand } from '../../server/src/cli/commands/expr';
import { slugCommand } from '../../server/src/cli/commands/slug';
import type { CliCommand, CliIo } from '../../server/src/cli/io';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function run(command: CliCommand, argv: string[], stdin: string | Error = ''): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIo = {
    cwd: process.cwd(),
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readStdin: async () => {
      if (stdin instanceof Error) throw stdin;
      return stdin;
    },
  };
  const code = await command.run(argv, io);
  return { code, out, err };
}

describe('agentcfg expr (plain)', () => {
  const rows: Array<[string, string[], string]> = [
    // docs/gitlab-behaviour.md#expression-evaluation
    ['a boolean result', ['$A == "x"', '--var', 'A=x'], 'true\n'],
    ['a string result is printed raw', ['$A || $B', '--var', 'A=', '--var', 'B=x'], '\n'],
    ['&& returns the right operand', ['$A && $B', '--var=A=a', '--var=B=b'], 'b\n'],
    ['nil prints as null', ['$U'], 'null\n'],
    ['a regexp value prints as a literal', ['/a+/i'], '/a+/i\n'],
    ['values may contain `=`', ['$A == "k=v"', '--var', 'A=k=v'], 'true\n'],
    // docs/gitlab-behaviour.md#expression-lexer
    ['inputs via --input', ['$[[ inputs.env ]]', '--input', 'env=prod'], 'prod\n'],
  ];
  for (const [name, argv, out] of rows) {
    test(`${name}: ${argv.join(' ')}`, async () => {
      const r = await run(exprCommand, argv);
      assert.equal(r.code, 0);
      assert.equal(r.out, out);
    });
  }
  // docs/gitlab-behaviour.md#expression-lexer
  test('a syntax error: exit 2, message and carets under the range on stderr', async () => {
    const r = await run(exprCommand, ['$A == CI_DEFAULT_BRANCH']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /Unknown lexeme found!/);
    assert.match(r.err, /\n {8}\^{17}\n$/);
  });
  test('without --gitlab-version the newest release, as every face: `!` is read; --unary-not forces it on older ones', async () => {
    assert.equal((await run(exprCommand, ['!$A'])).out, 'true\n');
    assert.equal((await run(exprCommand, ['!$A', '--gitlab-version', '18.10', '--unary-not'])).out, 'true\n');
  });

  // docs/gitlab-behaviour.md#rulesif-by-version
  test('--gitlab-version picks the dialect: ! from 18.11', async () => {
    assert.equal((await run(exprCommand, ['!$A', '--gitlab-version', '18.10'])).code, 2);
    assert.equal((await run(exprCommand, ['!$A', '--gitlab-version', '18.11'])).out, 'true\n');
    await assert.rejects(run(exprCommand, ['!$A', '--gitlab-version', '15.0']), /--gitlab-version must be a GitLab release from 16\.0/);
  });
  test('usage errors throw UsageError (main prints usage, exit 2)', async () => {
    await assert.rejects(run(exprCommand, []), UsageError);
    await assert.rejects(run(exprCommand, ['$A', '$B']), UsageError);
    await assert.rejects(run(exprCommand, ['$A', '--var', 'NOEQUALS']), UsageError);
    await assert.rejects(run(exprCommand, ['$A', '--nope']), UsageError);
  });
});

describe('agentcfg expr --json', () => {
  test('one line {"value", "truthy"}', async () => {
    const r = await run(exprCommand, ['$A || $B', '--var', 'A=', '--var', 'B=x', '--json']);
    assert.equal(r.code, 0);
    assert.equal(r.out, '{"value":"","truthy":false}\n');
  });
  test('null and boolean values', async () => {
    assert.deepEqual(JSON.parse((await run(exprCommand, ['$U', '--json'])).out), { value: null, truthy: false });
    assert.deepEqual(JSON.parse((await run(exprCommand, ['$U == null', '--json'])).out), { value: true, truthy: true });
  });
  // docs/gitlab-behaviour.md#expression-lexer
  test('syntax error → {"error", "range"} and exit 2', async () => {
    const r = await run(exprCommand, ['${VAR} == "x"', '--json']);
    assert.equal(r.code, 2);
    const json = JSON.parse(r.out);
    assert.equal(json.error, 'Unknown lexeme found!');
    assert.deepEqual(json.range, { start: 0, end: 6 });
    assert.equal(json.kind, 'syntax');
  });
  // docs/gitlab-behaviour.md#expression-regular-expressions
  test('an invalid regexp literal carries the RE2 detail', async () => {
    const json = JSON.parse((await run(exprCommand, ['$A =~ /(a)\\1/', '--json'])).out);
    assert.equal(json.error, 'Invalid regular expression!');
    assert.match(json.detail, /invalid escape/);
  });
  // docs/gitlab-behaviour.md#expression-evaluation
  test('runtime error → error line, exit 2', async () => {
    const r = await run(exprCommand, ['$A =~ true', '--json']);
    assert.equal(r.code, 2);
    assert.equal(JSON.parse(r.out).kind, 'runtime');
  });
});

describe('agentcfg expr --batch', () => {
  test('one result line per NDJSON request, same shapes; blank lines skipped', async () => {
    const stdin = [
      '{"expr": "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH", "vars": {"CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main"}}',
      '',
      '{"expr": "$A || $B", "vars": {"A": "", "B": "x"}}',
      '{"expr": "$A == CI_DEFAULT_BRANCH"}',
      '{"expr": "$N == \\"3\\"", "vars": {"N": 3, "X": null}}',
      '{"expr": "$[[ inputs.flag ]] == \\"true\\"", "inputs": {"flag": true}}',
    ].join('\n');
    const r = await run(exprCommand, ['--batch'], stdin);
    assert.equal(r.code, 0);
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines, [
      { value: true, truthy: true },
      { value: '', truthy: false },
      { error: 'Unknown lexeme found!', range: { start: 6, end: 23 }, kind: 'syntax' },
      { value: true, truthy: true },
      { value: true, truthy: true },
    ]);
  });
  test('a malformed line gets an error line naming it; the batch goes on with exit 0', async () => {
    const r = await run(exprCommand, ['--batch'], 'not json\n{"vars": {}}\n{"expr": "true"}\n{"expr": "$A", "vars": {"A": ["x"]}}\n');
    assert.equal(r.code, 0);
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 4);
    assert.match(lines[0].error, /^line 1: not valid JSON/);
    assert.match(lines[1].error, /^line 2: /);
    assert.deepEqual(lines[2], { value: true, truthy: true });
    assert.match(lines[3].error, /^line 4: variable A/);
  });
  test('unreadable stdin → exit 1', async () => {
    const r = await run(exprCommand, ['--batch'], new Error('EIO'));
    assert.equal(r.code, 1);
    assert.match(r.err, /cannot read stdin/);
  });
  test('--batch with an expression argument is a usage error', async () => {
    await assert.rejects(run(exprCommand, ['--batch', '$A']), UsageError);
  });
});

describe('agentcfg slug', () => {
  const rows: Array<[string[], string]> = [
    [['environment', 'review/feature-x'], 'review-feature-x-bjrazc\n'],
    [['environment', 'production'], 'production\n'],
    [['ref', 'feature/ABC_123'], 'feature-abc-123\n'],
    [['project', 'My-Group/Project'], 'my-group-project\n'],
  ];
  for (const [argv, out] of rows) {
    // docs/gitlab-behaviour.md#ref-and-environment-slugs
    test(`slug ${argv.join(' ')} → ${out.trim()}`, async () => {
      const r = await run(slugCommand, argv);
      assert.equal(r.code, 0);
      assert.equal(r.out, out);
    });
  }
  test('usage errors', async () => {
    await assert.rejects(run(slugCommand, []), UsageError);
    await assert.rejects(run(slugCommand, ['branch', 'x']), UsageError);
    await assert.rejects(run(slugCommand, ['ref']), UsageError);
    await assert.rejects(run(slugCommand, ['ref', 'a', 'b']), UsageError);
    await assert.rejects(run(slugCommand, ['constructor', 'a']), UsageError);
  });
});
