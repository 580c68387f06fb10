/**
 * The access diff: what a change to agent configurations and templates does to CI/CD
 * jobs, per project × scenario. Every expectation follows from GitLab's authorization as
 * docs/gitlab-behaviour.md describes it; each test names the section it relies on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessDiff, type AccessChange, type AccessDiffVersion } from '../../../server/src/engine/diff';
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings } from '../../../server/src/engine/api';

const settings: ProjectSettings = { ...DEFAULT_PROJECT_SETTINGS, configProjectPath: 'acme/infra/agents' };
const PROD = 'default branch → production';
const REVIEW = 'feature branch → review app';
const TAG = 'tag release';
const MR = 'merge request pipeline';

const version = (configs: Record<string, string>, templates: Record<string, string> = {}): AccessDiffVersion => ({
  configs: Object.fromEntries(Object.entries(configs).map(([agent, text]) => [agent, { text }])),
  templates,
});
const diff = (before: string, after: string, extra: { projects?: string[] } = {}) => accessDiff({ before: version({ prod: before }), after: version({ prod: after }), settings, ...extra });
/** [project, scenario, kind] of each change, in the diff's order. */
const rows = (changes: readonly AccessChange[]) => changes.map((c) => [c.project, c.scenario, c.kind]);
/** 1-based line of a text holding `needle` (the test writes configs; the diff reports 0-based lines). */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

const BASE = `ci_access:
  projects:
    - id: acme/shop/web
      default_namespace: web
      environments: ["review/*"]
`;

describe('no change', () => {
  test('identical versions, and a change that only reformats or comments, give an empty diff', () => {
    assert.deepEqual(diff(BASE, BASE), []);
    assert.deepEqual(diff(BASE, `# the web app\n${BASE.replace('["review/*"]', "\n        - 'review/*'")}`), []);
  });
  test('an agent absent from both versions, or a template of an agent nobody manages, changes nothing', () => {
    const before = version({ prod: BASE }, { prod: 'objects: []\n' });
    const after = version({ prod: BASE }, { prod: 'objects: [{apiVersion: v1, kind: Namespace, metadata: {name: x}}]\n' });
    // No entry enables resource_management, so GitLab never renders the template (docs/gitlab-behaviour.md#opting-in-to-managed-resources).
    assert.deepEqual(accessDiff({ before, after, settings }), []);
  });
});

