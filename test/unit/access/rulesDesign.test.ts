/**
 * The examples of the design document "GitLab-managed clusters using the agent" (docs/gitlab-behaviour.md#ci_access-rules-design), simulated with the
 * outcomes the design implies. Note the design's own typo `== CI_DEFAULT_BRANCH` (no `$`): GitLab's
 * lexer rejects the bare name (docs/gitlab-behaviour.md#expression-lexer "Unknown lexeme"), so those rules can never match.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { simulateAccess, type SimulationOptions } from '../../../server/src/engine/access/simulate';
import type { Scenario } from '../../../server/src/engine/vars/scenario';

const NAMESPACE_MANAGEMENT = `ci_access:
  projects:
    - id: group/project1
      rules:
        - namespace: gitlab-deploy
    - id: group/project2
      rules:
        - namespace: $CI_ENVIRONMENT_SLUG
    - id: group/project3
      rules:
        - if: $CI_ENVIRONMENT_SLUG == "production"
          namespace: myapp-production
    - id: group/project4
      rules:
        - if: $CI_ENVIRONMENT_SLUG =~ /^review/
          namespace: review-apps
        - namespace: myapp-$CI_ENVIRONMENT_SLUG
`;

const OPTION_A = `ci_access:
  projects:
    - id: group/project5
      rules:
        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH
    - id: group/project6
      rules:
        - if: $CI_ENVIRONMENT_SLUG == "production" || $CI_ENVIRONMENT_SLUG == "staging"
    - id: group/project7
      rules:
        - if: $CI_ENVIRONMENT_SLUG && $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH
`;

const OPTION_B = `ci_access:
  projects:
    - id: group/project6
      rules:
        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH
        - when: never
    - id: group/project7
      rules:
        - if: $CI_ENVIRONMENT_SLUG == "production" || $CI_ENVIRONMENT_SLUG == "staging"
        - when: never
    - id: group/project7
      rules:
        - if: $CI_ENVIRONMENT_SLUG && $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH
        - when: never
`;

const agent = { configProjectPath: 'group/agent-config', name: 'my-agent' };

function simulate(config: string, scenario: Partial<Scenario> & { projectPath: string }, options: SimulationOptions = {}) {
  const model = readCiAccess(parseYaml(config).value);
  return simulateAccess(model, agent, { ref: 'main', defaultBranch: 'main', ...scenario }, options);
}

// docs/gitlab-behaviour.md#ci_access-rules-design
describe('namespace management examples', () => {
  test('project1: one namespace for every environment', () => {
    for (const environmentName of ['production', 'review/feature-x', undefined]) {
      const outcome = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project1', ...(environmentName ? { environmentName } : {}) });
      assert.equal(outcome.authorized, true);
      assert.equal(outcome.rule, 1);
      assert.equal(outcome.namespace, 'gitlab-deploy');
    }
  });

  // docs/gitlab-behaviour.md#ref-and-environment-slugs
  test('project2: the namespace is the environment slug', () => {
    assert.equal(simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project2', environmentName: 'production' }).namespace, 'production');
    assert.equal(simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project2', environmentName: 'review/feature-x' }).namespace, 'review-feature-x-bjrazc');
  });

  // docs/gitlab-behaviour.md#variable-expansion
  test('project2 without an environment: the slug expands to "", an invalid namespace, so the job would be aborted', () => {
    const outcome = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project2' });
    assert.equal(outcome.authorized, false);
    assert.equal(outcome.rule, 1);
    assert.ok(outcome.problems.some((p) => p.code === 'namespace.invalid' && p.severity === 'error'));
  });

  test('project3: production gets myapp-production; other environments get nothing under option A', () => {
    const production = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project3', environmentName: 'production' });
    assert.deepEqual([production.authorized, production.rule, production.namespace], [true, 1, 'myapp-production']);
    const staging = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project3', environmentName: 'staging' });
    assert.deepEqual([staging.authorized, staging.rule], [false, null]);
    assert.match(staging.explanation.at(-1)!, /none matches \(option A\)/);
  });

  test('project3 under option B: no rule matches, so allowed with no namespace', () => {
    const staging = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project3', environmentName: 'staging' }, { noRuleMatch: 'allow' });
    assert.deepEqual([staging.authorized, staging.rule, staging.namespace], [true, null, null]);
  });

  test('project4: review apps share a namespace, others get myapp-<slug>', () => {
    const review = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project4', environmentName: 'review/feature-x' });
    assert.deepEqual([review.authorized, review.rule, review.namespace], [true, 1, 'review-apps']);
    const production = simulate(NAMESPACE_MANAGEMENT, { projectPath: 'group/project4', environmentName: 'production' });
    assert.deepEqual([production.authorized, production.rule, production.namespace], [true, 2, 'myapp-production']);
  });
});

// docs/gitlab-behaviour.md#ci_access-rules-design
describe('restriction examples, option A (no match denies)', () => {
  // docs/gitlab-behaviour.md#expression-lexer
  test('project5: `== CI_DEFAULT_BRANCH` is a syntax error, so the rule never matches: denied even on main', () => {
    const outcome = simulate(OPTION_A, { projectPath: 'group/project5', ref: 'main' });
    assert.equal(outcome.authorized, false);
    assert.ok(outcome.problems.some((p) => p.code === 'rule.evaluation' && /Unknown lexeme/i.test(p.message)), JSON.stringify(outcome.problems));
  });

  test('project5 with the intended `$CI_DEFAULT_BRANCH`: allowed on the default branch only', () => {
    const fixed = OPTION_A.replace('== CI_DEFAULT_BRANCH', '== $CI_DEFAULT_BRANCH');
    assert.equal(simulate(fixed, { projectPath: 'group/project5', ref: 'main' }).authorized, true);
    assert.equal(simulate(fixed, { projectPath: 'group/project5', ref: 'feature' }).authorized, false);
  });

  test('project6: production and staging only', () => {
    assert.equal(simulate(OPTION_A, { projectPath: 'group/project6', environmentName: 'production' }).authorized, true);
    assert.equal(simulate(OPTION_A, { projectPath: 'group/project6', environmentName: 'staging' }).authorized, true);
    assert.equal(simulate(OPTION_A, { projectPath: 'group/project6', environmentName: 'review/x' }).authorized, false);
    assert.equal(simulate(OPTION_A, { projectPath: 'group/project6' }).authorized, false);
  });

  test('project7: the bare CI_DEFAULT_BRANCH makes it always denied', () => {
    assert.equal(simulate(OPTION_A, { projectPath: 'group/project7', environmentName: 'production', ref: 'main' }).authorized, false);
  });

  test('a project not listed gets nothing', () => {
    assert.equal(simulate(OPTION_A, { projectPath: 'group/other' }).via, null);
  });
});

// docs/gitlab-behaviour.md#ci_access-rules-design
describe('restriction examples, option B (`when: never`)', () => {
  test('project6: the broken if never matches, so `when: never` denies every job', () => {
    const outcome = simulate(OPTION_B, { projectPath: 'group/project6', ref: 'main' }, { noRuleMatch: 'allow' });
    assert.deepEqual([outcome.authorized, outcome.rule], [false, 2]);
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('project7 appears twice: the later entry wins, and its broken if leaves only `when: never`', () => {
    const production = simulate(OPTION_B, { projectPath: 'group/project7', environmentName: 'production', ref: 'main' }, { noRuleMatch: 'allow' });
    assert.deepEqual(production.entryPath, ['ci_access', 'projects', 2]);
    assert.deepEqual([production.authorized, production.rule], [false, 2]);
  });

  test('with the intended $CI_DEFAULT_BRANCH, option B allows the default branch and denies the rest', () => {
    const fixed = OPTION_B.replaceAll('== CI_DEFAULT_BRANCH', '== $CI_DEFAULT_BRANCH');
    assert.deepEqual(Object.values(pick(simulate(fixed, { projectPath: 'group/project6', ref: 'main' }, { noRuleMatch: 'allow' }))), [true, 1]);
    assert.deepEqual(Object.values(pick(simulate(fixed, { projectPath: 'group/project6', ref: 'feature' }, { noRuleMatch: 'allow' }))), [false, 2]);
  });
});

function pick(o: { authorized: boolean; rule: number | null }) {
  return { authorized: o.authorized, rule: o.rule };
}
