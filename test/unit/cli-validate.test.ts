import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentcfg } from '../support/cli';
import { repoRoot } from '../support/lspClient';
import { rangeOf } from '../support/ranges';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const BROKEN = 'examples/.gitlab/agents/broken-agent/config.yaml';
const VALID = 'examples/.gitlab/agents/production-agent/config.yaml';

describe('agentcfg validate', () => {
  test('JSON output: LSP-style 0-based ranges, exit 1 when the bad file is included', () => {
    const { code, stdout } = agentcfg('validate', VALID, BROKEN, '--format', 'json');
    assert.equal(code, 1);
    const results = JSON.parse(stdout) as { file: string; range: unknown; severity: string; code: string; message: string }[];
    const text = readFileSync(path.join(repoRoot, BROKEN), 'utf8');
    const unknown = results.find((r) => r.code === 'schema.unknownKey');
    assert.deepEqual(unknown, {
      file: BROKEN,
      range: rangeOf(text, 'defualt_namespace'),
      severity: 'error',
      code: 'schema.unknownKey',
      message: unknown?.message,
    });
    // The valid file has one note: its `rules` are the proposal's, which GitLab would reject (proposal target, the default).
    assert.deepEqual(results.filter((r) => r.file !== BROKEN).map((r) => [r.file, r.code, r.severity]), [[VALID, 'target.proposalOnly', 'information']]);
    // Six mistakes and one security lint (the acme/platform group acts as the agent, docs/gitlab-behaviour.md#security-lints).
    assert.equal(results.filter((r) => r.file === BROKEN).length, 7);
  });

  test('text output: file:line:col: severity: message [code], 1-based', () => {
    const { code, stdout } = agentcfg('validate', BROKEN);
    assert.equal(code, 1);
    assert.match(stdout, /^examples\/\.gitlab\/agents\/broken-agent\/config\.yaml:5:7: error: Unknown key "defualt_namespace" .* \[schema\.unknownKey\]$/m);
  });

  // The three mistakes the rules design is about: before the front door (engine/api), the CLI
  // skipped the rule and namespace checks and printed nothing for them, exit 0.
  for (const [name, body, needle, expected] of [
    ['an if: missing its right operand', '      rules:\n        - if: $A ==\n', '==', 'expr.syntax'],
    ['a bare variable name in if:', '      rules:\n        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH\n', 'CI_DEFAULT_BRANCH', 'expr.missingDollar'],
    // With rules GitLab creates the namespace before the job and an invalid one aborts it: an error.
    // (Without rules it is a warning: the job starts, its kubectl commands fail.)
    ['a default_namespace Kubernetes refuses', '      default_namespace: My_Namespace\n      rules:\n        - if: $CI_COMMIT_BRANCH == "main"\n', 'My_Namespace', 'namespace.invalid'],
  ] as const) {
    test(`${name}: reported at the editor's line and column, exit 1`, () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-'));
      const file = path.join(dir, '.gitlab', 'agents', 'prod', 'config.yaml');
      mkdirSync(path.dirname(file), { recursive: true });
      const text = `ci_access:\n  projects:\n    - id: acme/web\n${body}`;
      writeFileSync(file, text);
      const { code, stdout } = agentcfg('validate', '--format', 'json', file);
      assert.equal(code, 1);
      const found = (JSON.parse(stdout) as { code: string; range: { start: unknown } }[]).find((d) => d.code === expected);
      assert.ok(found, stdout);
      assert.deepEqual(found.range.start, rangeOf(text, needle).start);
    });
  }

  test('a valid file exits 0 with no output', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agentcfg-')), 'config.yaml');
    writeFileSync(file, 'ci_access:\n  projects:\n    - id: acme/web\n      access_as:\n        ci_job: {}\n');
    assert.deepEqual(agentcfg('validate', file), { code: 0, stdout: '', stderr: '' });
  });

  // docs/gitlab-behaviour.md#ci_access-rules-design: no GitLab release ships `rules`, and KAS refuses
  // a configuration with an unknown key (docs/gitlab-behaviour.md#config-file-location-and-parsing).
  test('rules under the proposal target (the default): exit 0 and a note on the rules key that GitLab would reject the file', () => {
    const { code, stdout } = agentcfg('validate', VALID, '--gitlab-version', '17.11');
    assert.equal(code, 0);
    const rulesKey = rangeOf(readFileSync(path.join(repoRoot, VALID), 'utf8'), 'rules:').start;
    assert.equal(
      stdout,
      `${VALID}:${rulesKey.line + 1}:${rulesKey.character + 1}: information: GitLab would reject this file: "rules" is the proposed rules design (gitlab-agent MR !714), which GitLab 17.11 does not have (no release ships it), ` +
        'and the agent refuses a configuration with an unknown key. It is checked here because the compatibility target is "proposal"; ' +
        'set gitlabAgentConfig.target (--target on the command line) to "gitlab" to check the file as GitLab reads it. [target.proposalOnly]\n',
    );
  });

  test('a directory is searched for agent configurations and templates', () => {
    const { code, stdout } = agentcfg('validate', 'examples', '--format', 'json');
    assert.equal(code, 1);
    const codes = (JSON.parse(stdout) as { code: string }[]).map((d) => d.code);
    assert.equal(codes.length, 8); // the broken example's 6 mistakes and 1 security lint, the note on production-agent's rules
    assert.equal(codes.filter((c) => c === 'target.proposalOnly').length, 1);
  });

  test('--target gitlab rejects the rules design', () => {
    const { code, stdout } = agentcfg('validate', VALID, '--target', 'gitlab');
    assert.equal(code, 1);
    assert.match(stdout, /\[target\.unsupportedKey\]/);
  });

  test('usage errors exit 2', () => {
    assert.equal(agentcfg('validate').code, 2);
    assert.equal(agentcfg('validate', VALID, '--format', 'xml').code, 2);
    assert.equal(agentcfg('validate', VALID, '--bogus').code, 2);
    assert.equal(agentcfg('nonsense').code, 2);
  });

  test('a missing file is an error on that file, not a crash', () => {
    const { code, stdout } = agentcfg('validate', 'does/not/exist.yaml');
    assert.equal(code, 1);
    assert.match(stdout, /does\/not\/exist\.yaml:1:1: error: cannot read the file: ENOENT \[file\.unreadable\]/);
  });
});