describe('gained and lost access', () => {
  test('production added to an entry\'s environments: the production situations gain access, critical and first', () => {
    // An entry's environments filter the job's environment name (docs/gitlab-behaviour.md#environment-filter).
    const after = BASE.replace('["review/*"]', '["review/*", production]');
    const changes = diff(BASE, after);
    assert.deepEqual(rows(changes), [
      ['acme/shop/web', PROD, 'gained'],
      ['acme/shop/web', TAG, 'gained'],
    ]);
    assert.deepEqual(changes.map((c) => [c.severity, c.production]), [['critical', true], ['critical', true]]);
    assert.deepEqual(changes[0].before, { authorized: false, namespace: null, identity: null, accessAs: null, via: 'project acme/shop/web', rule: null, objects: null, denial: 'environment "production" matches none of review/*' });
    assert.deepEqual([changes[0].after.authorized, changes[0].after.namespace, changes[0].after.identity], [true, 'web', "the agent's ServiceAccount (agentk)"]);
    assert.deepEqual(changes[0].lines, [{ file: 'config', version: 'after', line: lineOf(after, '- id: acme/shop/web') }]);
  });

  test('protected_branches_only removed: the unprotected situations gain access, but not as production', () => {
    // docs/gitlab-behaviour.md#protected-branches-filter
    const before = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      protected_branches_only: true\n';
    const changes = diff(before, 'ci_access:\n  projects:\n    - id: acme/shop/web\n');
    assert.deepEqual(rows(changes), [
      ['acme/shop/web', REVIEW, 'gained'],
      ['acme/shop/web', MR, 'gained'],
    ]);
    assert.deepEqual(changes.map((c) => c.severity), ['high', 'high']);
  });

  test('a removed entry loses access; the line is the old version\'s', () => {
    const before = `${BASE}    - id: acme/shop/api\n      default_namespace: api\n`;
    const changes = diff(before, BASE);
    assert.deepEqual(rows(changes), [
      ['acme/shop/api', PROD, 'lost'],
      ['acme/shop/api', TAG, 'lost'],
      ['acme/shop/api', REVIEW, 'lost'],
      ['acme/shop/api', MR, 'lost'],
    ]);
    // Losing production access breaks a deployment: ranked above losing a review app.
    assert.deepEqual(changes.map((c) => c.severity), ['high', 'high', 'medium', 'medium']);
    assert.equal(changes[2].after.denial, 'no ci_access entry covers acme/shop/api');
    assert.deepEqual(changes[0].lines, [{ file: 'config', version: 'before', line: lineOf(before, '- id: acme/shop/api') }]);
  });

  test('a renamed entry id: the old project loses, the new one gains', () => {
    // Entries are looked up by full path (docs/gitlab-behaviour.md#ci_access-entries).
    const after = BASE.replace('acme/shop/web', 'acme/shop/webapp');
    const changes = diff(BASE, after);
    assert.deepEqual(rows(changes), [
      ['acme/shop/webapp', REVIEW, 'gained'],
      ['acme/shop/web', REVIEW, 'lost'],
    ]);
    assert.deepEqual(changes.map((c) => c.lines[0]), [
      { file: 'config', version: 'after', line: 2 },
      { file: 'config', version: 'before', line: 2 },
    ]);
  });

  test('a change of case in the id changes nothing: GitLab compares paths in lower case', () => {
    // docs/gitlab-behaviour.md#ci_access-entries
    assert.deepEqual(diff(BASE, BASE.replace('acme/shop/web', 'ACME/Shop/Web')), []);
  });

  test('`when: never` added in front of the rules: the production situations lose access, at the rule\'s line', () => {
    // docs/gitlab-behaviour.md#ci_access-rules-design: rules are tried in order, the first match decides.
    const before = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      rules:\n        - namespace: web-$CI_ENVIRONMENT_SLUG\n';
    const after = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      rules:\n        - if: $CI_ENVIRONMENT_NAME == "production"\n          when: never\n        - namespace: web-$CI_ENVIRONMENT_SLUG\n';
    const changes = diff(before, after);
    assert.deepEqual(rows(changes), [
      ['acme/shop/web', PROD, 'lost'],
      ['acme/shop/web', TAG, 'lost'],
    ]);
    assert.equal(changes[0].after.denial, 'rule 1 has when: never');
    assert.deepEqual(changes[0].lines, [{ file: 'config', version: 'after', line: lineOf(after, '- if:') }]);
  });

  test('a project entry added under a group entry shadows it: filters apply to the winner only, so the project loses what the group gave', () => {
    // docs/gitlab-behaviour.md#authorization-order (1 and 2): the project entry comes first, entries are never merged.
    const before = 'ci_access:\n  groups:\n    - id: acme/shop\n      default_namespace: shop\n';
    const after = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      environments: [production]\n      default_namespace: web\n  groups:\n    - id: acme/shop\n      default_namespace: shop\n';
    const changes = diff(before, after);
    assert.deepEqual(rows(changes), [
      ['acme/shop/web', REVIEW, 'lost'],
      ['acme/shop/web', MR, 'lost'],
      ['acme/shop/web', PROD, 'namespace'],
      ['acme/shop/web', TAG, 'namespace'],
    ]);
    assert.deepEqual([changes[2].before.via, changes[2].after.via, changes[2].before.namespace, changes[2].after.namespace], ['group acme/shop', 'project acme/shop/web', 'shop', 'web']);
    // The group's example project is unaffected: not in the diff.
    assert.ok(changes.every((c) => c.project === 'acme/shop/web'));
  });

  test('a subgroup entry added shadows the top-level group entry for the projects below it, not for the others', () => {
    // docs/gitlab-behaviour.md#authorization-order (1): group entries from the closest ancestor outward, the first wins.
    const before = 'ci_access:\n  groups:\n    - id: acme\n      default_namespace: acme\n';
    const after = 'ci_access:\n  groups:\n    - id: acme\n      default_namespace: acme\n    - id: acme/shop\n      default_namespace: shop\n      environments: [production]\n';
    const changes = diff(before, after, { projects: ['acme/shop/web', 'acme/tools/ci'] });
    assert.deepEqual(rows(changes), [
      ['acme/shop/example-project', REVIEW, 'lost'],
      ['acme/shop/example-project', MR, 'lost'],
      ['acme/shop/web', REVIEW, 'lost'],
      ['acme/shop/web', MR, 'lost'],
      ['acme/shop/example-project', PROD, 'namespace'],
      ['acme/shop/example-project', TAG, 'namespace'],
      ['acme/shop/web', PROD, 'namespace'],
      ['acme/shop/web', TAG, 'namespace'],
    ]);
    assert.deepEqual([changes[4].before.via, changes[4].after.via], ['group acme', 'group acme/shop']);
  });

  test('projects given by the caller are compared too (a group entry reaches them)', () => {
    const before = 'ci_access:\n  groups:\n    - id: acme\n';
    const after = 'ci_access:\n  groups:\n    - id: acme\n      protected_branches_only: true\n';
    const changes = diff(before, after, { projects: ['acme/shop/checkout'] });
    assert.deepEqual([...new Set(changes.map((c) => c.project))], ['acme/example-project', 'acme/shop/checkout']);
    assert.ok(changes.every((c) => c.kind === 'lost' && (c.scenario === REVIEW || c.scenario === MR)));
  });
});

