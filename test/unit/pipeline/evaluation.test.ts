// evaluatePipeline applies one situation to every job at once; it must agree with the single calls
// (jobDecision, expandEnvironmentName, expandAgentPath) on every fixture, job and scenario.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePipeline, expandAgentPath, expandEnvironmentName, jobDecision, readPipeline, workflowDecision } from '../../../server/src/engine/pipeline/index';
import { loadFixture, SCENARIOS, variablesOf, type ScenarioName } from './pipelineFixtures';

describe('evaluatePipeline agrees with the single calls', () => {
  for (const folder of ['review-apps', 'extends-chain', 'includes', 'legacy-only-except', 'references', 'workflow-mr']) {
    test(folder, () => {
      const pipeline = loadFixture(folder);
      for (const scenario of Object.keys(SCENARIOS) as ScenarioName[]) {
        const variables = variablesOf(scenario);
        const evaluation = evaluatePipeline(pipeline, variables);
        assert.deepEqual(evaluation.workflow, workflowDecision(pipeline, variables));
        for (const job of pipeline.jobs) {
          assert.deepEqual(evaluation.job(job), jobDecision(pipeline, job, variables), `${job.name} in ${scenario}`);
          assert.deepEqual(evaluation.environmentName(job), expandEnvironmentName(job, variables, pipeline));
          assert.deepEqual(evaluation.agentPath(job), expandAgentPath(job, variables, pipeline));
        }
      }
    });
  }
});

describe('variables in scope (https://docs.gitlab.com/ci/yaml/#inheritvariables, https://docs.gitlab.com/ci/yaml/#workflowrulesvariables)', () => {
  const text = [
    'variables:',
    '  KEEP: global',
    '  DROP: global',
    'workflow:',
    '  rules:',
    '    - variables:',
    '        FROM_WORKFLOW: wf',
    'job:',
    '  script: x',
    '  inherit:',
    '    variables: [KEEP]',
    '  variables:',
    '    OWN: own',
    '  environment:',
    '    name: $KEEP-$DROP-$FROM_WORKFLOW-$OWN',
    '  rules:',
    '    - variables:',
    '        OWN: from-rule',
    'other:',
    '  script: x',
    '  environment:',
    '    name: $KEEP-$DROP-$FROM_WORKFLOW',
    '',
  ].join('\n');
  const pipeline = readPipeline(text, () => null);

  test('inherit:variables keeps only the listed globals, workflow-rule variables included; rules:variables override the job variables', () => {
    const evaluation = evaluatePipeline(pipeline, variablesOf('feature'));
    assert.deepEqual(evaluation.environmentName(pipeline.jobs[0]), { name: 'global---from-rule', unresolved: ['DROP', 'FROM_WORKFLOW'] });
    assert.deepEqual(evaluation.environmentName(pipeline.jobs[1]), { name: 'global-global-wf', unresolved: [] });
  });
});
