// docs/gitlab-behaviour.md#security-lints: each lint a warning with its own code and a one-line
// reason, silenced by a comment on the line above or by the project setting / CLI flag.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { SECURITY_LINTS } from '../../../server/src/engine/config/securityLints';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, readProjectSettings } from '../../../server/src/engine/api';
import { agentcfg } from '../../support/cli';

const lints = (text: string, options: { gitlabVersion?: string; disabled?: string[] } = {}) =>
  validateAgentConfig(text, { gitlabVersion: options.gitlabVersion ?? '19.5', securityLints: { disabled: options.disabled ?? [] } })
    .filter((d) => d.code.startsWith('security.') && !d.suppressed)
    .map((d) => `${d.range.start.line + 1} ${d.code}`);

const project = (body: string) => `ci_access:\n  projects:\n    - id: acme/app\n${body}`;
const group = (body: string) => `ci_access:\n  groups:\n    - id: acme\n${body}`;

describe('security lints, one table per code', () => {
  const rows: readonly (readonly [string, string, readonly string[]])[] = [
    // security.unprotectedProduction
    ['production reachable from any branch', project('      environments: [production]\n'), ['4 security.unprotectedProduction']],
    ['a pattern that matches production', project('      environments: ["prod*"]\n'), ['4 security.unprotectedProduction']],
    ['production with protected_branches_only', project('      protected_branches_only: true\n      environments: [production]\n'), []],
    ['review apps only', project('      environments: ["review/*"]\n'), []],
    // Names GitLab's tier guess (Environment#guess_tier) files under production, literal or in a pattern.
    ...['prd', 'eu-production', 'production-eu', 'Production', 'live-1', 'production/*', '*-prd'].map(
      (name) => [`"${name}": production by GitLab's tier guess`, project(`      environments: ["${name}"]\n`), ['4 security.unprotectedProduction']] as const,
    ),
    // Tiers GitLab guesses before production win: not production.
    ['"pre-production" is staging by GitLab\'s tier guess', project('      environments: [pre-production]\n'), []],
    ['"review/production-fix" is development by GitLab\'s tier guess', project('      environments: [review/production-fix]\n'), []],
    // security.agentIdentityShared (groups and instance, explicit or by default)
    ['a group acting as the agent (default)', group('      environments: [staging]\n'), ['3 security.agentIdentityShared']],
    ['a group with access_as: agent', group('      environments: [staging]\n      access_as:\n        agent: {}\n'), ['3 security.agentIdentityShared']],
    ['a group impersonating the CI job', group('      environments: [staging]\n      access_as:\n        ci_job: {}\n'), []],
    ['the instance acting as the agent', 'ci_access:\n  instance:\n    environments: [staging]\n', ['2 security.agentIdentityShared']],
    ['a project acting as the agent (its own project: not flagged)', project(''), []],
    // security.noEnvironmentFilter
    ['a group without environments', group('      access_as:\n        ci_job: {}\n'), ['3 security.noEnvironmentFilter']],
    ['the instance without environments', 'ci_access:\n  instance:\n    access_as:\n      ci_job: {}\n', ['2 security.noEnvironmentFilter']],
    // security.broadImpersonation
    [
      'impersonating system:masters',
      group('      environments: [staging]\n      access_as:\n        impersonate:\n          username: deployer\n          groups: [ops, "system:masters"]\n'),
      ['8 security.broadImpersonation'],
    ],
    ['impersonating system:authenticated', project('      access_as:\n        impersonate:\n          username: d\n          groups:\n            - system:authenticated\n'), ['8 security.broadImpersonation']],
    ['impersonating a team group', project('      access_as:\n        impersonate:\n          username: d\n          groups: [team-a]\n'), []],
    // security.wildcardEnvironment
    ['environments: ["*"]', project('      protected_branches_only: true\n      environments: ["*"]\n'), ['5 security.wildcardEnvironment']],
  ];
  for (const [name, text, expected] of rows) test(name, () => assert.deepEqual(lints(text), expected));

  test('every finding is a warning with its code, the reason ("Why: …") and how to silence it', () => {
    const [d] = validateAgentConfig(project('      environments: [production]\n')).filter((x) => x.code.startsWith('security.'));
    assert.equal(d.severity, 'warning');
    assert.ok(d.message.includes(`Why: ${SECURITY_LINTS['security.unprotectedProduction']}.`), d.message);
    assert.match(d.message, /# agentcfg-disable-next-line security\.unprotectedProduction/);
  });

  test('before 17.3 the advice does not name protected_branches_only as available', () => {
    const [d] = validateAgentConfig(project('      environments: [production]\n'), { target: 'gitlab', gitlabVersion: '17.2' }).filter((x) => x.code === 'security.unprotectedProduction');
    assert.match(d.message, /GitLab 17\.3 adds protected_branches_only/);
  });
});

describe('silencing a lint', () => {
  test('a comment naming the code on the line above silences that finding only', () => {
    const text = 'ci_access:\n  groups:\n    # agentcfg-disable-next-line security.agentIdentityShared\n    - id: acme\n';
    assert.deepEqual(lints(text), ['4 security.noEnvironmentFilter']);
  });

  test('several codes, comma- or space-separated; a trailing comment on the line above counts', () => {
    assert.deepEqual(lints('ci_access:\n  groups:\n    # agentcfg-disable-next-line security.agentIdentityShared, security.noEnvironmentFilter\n    - id: acme\n'), []);
    assert.deepEqual(lints('ci_access:\n  groups: # agentcfg-disable-next-line security.agentIdentityShared security.noEnvironmentFilter\n    - id: acme\n'), []);
  });

  test('a comment without a code silences every lint of the next line; one two lines up silences nothing', () => {
    assert.deepEqual(lints('ci_access:\n  groups:\n    # agentcfg-disable-next-line\n    - id: acme\n'), []);
    assert.deepEqual(lints('ci_access:\n  # agentcfg-disable-next-line\n  groups:\n    - id: acme\n'), ['4 security.agentIdentityShared', '4 security.noEnvironmentFilter']);
  });

  test('codes in the settings silence them everywhere (gitlabAgentConfig.disabledLints; unknown codes are dropped)', () => {
    const settings = readProjectSettings({ disabledLints: ['security.noEnvironmentFilter', 'not.a.lint'] });
    assert.deepEqual(settings.disabledLints, ['security.noEnvironmentFilter']);
    const found = checkAgentFile({ path: '.gitlab/agents/a/config.yaml', content: 'ci_access:\n  groups:\n    - id: acme\n' }, settings, NO_SIBLINGS).filter((d) => !d.suppressed).map((d) => d.code);
    assert.deepEqual(found, ['security.agentIdentityShared']);
    assert.deepEqual(DEFAULT_PROJECT_SETTINGS.disabledLints, []);
  });

  test('agentcfg validate --disable-lint a,b; an unknown code is a usage error', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-lints-'));
    const file = path.join(dir, '.gitlab', 'agents', 'prod', 'config.yaml');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'ci_access:\n  groups:\n    - id: acme\n');
    const all = agentcfg('validate', file);
    assert.equal(all.code, 0, 'warnings only');
    assert.match(all.stdout, /\[security\.agentIdentityShared\]/);
    assert.match(all.stdout, /\[security\.noEnvironmentFilter\]/);
    const some = agentcfg('validate', '--disable-lint', 'security.agentIdentityShared,security.noEnvironmentFilter', file);
    assert.equal(some.stdout, '');
    assert.equal(agentcfg('validate', '--disable-lint', 'security.nope', file).code, 2);
  });
});