describe('namespace, identity and via', () => {
  test('a changed default_namespace moves every authorized situation', () => {
    const changes = diff(BASE, BASE.replace('default_namespace: web', 'default_namespace: web-v2'));
    assert.deepEqual(rows(changes), [['acme/shop/web', REVIEW, 'namespace']]);
    assert.deepEqual([changes[0].before.namespace, changes[0].after.namespace, changes[0].severity], ['web', 'web-v2', 'medium']);
  });

  test('access_as from agent to ci_job changes the identity (docs/gitlab-behaviour.md#access_as-identities)', () => {
    const before = 'ci_access:\n  projects:\n    - id: acme/shop/web\n';
    const after = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      access_as:\n        ci_job: {}\n';
    const changes = diff(before, after);
    assert.deepEqual(changes.map((c) => [c.scenario, c.kind, c.severity]), [
      [PROD, 'identity', 'high'],
      [TAG, 'identity', 'high'],
      [REVIEW, 'identity', 'medium'],
      [MR, 'identity', 'medium'],
    ]);
    assert.deepEqual([changes[0].before.identity, changes[0].after.identity], ["the agent's ServiceAccount (agentk)", 'gitlab:ci_job:<job id>']);
  });

  test('impersonated groups are part of the identity', () => {
    const entry = (groups: string) => `ci_access:\n  projects:\n    - id: acme/shop/web\n      environments: [production]\n      access_as:\n        impersonate:\n          username: deployer\n          groups: [${groups}]\n`;
    const changes = diff(entry('deployers'), entry('deployers, cluster-admins'));
    assert.deepEqual(rows(changes), [['acme/shop/web', PROD, 'identity'], ['acme/shop/web', TAG, 'identity']]);
    assert.equal(changes[0].after.identity, 'deployer (groups deployers, cluster-admins)');
  });

  test('a rule reorder that changes the winner moves the default branch to another namespace', () => {
    // docs/gitlab-behaviour.md#ci_access-rules-design: the first matching rule wins.
    const prodRule = '        - if: $CI_COMMIT_BRANCH == "main"\n          namespace: web-prod\n';
    const catchAll = '        - namespace: web-dev\n';
    const head = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      rules:\n';
    const before = head + prodRule + catchAll;
    const after = head + catchAll + prodRule;
    const changes = diff(before, after);
    assert.deepEqual(rows(changes), [['acme/shop/web', PROD, 'namespace']]);
    assert.deepEqual([changes[0].before.rule, changes[0].after.rule, changes[0].after.namespace], [1, 1, 'web-dev']);
    assert.deepEqual(changes[0].lines, [{ file: 'config', version: 'after', line: lineOf(after, '- namespace: web-dev') }]);
  });

  test('a reorder where another rule now decides with the same namespace is a `via` change, low', () => {
    const head = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      rules:\n';
    const byBranch = '        - if: $CI_COMMIT_BRANCH == "main"\n          namespace: web\n';
    const byEnvironment = '        - if: $CI_ENVIRONMENT_NAME == "production"\n          namespace: web\n';
    const changes = diff(head + byBranch + byEnvironment, head + byEnvironment + byBranch);
    // The tag release matches only the environment rule, now numbered 1 instead of 2: the same rule decides, no change.
    assert.deepEqual(changes.map((c) => [c.scenario, c.kind, c.severity, c.before.rule, c.after.rule, c.after.namespace]), [[PROD, 'via', 'low', 1, 1, 'web']]);
  });

  test('a rule inserted above renumbers the others without changing what they decide: no change for the situations they decide', () => {
    const head = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      rules:\n';
    const rest = '        - namespace: web\n';
    const changes = diff(head + rest, head + '        - if: $CI_COMMIT_TAG\n          namespace: web-release\n' + rest);
    assert.deepEqual(rows(changes), [['acme/shop/web', TAG, 'namespace']]);
  });
});

