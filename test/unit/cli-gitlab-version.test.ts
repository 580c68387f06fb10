// docs/gitlab-behaviour.md#gitlab-versions: the acceptance lines of the version setting, through
// the built CLI (dist/cli.js) as a pipeline runs it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentcfg } from '../support/cli';

function agentConfig(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-version-'));
  const file = path.join(dir, '.gitlab', 'agents', 'prod', 'config.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const WELL_FORMED = 'gitops:\n  manifest_projects:\n    - id: acme/manifests\n      default_namespace: apps\n      paths:\n        - glob: "/manifests/**/*.yaml"\n      prune: true\n      reconcile_timeout: "3600s"\n';
const BROKEN = 'gitops:\n  manifest_projects:\n    - id: acme/manifests\n      default_namespace: apps\n      dry_run: true\n';

describe('agentcfg validate --gitlab-version', () => {
  test('17.11, a well-formed gitops block: a deprecation warning, exit 0', () => {
    const { code, stdout } = agentcfg('validate', '--gitlab-version', '17.11', agentConfig(WELL_FORMED));
    assert.equal(code, 0, stdout);
    assert.match(stdout, /:1:1: warning: `gitops` is deprecated: GitLab 17\.11 still parses it.* \[schema\.deprecatedKey\]$/m);
    assert.doesNotMatch(stdout, / error: /);
  });

  test('17.11, an unknown key inside gitops: an error at its line, exit 1', () => {
    const { code, stdout } = agentcfg('validate', '--gitlab-version', '17.11', agentConfig(BROKEN));
    assert.equal(code, 1);
    assert.match(stdout, /:5:7: error: Unknown key "dry_run" in gitops\.manifest_projects\[0\]\..* \[schema\.unknownKey\]$/m);
  });

  test('18.0: gitops is an error "removed in 18.0", exit 1', () => {
    const { code, stdout } = agentcfg('validate', '--gitlab-version', '18.0', agentConfig(WELL_FORMED));
    assert.equal(code, 1);
    assert.match(stdout, /:1:1: error: `gitops` was removed in 18\.0.* \[schema\.removedKey\]$/m);
  });

  test('the setting file takes the same key as the editor (gitlabAgentConfig.gitlabVersion)', () => {
    const file = agentConfig('ci_access:\n  instance: {}\n');
    const settings = path.join(path.dirname(file), 'settings.json');
    writeFileSync(settings, '{ "gitlabAgentConfig.gitlabVersion": "17.10" }');
    const { code, stdout } = agentcfg('validate', '--settings', settings, file);
    assert.equal(code, 1);
    assert.match(stdout, /error: "instance" is not in GitLab 17\.10: it was added in 17\.11/);
    assert.equal(agentcfg('validate', '--settings', settings, '--gitlab-version', '17.11', file).code, 0);
  });

  test('a settings file naming a release there is not (a typo, or a number) is a usage error, not the newest release', () => {
    const file = agentConfig(WELL_FORMED);
    const settings = path.join(path.dirname(file), 'settings.json');
    for (const value of ['"17.12"', '17.11']) {
      writeFileSync(settings, `{ "gitlabAgentConfig.gitlabVersion": ${value} }`);
      const { code, stderr } = agentcfg('validate', '--settings', settings, file);
      assert.equal(code, 2, `${value}: ${stderr}`);
      assert.match(stderr, /gitlabAgentConfig\.gitlabVersion must be a GitLab release from 16\.0 to \d+\.\d+ \(major\.minor in quotes, such as "17\.11"\), got "?17\.1[12]"?$/m);
    }
    // The flag overrides the file, so the file's value does not matter then.
    assert.equal(agentcfg('validate', '--settings', settings, '--gitlab-version', '17.11', file).code, 0);
  });

  test('a release outside 16.0 … newest is a usage error (exit 2)', () => {
    const { code, stderr } = agentcfg('validate', '--gitlab-version', '15.11', agentConfig(WELL_FORMED));
    assert.equal(code, 2);
    assert.match(stderr, /--gitlab-version must be a GitLab release from 16\.0 to \d+\.\d+/);
  });
});