// A silenced finding is not shown by the editor or the text, JSON and Code Quality reports; SARIF
// records it as suppressed (SARIF 2.1.0 §3.27.23, §3.35), by a comment (inSource) or a flag (external).
test('SARIF lists silenced findings as suppressed: inSource for a comment, external for --disable-lint', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-lint-'));
  const file = path.join(dir, '.gitlab', 'agents', 'a', 'config.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'ci_access:\n  groups:\n    # agentcfg-disable-next-line security.noEnvironmentFilter\n    - id: acme\n  projects:\n    - id: acme/app\n      environments: [production]\n');
  const run = (...flags: string[]) => JSON.parse(agentcfg('validate', '--format', 'sarif', ...flags, file).stdout) as { runs: { results: { ruleId: string; suppressions?: { kind: string }[] }[] }[] };
  const kinds = (log: ReturnType<typeof run>) => log.runs[0].results.filter((r) => r.ruleId.startsWith('security.')).map((r) => `${r.ruleId} ${r.suppressions?.[0]?.kind ?? 'shown'}`).sort();
  assert.deepEqual(kinds(run()), ['security.agentIdentityShared shown', 'security.noEnvironmentFilter inSource', 'security.unprotectedProduction shown']);
  assert.deepEqual(kinds(run('--disable-lint', 'security.unprotectedProduction')), ['security.agentIdentityShared shown', 'security.noEnvironmentFilter inSource', 'security.unprotectedProduction external']);
  const json = JSON.parse(agentcfg('validate', '--format', 'json', '--disable-lint', 'security.unprotectedProduction', file).stdout) as { code: string }[];
  assert.deepEqual(json.filter((d) => d.code.startsWith('security.')).map((d) => d.code), ['security.agentIdentityShared']);
});
