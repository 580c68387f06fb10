// GitLab Code Quality report (server/src/cli/reports/codeQuality.ts), field by field against
// GitLab's format, https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format:
// description, check_name, fingerprint, severity (info, minor, major, critical, blocker),
// location.path, location.lines.begin. The fingerprint must survive unrelated edits, since GitLab
// compares the fingerprints of two pipelines to tell new problems from old ones.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { renderReport, type FileReport } from '../../../server/src/cli/reports';
import type { CodeQualityIssue } from '../../../server/src/cli/reports/codeQuality';
import { repoRoot } from '../../support/lspClient';
import { diagnostic, validateJson } from './cliResults';

const BROKEN = 'examples/.gitlab/agents/broken-agent/config.yaml';
const GITLAB_SEVERITIES = ['info', 'minor', 'major', 'critical', 'blocker'];

const codeQuality = (reports: readonly FileReport[]) => JSON.parse(renderReport('codequality', reports, { toolVersion: '0.0.0' })) as CodeQualityIssue[];

const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-codequality-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const CONFIG = '.gitlab/agents/a/config.yaml';
mkdirSync(path.join(dir, '.gitlab/agents/a'), { recursive: true });
const brokenText = readFileSync(path.join(repoRoot, BROKEN), 'utf8');

/** The report on `text` written at .gitlab/agents/a/config.yaml in the temporary project. */
function reportOn(text: string): CodeQualityIssue[] {
  writeFileSync(path.join(dir, CONFIG), text);
  return codeQuality(validateJson(dir, CONFIG).reports);
}

describe('GitLab Code Quality report', () => {
  test('each field of an issue, on the broken example', () => {
    const { reports } = validateJson(repoRoot, BROKEN);
    const issues = codeQuality(reports);
    assert.equal(issues.length, reports[0].diagnostics.length);
    const unknownKey = reports[0].diagnostics.find((d) => d.code === 'schema.unknownKey');
    assert.ok(unknownKey);
    const issue = issues.find((i) => i.check_name === 'schema.unknownKey');
    assert.ok(issue);
    assert.deepEqual(Object.keys(issue).sort(), ['check_name', 'description', 'fingerprint', 'location', 'severity']);
    assert.equal(issue.description, unknownKey.message);
    assert.match(issue.description, /^Unknown key "defualt_namespace"/);
    assert.equal(issue.severity, 'critical');
    assert.match(issue.fingerprint, /^[0-9a-f]{32}$/);
    // `defualt_namespace` is on line 5 of the file (1-based, as GitLab counts).
    assert.deepEqual(issue.location, { path: BROKEN, lines: { begin: 5 } });
    assert.equal(brokenText.split('\n')[issue.location.lines.begin - 1].trim(), 'defualt_namespace: storefront');
    for (const i of issues) assert.ok(GITLAB_SEVERITIES.includes(i.severity), i.severity);
  });

  test('severity: error → critical, warning → minor, information and hint → info', () => {
    const issues = codeQuality([
      {
        file: 'x/.gitlab/agents/a/config.yaml',
        text: 'a\nb\nc\nd\n',
        diagnostics: [diagnostic(0, 0, 1, 'error', 'e', 'E'), diagnostic(1, 0, 1, 'warning', 'w', 'W'), diagnostic(2, 0, 1, 'information', 'i', 'I'), diagnostic(3, 0, 1, 'hint', 'h', 'H')],
      },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.check_name, i.severity]),
      [
        ['e', 'critical'],
        ['w', 'minor'],
        ['i', 'info'],
        ['h', 'info'],
      ],
    );
  });

  test('fingerprints are unique in a report and the same on a second run', () => {
    const first = reportOn(brokenText);
    const second = reportOn(brokenText);
    assert.ok(first.length >= 5);
    assert.equal(new Set(first.map((i) => i.fingerprint)).size, first.length);
    assert.deepEqual(second, first);
  });

  test('a line inserted above moves every issue down one line and changes no fingerprint', () => {
    const before = reportOn(brokenText);
    const after = reportOn(`# a comment added above everything\n${brokenText}`);
    assert.equal(after.length, before.length);
    assert.deepEqual(
      after.map((i) => i.location.lines.begin),
      before.map((i) => i.location.lines.begin + 1),
    );
    assert.deepEqual(
      after.map((i) => i.fingerprint),
      before.map((i) => i.fingerprint),
    );
  });

  test('editing the reported line, or moving the file, gives a new fingerprint', () => {
    const base: FileReport = { file: 'p/.gitlab/agents/a/config.yaml', text: 'k: 1\n', diagnostics: [diagnostic(0, 0, 1, 'error', 'c', 'M')] };
    const [original] = codeQuality([base]);
    const [edited] = codeQuality([{ ...base, text: 'k: 2\n' }]);
    const [moved] = codeQuality([{ ...base, file: 'q/.gitlab/agents/a/config.yaml' }]);
    assert.notEqual(edited.fingerprint, original.fingerprint);
    assert.notEqual(moved.fingerprint, original.fingerprint);
  });

  test('the same mistake on two identical lines gets two fingerprints', () => {
    const same = diagnostic(0, 0, 1, 'error', 'c', 'M');
    const issues = codeQuality([{ file: 'a.yaml', text: 'k: 1\nk: 1\n', diagnostics: [same, { ...same, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } } }] }]);
    assert.notEqual(issues[0].fingerprint, issues[1].fingerprint);
  });

  test('location.path is relative with forward slashes, without ./', () => {
    const issues = codeQuality([{ file: '.\\sub\\.gitlab\\agents\\a\\config.yaml', diagnostics: [diagnostic(0, 0, 1, 'error', 'c', 'M')] }]);
    assert.equal(issues[0].location.path, 'sub/.gitlab/agents/a/config.yaml');
  });

  test('no problems: an empty array, which GitLab reads as "no findings"', () => {
    assert.equal(renderReport('codequality', [], { toolVersion: '0.0.0' }), '[]\n');
  });
});