describe('rendered template objects', () => {
  const managed = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      environments: ["review/*"]\n      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n';
  const template = (namespace: string) => `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: "${namespace}"
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: RoleBinding
    metadata:
      name: bind
      namespace: "${namespace}"
    subjects:
      - kind: Group
        apiGroup: rbac.authorization.k8s.io
        name: "gitlab:project_env:{{ .project.id }}:{{ .environment.slug }}"
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: admin
`;

  test('a template change that renames the namespace is an `objects` change at the template\'s changed line', () => {
    // GitLab renders default.yaml for a managed job with an environment (docs/gitlab-behaviour.md#managed-resources-flow).
    const before = version({ prod: managed }, { prod: template('{{ .environment.slug }}-{{ .project.id }}') });
    const after = version({ prod: managed }, { prod: template('web-{{ .environment.slug }}') });
    const changes = accessDiff({ before, after, settings });
    assert.deepEqual(rows(changes), [['acme/shop/web', REVIEW, 'objects']]);
    // The environment slug is cut to 24 characters with a hash suffix (docs/gitlab-behaviour.md#ref-and-environment-slugs).
    assert.deepEqual(changes[0].before.objects, [
      'Namespace review-feature-lo-qiv329-12345678',
      'RoleBinding review-feature-lo-qiv329-12345678/bind → Group gitlab:project_env:12345678:review-feature-lo-qiv329 as ClusterRole admin',
    ]);
    assert.equal(changes[0].after.objects?.[0], 'Namespace web-review-feature-lo-qiv329');
    assert.deepEqual(changes[0].lines, [
      { file: 'config', version: 'after', line: 2 },
      { file: 'template', version: 'after', line: 4 },
    ]);
  });

  test('without default.yaml GitLab\'s built-in template applies: adding one is a change (docs/gitlab-behaviour.md#built-in-default-template)', () => {
    const changes = accessDiff({ before: version({ prod: managed }), after: version({ prod: managed }, { prod: template('fixed') }), settings });
    assert.deepEqual(rows(changes), [['acme/shop/web', REVIEW, 'objects']]);
    assert.equal(changes[0].before.objects?.[0], 'Namespace review-feature-lo-qiv329-12345678-1234567');
  });

  test('turning resource management on creates objects where there were none', () => {
    const before = managed.replace('enabled: true', 'enabled: false');
    const changes = diff(before, managed);
    assert.deepEqual(rows(changes), [['acme/shop/web', REVIEW, 'objects']]);
    assert.equal(changes[0].before.objects, null);
    assert.equal(changes[0].after.objects?.length, 2);
  });
});

