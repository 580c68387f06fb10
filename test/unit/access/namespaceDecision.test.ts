import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideAsGitLab, type AuthorizationOptions } from '../../../server/src/engine/access/authorize';
import { GITLAB_VERSIONS, NEWEST_GITLAB_VERSION } from '../../../server/src/engine/gitlab/gitlabVersions';
import { readCiAccess, singleEntryModel } from '../../../server/src/engine/access/model';
import { presetScenarios, scenarioForEntry, type JobScenario } from '../../../server/src/engine/access/scenarios';
import { namespaceDecision, simulateAccess, type SimulationOptions } from '../../../server/src/engine/access/simulate';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
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

describe('decideAsGitLab without explanation (what namespaceDecision asks)', () => {
  test('the same decision, candidate and problems as with it; no steps and an empty reason', () => {
    // 120 entries: the oldest release reads 100 of each list, so entries are left out by their place too.
    const groupsWithFilters = 'ci_access:\n  groups:\n    - id: acme\n      environments: [production]\n    - id: acme/group-1\n      protected_branches_only: true\n';
    const models = [generateVariedAgentConfig(120, 1), generateVariedAgentConfig(120, 2), groupsWithFilters].map((config) => readCiAccess(parseYaml(config).value));
    const agents = [agent, { configProjectPath: 'other/agents', name: 'b' }, { configProjectPath: '', name: 'c' }];
    const optionSets: AuthorizationOptions[] = [GITLAB_VERSIONS[0], NEWEST_GITLAB_VERSION].flatMap((gitlabVersion) => [false, true].flatMap((instanceLevel) => [false, true].map((anyEntry) => ({ gitlabVersion, instanceLevel, anyEntry }))));
    const kinds = new Set<string>();
    for (const model of models) {
      const projects = [...model.projects.map((e) => e.id!), ...model.groups.map((e) => `${e.id}/app`), 'acme/agents', 'unknown/app', 'ACME/Service-3'];
      for (const projectPath of projects) {
        for (const job of [{ projectPath, protectedRef: true, environment: 'production' }, { projectPath, protectedRef: false, environment: 'review/x' }, { projectPath, protectedRef: true }]) {
          for (const who of agents) {
            for (const options of optionSets) {
              const told = decideAsGitLab(model, who, job, options);
              const lean = decideAsGitLab(model, who, job, options, false);
              assert.deepEqual(lean, { ...told, steps: [], ...(told.authorized ? {} : { reason: '' }) }, `${projectPath} / ${JSON.stringify(options)}`);
              kinds.add(told.authorized ? `authorized ${told.candidate.via}` : told.candidate ? `denied ${told.candidate.via}` : told.reason.startsWith('no ci_access entry') ? 'no entry' : 'left out');
            }
          }
        }
      }
    }
    // Every way a decision ends was compared.
    assert.deepEqual([...kinds].sort(), ['authorized group', 'authorized implicit', 'authorized project', 'denied group', 'denied project', 'left out', 'no entry']);
  });
});
