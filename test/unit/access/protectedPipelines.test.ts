// docs/gitlab-behaviour.md#protected-merge-request-pipelines: which jobs count as running for a
// protected ref when `protected_branches_only` filters them — protected tags, and merge request
// pipelines between protected branches with the project setting protect_merge_request_pipelines.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCiAccess } from '../../../server/src/engine/access/model';
import type { JobScenario } from '../../../server/src/engine/access/scenarios';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { DEFAULT_PROJECT_SETTINGS, readProjectSettings, scenarioContext, simulateEntries } from '../../../server/src/engine/api';
import { refIsProtected, scenarioVariables } from '../../../server/src/engine/vars/scenario';

const CONFIG = 'ci_access:\n  projects:\n    - id: acme/app\n      protected_branches_only: true\n';

function authorized(job: JobScenario): boolean {
  const settings = { ...DEFAULT_PROJECT_SETTINGS, usePresetScenarios: false, scenarios: [job] };
  const [entry] = simulateEntries(readCiAccess(parseYaml(CONFIG).value), scenarioContext(settings, 'agent')).entries;
  return entry.outcomes[0].outcome.authorized;
}

const mr = (fields: Partial<JobScenario>): JobScenario => ({ name: 'mr', ref: 'release/1', isMergeRequest: true, ...fields });

describe('protected refs as protected_branches_only reads them', () => {
  for (const [name, job, expected] of [
    ['a protected tag passes', { name: 'tag', ref: 'v1.0.0', isTag: true, protectedRef: true }, true],
    ['an unprotected tag does not', { name: 'tag', ref: 'v1.0.0-rc', isTag: true, protectedRef: false }, false],
    ['MR between protected branches, setting on: protected', mr({ protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true }), true],
    ['MR between protected branches, setting off: not protected', mr({ protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: false }), false],
    ['MR from an unprotected source branch, setting on', mr({ protectedRef: false, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true }), false],
    ['MR to an unprotected target branch, setting on', mr({ protectedRef: true, mergeRequestTargetProtected: false, protectMergeRequestPipelines: true }), false],
    ['MR from a fork, both protected, setting on: never', mr({ protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true, fromFork: true }), false],
    ['MR without the new fields: protectedRef as given (as before)', mr({ protectedRef: true }), true],
  ] as const) {
    test(name, () => assert.equal(authorized(job as JobScenario), expected));
  }

  test('CI_COMMIT_REF_PROTECTED follows the same answer', () => {
    const scenario = { ...mr({ protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true }), projectPath: 'acme/app', defaultBranch: 'main' };
    assert.equal(refIsProtected(scenario), true);
    assert.equal(scenarioVariables(scenario).get('CI_COMMIT_REF_PROTECTED')?.value, 'true');
    assert.equal(scenarioVariables({ ...scenario, fromFork: true }).get('CI_COMMIT_REF_PROTECTED')?.value, 'false');
  });

  test('the fields come through the settings (gitlabAgentConfig.scenarios)', () => {
    const settings = readProjectSettings({ scenarios: [mr({ protectedRef: true, mergeRequestTargetProtected: true, protectMergeRequestPipelines: true })] });
    assert.equal(settings.scenarios[0].protectMergeRequestPipelines, true);
  });
});
