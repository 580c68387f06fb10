// `agentcfg validate --help` explains each option on a line of its own, and a text report ends with
// one line that counts the problems (on stderr: stdout keeps one line per problem).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { textSummary } from '../../server/src/cli/reports/text';
import { repoRoot } from '../support/lspClient';

const agentcfg = (...argv: string[]) => spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), ...argv], { cwd: repoRoot, encoding: 'utf8' });

test('validate --help: a short usage, what the command does, and a sentence per option', () => {
  const help = agentcfg('validate', '--help');
  assert.equal(help.status, 0);
  const lines = help.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'usage: agentcfg validate <paths...> [options]');
  const options = lines.slice(lines.indexOf('options:') + 1);
  for (const flag of ['--format', '--fail-on', '--settings', '--target', '--gitlab-version', '--disable-lint', '--default-branch', '--no-preset-scenarios', '--no-rule-match', '--overlong-namespace', '--agent-project']) {
    const line = options.find((l) => l.trimStart().startsWith(flag));
    assert.ok(line, `${flag} is explained`);
    assert.match(line, new RegExp(`^  ${flag}\\S*( \\S+)?\\s{2,}\\w`), `${flag}: the option, then a sentence`);
  }
  assert.ok(lines.every((l) => l.length <= 160), 'no line is a wall of text');
});

test('a text report ends with the count of its problems, by severity, on stderr', () => {
  const run = agentcfg('validate', 'examples');
  assert.equal(run.status, 1);
  const problems = run.stdout.trimEnd().split('\n');
  const by = (severity: string) => problems.filter((l) => l.includes(`: ${severity}: `)).length;
  assert.equal(run.stderr, `\n✖ ${problems.length} problems (${by('error')} errors, ${by('warning')} warnings, ${by('information')} note${by('information') === 1 ? '' : 's'}) in 2 files\n`);
  assert.ok(problems.every((l) => /^[^:]+:\d+:\d+: (error|warning|information|hint): /.test(l)), 'stdout is one problem per line');
});

test('the summary counts each severity, and says nothing when there is no problem', () => {
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const d = (severity: 'error' | 'warning' | 'information' | 'hint') => ({ range: at, severity, code: 'x.y', message: 'm' });
  assert.equal(textSummary([{ file: 'a', diagnostics: [d('error')] }, { file: 'b', diagnostics: [] }]), '✖ 1 problem (1 error) in 1 file');
  assert.equal(textSummary([{ file: 'a', diagnostics: [d('warning'), d('hint'), d('information')] }]), '✖ 3 problems (1 warning, 2 notes) in 1 file');
  assert.equal(textSummary([{ file: 'a', diagnostics: [] }]), null);
});
