// agentcfg validate --fail-on (server/src/cli/failOn.ts) on three configs with frequent mistakes,
// each written as reported: each problem at the editor's line and column (test/lsp/parity.test.ts
// compares the same three texts with what the language server publishes). `if: $A ==` and a bare
// CI_DEFAULT_BRANCH are errors: exit 1. A default_namespace Kubernetes refuses, without rules, is a
// warning, as in the editor (GitLab takes the file; the job's kubectl commands fail): exit 0, and
// exit 1 for a pipeline that asks for `--fail-on warning`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { EngineDiagnostic } from '../../server/src/engine/diagnostics';
import { failsRun } from '../../server/src/cli/failOn';
import { agentcfg } from '../support/cli';
import { rangeOf } from '../support/ranges';

const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-fail-on-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function configFile(agent: string, text: string): string {
  const file = path.join(dir, '.gitlab', 'agents', agent, 'config.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const entry = (body: string) => `ci_access:\n  projects:\n    - id: acme/web\n${body}`;
const ISSUE_CONFIGS = [
  { agent: 'missing-operand', text: entry('      rules:\n        - if: $A ==\n'), needle: '==', code: 'expr.syntax', severity: 'error' },
  { agent: 'bare-variable', text: entry('      rules:\n        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH\n'), needle: 'CI_DEFAULT_BRANCH', code: 'expr.missingDollar', severity: 'error' },
  { agent: 'invalid-namespace', text: entry('      default_namespace: My_Namespace\n'), needle: 'My_Namespace', code: 'namespace.invalid', severity: 'warning' },
] as const;

describe('agentcfg validate --fail-on', () => {
  for (const config of ISSUE_CONFIGS) {
    test(`${config.agent}: ${config.code} (${config.severity}) at the editor's position; exit ${config.severity === 'error' ? 1 : 0}, and 1 with --fail-on warning`, () => {
      const file = configFile(config.agent, config.text);
      const run = agentcfg('validate', '--format', 'json', file);
      const found = (JSON.parse(run.stdout) as { code: string; severity: string; range: unknown }[]).find((d) => d.code === config.code);
      assert.ok(found, run.stdout);
      assert.equal(found.severity, config.severity);
      assert.deepEqual(found.range, rangeOf(config.text, config.needle));
      assert.equal(run.code, config.severity === 'error' ? 1 : 0, run.stderr);
      assert.equal(agentcfg('validate', '--fail-on', 'warning', file).code, 1);
      assert.equal(agentcfg('validate', '--fail-on', 'error', file).code, config.severity === 'error' ? 1 : 0);
    });
  }

  test('the exit status is the same in every format', () => {
    const file = configFile('invalid-namespace', ISSUE_CONFIGS[2].text);
    for (const format of ['text', 'json', 'sarif', 'codequality']) {
      assert.equal(agentcfg('validate', '--format', format, '--fail-on', 'warning', file).code, 1, format);
      assert.equal(agentcfg('validate', '--format', format, file).code, 0, format);
    }
  });

  test('information never fails a run, nor a warning silenced in the file', () => {
    // The proposal's `rules` key is a note under the default target; the group entry's shared identity is silenced.
    const file = configFile(
      'quiet',
      'ci_access:\n  groups:\n    # agentcfg-disable-next-line security.agentIdentityShared security.noEnvironmentFilter\n    - id: acme/platform\n      rules:\n        - if: $CI_COMMIT_BRANCH == "main"\n',
    );
    const run = agentcfg('validate', '--format', 'json', '--fail-on', 'warning', file);
    assert.deepEqual((JSON.parse(run.stdout) as { severity: string }[]).map((d) => d.severity), ['information']);
    assert.equal(run.code, 0);
  });

  test('any other level is a usage error (exit 2)', () => {
    const run = agentcfg('validate', '--fail-on', 'information', configFile('missing-operand', ISSUE_CONFIGS[0].text));
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--fail-on must be error or warning, got "information"/);
  });
});

describe('failsRun', () => {
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const diagnostic = (severity: EngineDiagnostic['severity'], suppressed?: EngineDiagnostic['suppressed']): EngineDiagnostic => ({ range: at, severity, code: 'c', message: 'm', ...(suppressed ? { suppressed } : {}) });
  test('errors fail at either level; warnings only at warning; hints, information and silenced problems never', () => {
    const cases: [EngineDiagnostic[], boolean, boolean][] = [
      [[], false, false],
      [[diagnostic('error')], true, true],
      [[diagnostic('warning')], false, true],
      [[diagnostic('information'), diagnostic('hint')], false, false],
      [[diagnostic('error', 'inSource'), diagnostic('warning', 'external')], false, false],
    ];
    for (const [diagnostics, atError, atWarning] of cases) {
      assert.equal(failsRun([{ diagnostics }], 'error'), atError, JSON.stringify(diagnostics));
      assert.equal(failsRun([{ diagnostics }], 'warning'), atWarning, JSON.stringify(diagnostics));
    }
  });
});
