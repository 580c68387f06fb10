/** Editor checks of rules and namespaces, on the engine. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import { rangeOf } from '../../support/ranges';

const rules = { agent: { configProjectPath: 'acme/agents', name: 'a' }, scenarios: presetScenarios('main'), defaultBranch: 'main', options: {} };
const check = (text: string) => validateAgentConfig(text, { rules });

// docs/gitlab-behaviour.md#names
describe('namespace checks per scenario (DNS-1123 label)', () => {
  test('a constant invalid rule namespace is an error', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: Bad_NS\n';
    const d = check(text).find((x) => x.code === 'namespace.invalid');
    assert.ok(d);
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.range, rangeOf(text, 'Bad_NS'));
  });

  // docs/gitlab-behaviour.md#variable-expansion
  test('invalid in some scenarios: a warning naming them (no environment → empty slug → trailing dash)', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: review-$CI_ENVIRONMENT_SLUG\n';
    const d = check(text).find((x) => x.code === 'namespace.invalidForSome');
    assert.ok(d, JSON.stringify(check(text)));
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /invalid in 1 of 4 scenarios — merge request pipeline: namespace "review-"/);
  });

  test('invalid in every scenario where the rule applies: an error', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: $CI_PROJECT_PATH\n';
    const d = check(text).find((x) => x.code === 'namespace.invalidForAll');
    assert.ok(d, JSON.stringify(check(text)));
    assert.equal(d.severity, 'error');
  });

  test('valid in every scenario: nothing', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: app-$CI_COMMIT_REF_SLUG\n';
    assert.deepEqual(check(text), []);
  });

  // Scenario variables are derived once per check and moved to each entry's project: each entry must see its own.
  test('entries that differ only in their project are checked with their own project variables', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: $CI_PROJECT_NAME\n    - id: acme/My_App\n      rules:\n        - namespace: $CI_PROJECT_NAME\n    - id: acme/web\n      rules:\n        - namespace: $CI_PROJECT_NAME\n';
    const d = check(text).filter((x) => x.code.startsWith('namespace.'));
    assert.equal(d.length, 1, JSON.stringify(d));
    assert.equal(d[0]!.code, 'namespace.invalidForAll');
    assert.equal(d[0]!.range.start.line, 7);
    assert.match(d[0]!.message, /namespace "My_App" is not a valid Kubernetes namespace/);
  });

  // A scenario's variables are remembered per scenario object and default branch: the same objects with another default branch must see it.
  test('the same scenarios with another default branch are checked with that branch', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - namespace: app-$CI_DEFAULT_BRANCH\n';
    const withBranch = (defaultBranch: string) => validateAgentConfig(text, { rules: { ...rules, defaultBranch } }).filter((x) => x.code.startsWith('namespace.'));
    assert.deepEqual(withBranch('main'), []);
    assert.deepEqual(withBranch('Dev_Branch').map((x) => x.code), ['namespace.invalidForAll']);
    assert.deepEqual(withBranch('main'), []);
  });

  test('default_namespace without rules is used literally: an invalid one warns (kubectl in the job would fail)', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      default_namespace: My_Apps\n';
    const d = check(text).find((x) => x.code === 'namespace.invalid');
    assert.equal(d?.severity, 'warning');
  });
});

// docs/gitlab-behaviour.md#expression-lexer
describe('expression checks', () => {
  test('a quoted if: maps columns inside the quotes', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: "$A == B_VALUE"\n';
    const d = check(text).find((x) => x.code === 'expr.missingDollar');
    assert.deepEqual(d?.range, rangeOf(text, 'B_VALUE'));
  });
  test('a literal such as null or true is not mistaken for a variable', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: $A == null && $B != true\n';
    assert.deepEqual(check(text), []);
  });
  test('a custom variable (not CI_*) is not reported', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: $DEPLOY_TARGET == "eu"\n';
    assert.deepEqual(check(text), []);
  });
  test('the compatibility target gitlab skips rule checks (the key itself is the error)', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: $A == B\n';
    assert.deepEqual(validateAgentConfig(text, { rules, target: 'gitlab' }).map((d) => d.code), ['target.unsupportedKey']);
  });
});

// The preset scenarios are the same objects per default branch (what the checks derive from them is remembered per object).
describe('presetScenarios', () => {
  test('the same frozen objects for the same default branch, in a new array each time; another branch has its own', () => {
    const main = presetScenarios('main');
    const again = presetScenarios('main');
    const develop = presetScenarios('develop');
    assert.notEqual(main, again);
    assert.deepEqual(main.map((s, i) => s === again[i]), [true, true, true, true]);
    assert.ok(main.every((s) => Object.isFrozen(s)));
    assert.equal(main[0]!.ref, 'main');
    assert.equal(develop[0]!.ref, 'develop');
    assert.equal(presetScenarios('main')[0]!.ref, 'main');
  });
});
