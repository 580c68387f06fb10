// scenarioForEntry (server/src/engine/access/scenarios.ts): the scenario a job gives for one
// ci_access entry carries exactly the fields the job sets, in the job type's order, and the
// project the entry names (its own for a project, an example project in a group, or the job's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scenarioForEntry, type JobScenario } from '../../../server/src/engine/access/scenarios';
import type { AccessEntry } from '../../../server/src/engine/access/model';

const project = { kind: 'project', id: 'group/app' } as AccessEntry;
const group = { kind: 'group', id: 'group/sub' } as AccessEntry;

test('a job with every field: each is carried, in order; the project is the entry’s', () => {
  const job: JobScenario = {
    name: 'all',
    ref: 'main',
    isTag: false,
    isMergeRequest: true,
    protectedRef: false,
    protectMergeRequestPipelines: true,
    mergeRequestTargetProtected: true,
    fromFork: false,
    environmentName: 'review/x',
    environmentTier: 'development',
    pipelineSource: 'merge_request_event',
    userLogin: 'alice',
    variables: { A: '1' },
  };
  const scenario = scenarioForEntry(job, project, 'trunk');
  assert.deepEqual(Object.entries(scenario), [
    ['name', 'all'],
    ['projectPath', 'group/app'],
    ['ref', 'main'],
    ['defaultBranch', 'trunk'],
    ['isTag', false],
    ['isMergeRequest', true],
    ['protectedRef', false],
    ['protectMergeRequestPipelines', true],
    ['mergeRequestTargetProtected', true],
    ['fromFork', false],
    ['environmentName', 'review/x'],
    ['environmentTier', 'development'],
    ['pipelineSource', 'merge_request_event'],
    ['userLogin', 'alice'],
    ['variables', { A: '1' }],
  ]);
});

test('a job with only its name and ref: no other field, not even undefined ones', () => {
  const job: JobScenario = { name: 'bare', ref: 'feature', isTag: undefined, variables: undefined };
  assert.deepEqual(Object.keys(scenarioForEntry(job, group, 'main')), ['name', 'projectPath', 'ref', 'defaultBranch']);
  assert.equal(scenarioForEntry(job, group, 'main').projectPath, 'group/sub/example-project');
  assert.equal(scenarioForEntry(job, null, 'main').projectPath, 'example-group/example-project');
  assert.equal(scenarioForEntry({ ...job, projectPath: 'other/project' }, project, 'main').projectPath, 'other/project');
});
