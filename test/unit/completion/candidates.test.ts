/** What completion offers, engine level: targets, deprecations, snippets, expressions, templates, ids. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexIds, idsOfConfig } from '../../../server/src/engine/completion';
import { expressionCandidates } from '../../../server/src/engine/completion/expressionCompletion';
import { keyCandidates } from '../../../server/src/engine/completion/schemaCompletion';
import { accept, completeConfig, completeTemplate, sortedLabels } from './caret';

// docs/gitlab-behaviour.md#agent-configuration-file
describe('keys and targets (docs/user-guide/gitlab-versions-and-lints.md, "Compatibility target")', () => {
  test('target gitlab does not offer the rules proposal; target proposal does', () => {
    const source = 'ci_access:\n  projects:\n    - id: a\n      ‸';
    assert.ok(!sortedLabels(completeConfig(source, { target: 'gitlab' }).candidates).includes('rules'));
    assert.ok(sortedLabels(completeConfig(source, { target: 'proposal' }).candidates).includes('rules'));
  });

  // docs/gitlab-behaviour.md#remote_development-settings
  test('removed keys are hidden (partial_sync_interval, removed in 17.0)', () => {
    const labels = sortedLabels(completeConfig('remote_development:\n  ‸').candidates);
    assert.ok(labels.includes('workspaces_quota'));
    assert.ok(!labels.includes('partial_sync_interval') && !labels.includes('full_sync_interval'));
  });

  test('a deprecated key that still works is offered last, tagged deprecated', () => {
    const schema = { type: 'object', properties: { old: { type: 'string', deprecationMessage: 'use new' }, new: { type: 'string' } } };
    const candidates = keyCandidates(schema, { path: [], existingKeys: new Set(), replace: [0, 0], column: 0, newItem: false }, 'proposal');
    assert.deepEqual(sortedLabels(candidates), ['new', 'old']);
    assert.equal(candidates.find((c) => c.label === 'old')?.deprecated, true);
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('durations are quoted protobuf strings; enums a choice; booleans the non-default value first', () => {
    const scanning = completeConfig('container_scanning:\n  ‸');
    const insert = (label: string) => scanning.candidates.find((c) => c.label === label)!.insertText;
    assert.equal(insert('scanner_timeout'), 'scanner_timeout: "${1:300s}"');
    assert.equal(insert('severity_threshold'), 'severity_threshold: ${1|UNKNOWN,LOW,MEDIUM,HIGH,CRITICAL|}');
    assert.equal(insert('delete_report_artifact'), 'delete_report_artifact: ${1|false,true|}');
    assert.equal(insert('cadence'), 'cadence: "${1:0 18 * * *}"');
  });

  test('multi-line skeletons show the lines they insert, where they will stand', () => {
    const { candidates } = completeConfig('ci_access:\n  projects:\n    - ‸');
    const docs = candidates.find((c) => c.label === 'project authorization')!.documentation!;
    assert.ok(docs.endsWith('```yaml\n    - id: group/project\n      default_namespace: namespace\n      access_as:\n        agent: {}\n```'), docs);
    const single = completeConfig('ci_access:\n  projects:\n    - id: a\n      ‸').candidates.find((c) => c.label === 'default_namespace')!;
    assert.ok(!single.documentation!.includes('```'), 'one-line keys need no preview');
  });

  // docs/gitlab-behaviour.md#variable-expansion, docs/gitlab-behaviour.md#ref-and-environment-slugs
  test('an empty namespace value offers the variables, slugs first', () => {
    const { candidates } = completeConfig('ci_access:\n  projects:\n    - id: a\n      rules:\n        - namespace: ‸\n');
    assert.equal(sortedLabels(candidates)[0], '$CI_ENVIRONMENT_SLUG');
  });

  // docs/gitlab-behaviour.md#ci_access-rules-design
  test('default_namespace offers variables only where they are expanded: an entry with rules, target proposal', () => {
    const withRules = 'ci_access:\n  projects:\n    - id: a\n      default_namespace: app-$‸\n      rules:\n        - if: $A\n';
    assert.equal(sortedLabels(completeConfig(withRules).candidates)[0], '$CI_ENVIRONMENT_SLUG');
    // GitLab uses it literally otherwise, and `$` cannot be part of a namespace name.
    assert.deepEqual(completeConfig('ci_access:\n  projects:\n    - id: a\n      default_namespace: app-$‸\n').candidates, []);
    assert.deepEqual(completeConfig('ci_access:\n  instance:\n    default_namespace: ‸\n').candidates, []);
    assert.deepEqual(completeConfig(withRules, { target: 'gitlab' }).candidates, []);
  });

  test('a key whose skeleton leaves the cursor on an empty nested line asks the editor to suggest again', () => {
    const { candidates } = completeConfig('remote_development:\n  ‸');
    const again = (label: string) => candidates.find((c) => c.label === label)?.suggestAgain === true;
    assert.equal(candidates.find((c) => c.label === 'gitlab_workspaces_proxy')?.insertText, 'gitlab_workspaces_proxy:\n    $1');
    assert.ok(again('gitlab_workspaces_proxy'));
    assert.ok(!again('enabled') && !again('image_pull_secrets'), 'a value or a complete item is already there');
  });

  test('a key typed at the dash column is inserted at the item’s column, indentation replaced', () => {
    const { candidates, text } = completeConfig('ci_access:\n  projects:\n    - id: a\n    env‸\n');
    const environments = candidates.find((c) => c.label === 'environments')!;
    assert.equal(environments.filterText, 'environments');
    assert.equal(accept(text, environments), 'ci_access:\n  projects:\n    - id: a\n      environments:\n        - production\n');
  });

  test('editing an existing key replaces only its name', () => {
    const { candidates, text } = completeConfig('observability:\n  loggi‸ng:\n    level: info\n');
    assert.equal(accept(text, candidates.find((c) => c.label === 'google_profiler')!), 'observability:\n  google_profiler:\n    level: info\n');
  });

  test('a list of scalars with an enum: the values after "- " (container_scanning resource types)', () => {
    const { candidates } = completeConfig('container_scanning:\n  vulnerability_report:\n    resource_types:\n      - Pod\n      - ‸');
    assert.deepEqual(sortedLabels(candidates).slice(0, 3), ['Pod', 'ReplicaSet', 'ReplicationController']);
  });
});

// docs/gitlab-behaviour.md#environment-filter
describe('environments filter', () => {
  test('the scenarios’ environments and their folder wildcards, minus those listed', () => {
    const environments = [
      { name: 'production', scenarios: ['default branch → production', 'tag release'] },
      { name: 'review/feature-login', scenarios: ['feature branch → review app'] },
    ];
    const { candidates } = completeConfig('ci_access:\n  projects:\n    - id: a\n      environments:\n        - production\n        - ‸', { environments });
    assert.deepEqual(sortedLabels(candidates), ['review/feature-login', 'review/*']);
    assert.equal(candidates.find((c) => c.label === 'review/*')?.detail, 'matches review/feature-login (GitLab matches * unanchored)');
  });

  // docs/gitlab-behaviour.md#ci_access-rules-design
  test('the rules key inserts a first rule with if and namespace', () => {
    const { candidates, text } = completeConfig('ci_access:\n  groups:\n    - id: a\n      ‸');
    assert.equal(accept(text, candidates.find((c) => c.label === 'rules')!), 'ci_access:\n  groups:\n    - id: a\n      rules:\n        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n          namespace: app-$CI_ENVIRONMENT_SLUG');
  });
});

// docs/gitlab-behaviour.md#ci-expressions-and-variables
describe('rules:if expression', () => {
  const labels = (expression: string) => sortedLabels(expressionCandidates(expression, expression.length, 0, []));

  test('operators only after a complete operand', () => {
    assert.deepEqual(labels('$A '), ['==', '!=', '=~', '!~', '&&', '||']);
    assert.deepEqual(labels('($A == "x") '), ['==', '!=', '=~', '!~', '&&', '||']);
    assert.deepEqual(labels('null '), ['==', '!=', '=~', '!~', '&&', '||']);
    assert.ok(labels('$A == ').includes('$CI_COMMIT_BRANCH'));
    assert.ok(labels('$A && ').includes('(…)'));
  });

  test('no operator glued to an operand without a space; one typed partially is completed with a space', () => {
    assert.ok(labels('$A').every((l) => l.startsWith('$')), 'at $A the name is still being written: variables');
    assert.deepEqual(labels('"x"'), []);
    const glued = expressionCandidates('"x"&', 4, 0, []);
    assert.equal(glued.find((c) => c.label === '&&')?.insertText, ' && ');
  });

  test('nothing inside a string or a regular expression literal', () => {
    assert.deepEqual(labels('$A == "a $'), []);
    assert.deepEqual(labels('$A =~ /^$'), []);
    assert.deepEqual(labels("$A == 'b "), []);
  });

  test('$CI_DEFAULT_BRANCH offered first after a branch comparison', () => {
    assert.equal(labels('$CI_COMMIT_BRANCH == ')[0], '$CI_DEFAULT_BRANCH');
  });

  // docs/gitlab-behaviour.md#expression-lexer
  test('an expression past 99 tokens offers nothing (GitLab rejects it)', () => {
    const long = Array.from({ length: 50 }, () => '$A').join(' && ') + ' && ';
    assert.deepEqual(labels(long), []);
  });
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('environment templates', () => {
  test('inside {{- trim markers and parentheses', () => {
    assert.equal(sortedLabels(completeTemplate('a: "{{- .‸ }}"').candidates)[0], '.agent.id');
    assert.equal(sortedLabels(completeTemplate('a: "{{ lower (.environment.‸) }}"').candidates)[0], 'id');
    assert.equal(sortedLabels(completeTemplate('a: "{{ printf "%s" .‸ }}"').candidates).length, 18);
  });

  test('nothing after a closed action or inside a string argument', () => {
    assert.deepEqual(completeTemplate('a: "{{ .agent.id }} .‸"').candidates, []);
    assert.deepEqual(completeTemplate('a: "{{ replace "_‸" "-" .project.slug }}"').candidates, []);
  });

  // docs/gitlab-behaviour.md#template-object-kinds
  test('object skeleton: apiVersion, kind (supported kinds), metadata.name quoted', () => {
    const { candidates, text } = completeTemplate('objects:\n  - ‸');
    const skeleton = candidates.find((c) => c.label === 'apiVersion')!;
    assert.equal(accept(text, skeleton), 'objects:\n  - apiVersion: v1');
    const objects = completeTemplate('‸').candidates.find((c) => c.label === 'objects')!;
    assert.equal(accept('', objects), 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug }}-{{ .project.id }}"');
  });
});

// docs/gitlab-behaviour.md#ci_access-entries
describe('workspace ids', () => {
  test('ids of a config; case-insensitive duplicates are left out', () => {
    assert.deepEqual(idsOfConfig({ ci_access: { projects: [{ id: 'a/b' }, { id: 3 }, null], groups: [{ id: 'g' }] }, user_access: { projects: [{ id: ' a/c ' }] } }), {
      projects: ['a/b', 'a/c'],
      groups: ['g'],
    });
    const known = indexIds(new Map([['agent x', { projects: ['Acme/App', 'acme/web'], groups: [] }]]));
    const { candidates } = completeConfig('ci_access:\n  projects:\n    - id: acme/app\n    - id: ‸', { knownIds: known });
    assert.deepEqual(sortedLabels(candidates), ['acme/web']);
  });
});