describe('agents added and removed, order', () => {
  test('a new agent\'s entries gain access; a deleted agent\'s lose it (no config.yaml is an empty configuration, docs/gitlab-behaviour.md#config-file-location-and-parsing)', () => {
    const web = 'ci_access:\n  projects:\n    - id: acme/shop/web\n      environments: [production]\n';
    const api = 'ci_access:\n  projects:\n    - id: acme/shop/api\n      environments: [production]\n';
    const changes = accessDiff({ before: version({ web }), after: version({ api }), settings });
    assert.deepEqual(changes.map((c) => [c.agent, c.project, c.scenario, c.kind, c.severity]), [
      ['api', 'acme/shop/api', PROD, 'gained', 'critical'],
      ['api', 'acme/shop/api', TAG, 'gained', 'critical'],
      ['web', 'acme/shop/web', PROD, 'lost', 'high'],
      ['web', 'acme/shop/web', TAG, 'lost', 'high'],
    ]);
    assert.equal(changes[0].context, 'acme/infra/agents:api');
  });

  test('severity first, then kind, agent, project, scenario order; the same input gives the same order', () => {
    const before = { a: 'ci_access:\n  projects:\n    - id: acme/p1\n      default_namespace: one\n    - id: acme/p2\n', b: 'ci_access:\n  projects:\n    - id: acme/p3\n      protected_branches_only: true\n' };
    const after = { a: 'ci_access:\n  projects:\n    - id: acme/p1\n      default_namespace: two\n', b: 'ci_access:\n  projects:\n    - id: acme/p3\n' };
    const changes = accessDiff({ before: version(before), after: version(after), settings });
    assert.deepEqual(changes.map((c) => [c.severity, c.kind, c.agent, c.project, c.scenario]), [
      ['high', 'gained', 'b', 'acme/p3', REVIEW],
      ['high', 'gained', 'b', 'acme/p3', MR],
      ['high', 'lost', 'a', 'acme/p2', PROD],
      ['high', 'lost', 'a', 'acme/p2', TAG],
      ['medium', 'lost', 'a', 'acme/p2', REVIEW],
      ['medium', 'lost', 'a', 'acme/p2', MR],
      ['medium', 'namespace', 'a', 'acme/p1', PROD],
      ['medium', 'namespace', 'a', 'acme/p1', REVIEW],
      ['medium', 'namespace', 'a', 'acme/p1', TAG],
      ['medium', 'namespace', 'a', 'acme/p1', MR],
    ]);
    assert.deepEqual(accessDiff({ before: version(before), after: version(after), settings }), changes);
  });

  test('entries outside the agent\'s top-level group authorize nothing without instance-level authorization, so changing them changes nothing', () => {
    // docs/gitlab-behaviour.md#authorization-order (3)
    assert.deepEqual(diff('ci_access:\n  projects:\n    - id: other/app\n', 'ci_access:\n  projects:\n    - id: other/app\n      default_namespace: x\n'), []);
  });

  test('the settings decide the situations: no presets and one user scenario', () => {
    const own: ProjectSettings = { ...settings, usePresetScenarios: false, scenarios: [{ name: 'hotfix', ref: 'hotfix/1', environmentName: 'production', protectedRef: false }] };
    const changes = accessDiff({ before: version({ prod: BASE }), after: version({ prod: BASE.replace('["review/*"]', '["review/*", production]') }), settings: own });
    // Production by tier, although the ref is not protected.
    assert.deepEqual(changes.map((c) => [c.scenario, c.kind, c.severity]), [['hotfix', 'gained', 'critical']]);
  });
});

describe('pipeline jobs as scenarios', () => {
  const pipeline = `deploy:
  script: kubectl apply -f k8s/
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
review:
  script: kubectl get pods
  environment:
    name: review/$CI_COMMIT_REF_SLUG
  rules:
    - if: $CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH
`;
  const version = (text: string) => ({ text, file: '.gitlab-ci.yml', read: () => null, projectPath: 'acme/shop/web' });

  test('each job in each pipeline situation where it runs: the deploy job gains the production context', () => {
    // docs/gitlab-behaviour.md#job-kubeconfig: one context per authorizing agent, named <config project>:<agent>.
    const changes = accessDiff({ before: { configs: { prod: { text: BASE } } }, after: { configs: { prod: { text: BASE.replace('["review/*"]', '["review/*", production]') } } }, settings, pipeline: { after: version(pipeline) } });
    const jobs = changes.filter((c) => c.job !== undefined);
    assert.deepEqual(jobs.map((c) => [c.scenario, c.kind, c.severity, c.context]), [
      ['deploy · push to main', 'gained', 'critical', 'acme/infra/agents:prod'],
      ['deploy · schedule on main', 'gained', 'critical', 'acme/infra/agents:prod'],
    ]);
    assert.deepEqual(jobs[0].lines, [{ file: 'pipeline', version: 'after', line: 0 }]);
    assert.deepEqual([jobs[0].after.namespace, jobs[0].before.denial], ['web', 'environment "production" matches none of review/*']);
  });

  test('a pipeline change alone: the review job moved to the production environment loses its context (the entry allows review/* only)', () => {
    const after = pipeline.replace('name: review/$CI_COMMIT_REF_SLUG', 'name: production');
    const changes = accessDiff({ before: { configs: { prod: { text: BASE } } }, after: { configs: { prod: { text: BASE } } }, settings, pipeline: { before: version(pipeline), after: version(after) } });
    // The review job runs for branch pipelines only: a merge-request pipeline has no CI_COMMIT_BRANCH (docs/gitlab-behaviour.md#predefined-variables).
    assert.deepEqual(changes.map((c) => [c.scenario, c.kind, c.after.denial]), [['review · push to feature/login', 'lost', 'environment "production" matches none of review/*']]);
    assert.deepEqual(changes[0].lines, [{ file: 'pipeline', version: 'after', line: lineOf(after, 'review:') }]);
  });

  test('nothing changes in agents or pipeline: no pipeline work, no change', () => {
    assert.deepEqual(accessDiff({ before: { configs: { prod: { text: BASE } } }, after: { configs: { prod: { text: BASE } } }, settings, pipeline: { after: version(pipeline) } }), []);
  });
});
