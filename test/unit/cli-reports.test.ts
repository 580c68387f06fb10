// `agentcfg validate --format sarif|codequality` end to end (dist/cli.js, as a pipeline runs it):
// on examples/ and on a config with frequent mistakes (`if: $A ==`, CI_DEFAULT_BRANCH
// without `$`, `My_Namespace`), the reports carry exactly the problems `--format json` lists, the
// SARIF log is valid against the official schema, and the exit status does not depend on the format.
// Formats: SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html) and GitLab
// Code Quality (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { CodeQualityIssue } from '../../server/src/cli/reports/codeQuality';
import { repoRoot } from '../support/lspClient';
import { sarifSchemaErrors } from './reports/sarifSchema';

const { version: VERSION } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-cli-reports-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const CONFIG = '.gitlab/agents/a/config.yaml';
mkdirSync(path.join(dir, '.gitlab/agents/a'), { recursive: true });
const MEASURED = `ci_access:
  projects:
    - id: acme/app
      default_namespace: My_Namespace
      rules:
        - if: $A ==
        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH
`;
const VALID = 'ci_access:\n  projects:\n    - id: acme/app\n';

function validate(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'validate', ...args], { cwd, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
function write(text: string): void {
  writeFileSync(path.join(dir, CONFIG), text);
}

interface JsonProblem {
  file: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  code: string;
  message: string;
}
interface SarifLog {
  runs: { tool: { driver: { name: string; version: string } }; results: { ruleId: string; message: { text: string }; suppressions?: { kind: string }[]; locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[] }[] }[];
}

/**
 * SARIF and Code Quality reduced to what JSON says: file, 1-based line (and column), code, message.
 * SARIF also lists the findings the user silenced, marked suppressed: those are left out here.
 */
const fromJson = (problems: JsonProblem[]) => problems.map((p) => [p.file, p.range.start.line + 1, p.range.start.character + 1, p.code, p.message]);
const fromSarif = (log: SarifLog) =>
  log.runs[0].results.filter((r) => !r.suppressions).map((r) => {
    const { artifactLocation, region } = r.locations[0].physicalLocation;
    return [artifactLocation.uri, region.startLine, region.startColumn, r.ruleId, r.message.text];
  });
const fromCodeQuality = (issues: CodeQualityIssue[]) => issues.map((i) => [i.location.path, i.location.lines.begin, i.check_name, i.description]);

describe('agentcfg validate --format sarif and codequality', () => {
  for (const [where, cwd, paths] of [
    ['examples/', repoRoot, ['examples']],
    ['the measured mistakes', dir, [CONFIG]],
  ] as const) {
    test(`${where}: the same problems as --format json, a valid SARIF log, exit 1 in every format`, () => {
      write(MEASURED);
      const json = validate(cwd, ...paths, '--format', 'json');
      const sarif = validate(cwd, ...paths, '--format', 'sarif');
      const quality = validate(cwd, ...paths, '--format', 'codequality');
      assert.deepEqual([json.code, sarif.code, quality.code, validate(cwd, ...paths).code], [1, 1, 1, 1]);
      const problems = JSON.parse(json.stdout) as JsonProblem[];
      assert.ok(problems.length >= 3);
      const log = JSON.parse(sarif.stdout) as SarifLog;
      assert.deepEqual(sarifSchemaErrors(log), []);
      assert.equal(log.runs[0].tool.driver.name, 'agentcfg');
      assert.equal(log.runs[0].tool.driver.version, VERSION);
      assert.deepEqual(fromSarif(log), fromJson(problems));
      assert.deepEqual(
        fromCodeQuality(JSON.parse(quality.stdout) as CodeQualityIssue[]),
        fromJson(problems).map(([file, line, , code, message]) => [file, line, code, message]),
      );
    });
  }

  test('the measured mistakes are each reported at their line', () => {
    write(MEASURED);
    const issues = JSON.parse(validate(dir, CONFIG, '--format', 'codequality').stdout) as CodeQualityIssue[];
    assert.deepEqual(
      issues.map((i) => [i.check_name, i.location.lines.begin, i.severity]),
      [
        ['namespace.invalid', 4, 'critical'],
        // Under the default proposal target, the note that GitLab would reject `rules` (docs/gitlab-behaviour.md#ci_access-rules-design).
        ['target.proposalOnly', 5, 'info'],
        ['expr.syntax', 6, 'critical'],
        ['expr.missingDollar', 7, 'critical'],
      ],
    );
  });

  test('a valid config: exit 0, an empty Code Quality array and a SARIF run without results', () => {
    write(VALID);
    const quality = validate(dir, CONFIG, '--format', 'codequality');
    assert.deepEqual(quality, { code: 0, stdout: '[]\n', stderr: '' });
    const sarif = validate(dir, CONFIG, '--format', 'sarif');
    assert.equal(sarif.code, 0);
    const log = JSON.parse(sarif.stdout) as SarifLog;
    assert.deepEqual(sarifSchemaErrors(log), []);
    assert.deepEqual(log.runs[0].results, []);
  });

  test('fingerprints: the same on a second run and after a line inserted above; new when the flagged line changes', () => {
    const prints = (text: string) => {
      write(text);
      return (JSON.parse(validate(dir, CONFIG, '--format', 'codequality').stdout) as CodeQualityIssue[]).map((i) => i.fingerprint);
    };
    const first = prints(MEASURED);
    assert.deepEqual(prints(MEASURED), first);
    assert.deepEqual(prints(`# owned by the platform team\n${MEASURED}`), first);
    // A comment on the namespace line leaves its message as it was: only the line's text (which
    // validate must hand to the report) tells the two apart.
    const commented = prints(MEASURED.replace('My_Namespace', 'My_Namespace # was staging'));
    assert.notEqual(commented[0], first[0]);
    assert.deepEqual(commented.slice(1), first.slice(1));
  });

  test('an unknown format is a usage error naming every format', () => {
    const run = validate(repoRoot, 'examples', '--format', 'junit');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--format must be text, json, sarif or codequality, got "junit"/);
    assert.match(run.stderr, /usage: agentcfg validate <paths\.\.\.> \[--format text\|json\|sarif\|codequality\]/);
  });
});
