import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCiAccess, type AccessEntry, type CiAccessModel } from '../../../server/src/engine/access/model';
import { presetScenarios, scenarioForEntry, type JobScenario } from '../../../server/src/engine/access/scenarios';
import { namespaceDecision, simulateAccess, type SimulationOptions } from '../../../server/src/engine/access/simulate';
import { parseYaml } from '../../../server/src/engine/config/yamlDocument';
import { allVariableValues, scenarioVariables } from '../../../server/src/engine/vars/scenario';
import { generateVariedAgentConfig } from '../../support/generateConfig';

const agent = { configProjectPath: 'acme/agents', name: 'a' };

/** The preset jobs, and jobs that reach the environment and protected-ref filters another way. */
const JOBS: JobScenario[] = [
  ...presetScenarios('main'),
  { name: 'staging deploy', ref: 'main', protectedRef: true, environmentName: 'staging', environmentTier: 'staging' },
  { name: 'unprotected review', ref: 'fix/x', protectedRef: false, environmentName: 'review/fix-x', environmentTier: 'development' },
];

const OPTION_SETS: SimulationOptions[] = (['proposal', 'gitlab'] as const).flatMap((target) =>
  (['deny', 'allow'] as const).flatMap((noRuleMatch) => (['error', 'truncate'] as const).flatMap((overlongNamespace) => [true, false].map((anyEntry) => ({ target, noRuleMatch, overlongNamespace, anyEntry })))),
);

function singleEntryModel(entry: AccessEntry): CiAccessModel {
  const byId = new Map(entry.id ? [[entry.id.toLowerCase(), entry]] : []);
  return { projects: entry.kind === 'project' ? [entry] : [], groups: entry.kind === 'group' ? [entry] : [], instance: null, projectsById: entry.kind === 'project' ? byId : new Map(), groupsById: entry.kind === 'group' ? byId : new Map() };
}

describe('namespaceDecision is simulateAccess without the words', () => {
  test('via, deciding rule and invalid-namespace problem equal simulateAccess for every entry of varied configs, 6 jobs and 16 option sets, alone and in the whole model', () => {
    let compared = 0;
    let invalid = 0;
    for (const seed of [1, 2, 3]) {
      const whole = readCiAccess(parseYaml(generateVariedAgentConfig(60, seed)).value);
      for (const entry of [...whole.projects, ...whole.groups]) {
        for (const model of [singleEntryModel(entry), whole]) {
          for (const job of JOBS) {
            const scenario = scenarioForEntry(job, entry, 'main');
            const variables = allVariableValues(scenarioVariables(scenario));
            for (const options of OPTION_SETS) {
              const full = simulateAccess(model, agent, scenario, options, variables);
              const lean = namespaceDecision(model, agent, scenario, options, variables);
              const expected = { via: full.via, rule: full.rule, invalid: full.problems.find((p) => p.code === 'namespace.invalid') ?? null };
              assert.deepEqual(lean, expected, `${entry.id} / ${job.name} / ${JSON.stringify(options)}`);
              compared++;
              if (lean.invalid) invalid++;
            }
          }
        }
      }
    }
    // The comparison means something only if many outcomes had a deciding rule and an invalid namespace.
    assert.ok(invalid > 500, `only ${invalid} of ${compared} outcomes had an invalid namespace`);
  });
});
