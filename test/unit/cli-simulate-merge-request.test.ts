// agentcfg simulate: one merge-request scenario from flags gives what the same scenario gives in a
// --scenarios file (docs/gitlab-behaviour.md#protected-merge-request-pipelines: with the project
// setting protect_merge_request_pipelines, a merge request pipeline between protected branches runs
// as protected, never from a fork; https://gitlab.com/gitlab-org/gitlab/-/merge_requests/188008).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentcfg } from '../support/cli';

const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-mr-'));
const config = path.join(dir, 'config.yaml');
writeFileSync(config, 'ci_access:\n  projects:\n    - id: acme/app\n      protected_branches_only: true\n      default_namespace: app\n');

const BASE = { projectPath: 'acme/app', ref: 'release/2', defaultBranch: 'main', isMergeRequest: true };

/** [name, flags after --merge-request, the same scenario's fields in a file, authorized] */
const CASES: readonly [string, readonly string[], Record<string, boolean>, boolean][] = [
  ['setting on, both branches protected', ['--protected', '--merge-request-target-protected', '--protect-merge-request-pipelines'], { protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true }, true],
  ['setting on, from a fork', ['--protected', '--merge-request-target-protected', '--protect-merge-request-pipelines', '--from-fork'], { protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true, fromFork: true }, false],
  ['setting on, unprotected target', ['--protected', '--protect-merge-request-pipelines'], { protectedRef: true, protectMergeRequestPipelines: true }, false],
  ['setting on, unprotected source', ['--merge-request-target-protected', '--protect-merge-request-pipelines'], { protectedRef: false, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true }, false],
  ['without the setting: --protected as given', ['--protected', '--merge-request-target-protected'], { protectedRef: true, mergeRequestTargetProtected: true }, true],
];

function viaFlags(flags: readonly string[]) {
  const r = agentcfg('simulate', config, '--project', BASE.projectPath, '--ref', BASE.ref, '--merge-request', ...flags, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function viaFile(fields: Record<string, boolean>) {
  const file = path.join(dir, `scenarios-${Object.keys(fields).join('-')}-${Object.values(fields).join('-')}.json`);
  writeFileSync(file, JSON.stringify([{ ...BASE, ...fields }]));
  const r = agentcfg('simulate', config, '--scenarios', file, '--json');
  assert.equal(r.code, 0, r.stderr);
  const { scenario, ...outcome } = JSON.parse(r.stdout.trim());
  assert.equal(scenario.projectPath, BASE.projectPath);
  return outcome;
}

describe('agentcfg simulate: merge-request flags', () => {
  for (const [name, flags, fields, authorized] of CASES) {
    test(`${name}: ${authorized ? 'authorized' : 'denied'}, as in a scenarios file`, () => {
      const fromFlags = viaFlags(flags);
      assert.equal(fromFlags.authorized, authorized);
      assert.deepEqual(fromFlags, viaFile(fields));
      if (!authorized) assert.match(fromFlags.denial, /protected_branches_only is true and the ref is not protected/);
    });
  }

  test('the flags describe a merge request: without --merge-request a usage error (exit 2)', () => {
    const r = agentcfg('simulate', config, '--project', 'acme/app', '--from-fork', '--protect-merge-request-pipelines');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--protect-merge-request-pipelines, --from-fork describe a merge request pipeline: add --merge-request/);
  });

  test('they describe one job: with --scenarios a usage error naming them', () => {
    const file = path.join(dir, 'one.json');
    writeFileSync(file, JSON.stringify([BASE]));
    const r = agentcfg('simulate', config, '--scenarios', file, '--merge-request', '--merge-request-target-protected');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /leave out --merge-request, --merge-request-target-protected/);
  });

  test('--help documents them', () => {
    const r = agentcfg('simulate', '--help');
    assert.equal(r.code, 0);
    for (const flag of ['--protect-merge-request-pipelines', '--merge-request-target-protected', '--from-fork']) assert.ok(r.stdout.includes(flag), flag);
  });
});
