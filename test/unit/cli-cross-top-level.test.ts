// agentcfg validate and simulate on entries outside the top-level group of the agent configuration
// project (docs/gitlab-behaviour.md#authorization-order, 3): ci_access may name them from GitLab 18.1
// with instance-level authorization (https://gitlab.com/gitlab-org/gitlab/-/merge_requests/190769 ,
// https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/), user_access from 18.4
// (https://gitlab.com/gitlab-org/gitlab/-/merge_requests/202853 , https://docs.gitlab.com/user/clusters/agent/user_access/).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentcfg } from '../support/cli';

const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-cross-'));
const agentDir = path.join(dir, '.gitlab', 'agents', 'prod');
mkdirSync(agentDir, { recursive: true });
const config = path.join(agentDir, 'config.yaml');
writeFileSync(config, 'ci_access:\n  groups:\n    - id: partners/team\n      environments: [review/*]\n      access_as:\n        ci_job: {}\n');

describe('agentcfg on an entry of another top-level group', () => {
  for (const [version, severity, code] of [
    ['18.0', 'warning', 'authorization.crossTopLevel'],
    ['18.1', 'information', 'authorization.crossTopLevelSetting'],
  ] as const) {
    test(`validate --gitlab-version ${version}: ${severity} ${code}, exit 0`, () => {
      const r = agentcfg('validate', config, '--gitlab-version', version, '--agent-project', 'acme/infra', '--format', 'json');
      assert.equal(r.code, 0, r.stderr);
      const found = (JSON.parse(r.stdout) as { code: string; severity: string; range: { start: { line: number } } }[]).filter((d) => d.code.startsWith('authorization.'));
      assert.deepEqual(found.map((d) => [d.code, d.severity, d.range.start.line]), [[code, severity, 2]]);
    });
  }

  test('without the configuration project\'s path: nothing', () => {
    const r = agentcfg('validate', config, '--gitlab-version', '18.0', '--format', 'json');
    assert.equal((JSON.parse(r.stdout) as { code: string }[]).filter((d) => d.code.startsWith('authorization.')).length, 0);
  });

  test('simulate --instance-level: denied in 18.0 with the reason, authorized in 18.1', () => {
    const run = (version: string) => JSON.parse(agentcfg('simulate', config, '--gitlab-version', version, '--agent-project', 'acme/infra', '--project', 'partners/team/web', '--environment', 'review/x', '--instance-level', '--json').stdout);
    const old = run('18.0');
    assert.equal(old.authorized, false);
    assert.match(old.denial, /group entry "partners\/team" is outside "acme".*GitLab 18\.0 ignores it \(from 18\.1, with instance-level authorization\)/);
    assert.equal(run('18.1').authorized, true);
  });
});
