// docs/gitlab-behaviour.md#gitlabs-reading-of-agent-configurations: for each class where this
// project and GitLab's own parsing (sigs.k8s.io/yaml → protojson → protoc-gen-validate) used to
// disagree, a table of files and what GitLab does with them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { NEWEST_GITLAB_VERSION } from '../../../server/src/engine/gitlab/gitlabVersions';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, scenarioContext, siblingsFrom, simulateEntries } from '../../../server/src/engine/api';

// The security lints judge access, not GitLab's reading: left out here (docs/gitlab-behaviour.md#security-lints has its own tests).
const codes = (ds: EngineDiagnostic[]) => ds.filter((d) => d.severity !== 'information' && !d.code.startsWith('security.')).map((d) => `${d.severity} ${d.code}`);
const check = (text: string, gitlabVersion?: string) => validateAgentConfig(text, { target: 'gitlab', ...(gitlabVersion ? { gitlabVersion } : {}) });

function table(rows: readonly (readonly [string, string, readonly string[]])[], gitlabVersion?: string): void {
  for (const [name, text, expected] of rows) {
    test(name, () => {
      const found = check(text, gitlabVersion);
      assert.deepEqual(codes(found), expected, JSON.stringify(found, null, 1));
    });
  }
}

// docs/gitlab-behaviour.md#empty-values
describe('empty values: a null field is "not set"; a null list item is refused', () => {
  const entry = (field: string) => `ci_access:\n  projects:\n    - id: acme/app\n      ${field}:\n`;
  table([
    ['ci_access whose entries are all commented out', 'ci_access:\n  # projects:\n  #   - id: acme/app\n', []],
    ['an empty projects list', 'ci_access:\n  projects:\n', []],
    ['an empty groups list', 'ci_access:\n  groups:\n', []],
    ['an empty environments filter', entry('environments'), []],
    ['an empty access_as', entry('access_as'), []],
    ['an empty default_namespace', entry('default_namespace'), []],
    ['an empty protected_branches_only', entry('protected_branches_only'), []],
    ['an empty resource_management', entry('resource_management'), []],
    ['an empty logging level', 'observability:\n  logging:\n    level:\n    grpc_level:\n', []],
    ['an empty observability', 'observability:\n', []],
    ['an empty user_access list and access_as', 'user_access:\n  access_as:\n    agent: {}\n  projects:\n  groups:\n', []],
    ['an empty remote_development setting', 'remote_development:\n  enabled:\n  network_policy:\n    egress:\n', []],
    ['an empty flux section', 'flux:\n  webhook_receiver_url:\n', []],
    ['an empty impersonate groups list', `${entry('access_as').trimEnd()}\n        impersonate:\n          username: deployer\n          groups:\n`, []],
    ['an empty container_scanning', 'container_scanning:\n', []],
    ['an empty user_access', 'user_access:\n', []],
    ['an empty list item is refused', 'ci_access:\n  projects:\n    - id: acme/app\n    -\n', ['error schema.type']],
    ['an empty environment in the filter is refused', 'ci_access:\n  projects:\n    - id: acme/app\n      environments:\n        -\n', ['error schema.type']],
    ['access_as with an empty member sets none of the oneof', 'ci_access:\n  projects:\n    - id: acme/app\n      access_as:\n        agent:\n', ['error schema.oneOf']],
    ['an empty id is a missing id', 'ci_access:\n  projects:\n    - id:\n', ['error schema.missingKey']],
    ['an unknown key is an error even when empty', 'ci_acess:\n', ['error schema.unknownKey']],
  ]);
});

// docs/gitlab-behaviour.md#duplicate-keys
describe('duplicate keys: accepted by GitLab, the last value wins; a warning says which', () => {
  table([
    ['a repeated valid key', 'observability:\n  logging:\n    level: info\n    level: debug\n', ['warning yaml.duplicateKey']],
    ['a repeated section', 'ci_access:\n  projects:\n    - id: acme/app\nci_access:\n  groups:\n    - id: acme\n', ['warning yaml.duplicateKey']],
    ['the invalid value comes first: GitLab never reads it', 'observability:\n  logging:\n    level: verbose\n    level: debug\n', ['warning yaml.duplicateKey']],
    ['the invalid value comes last: it is the one GitLab reads', 'observability:\n  logging:\n    level: debug\n    level: verbose\n', ['warning yaml.duplicateKey', 'error schema.enum']],
  ]);

  test('the message names the line whose value wins, and problems point at that value', () => {
    const text = 'observability:\n  logging:\n    level: verbose\n    level: warn\n    level: loud\n';
    const found = check(text);
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.code]),
      [
        [3, 'yaml.duplicateKey'],
        [4, 'yaml.duplicateKey'],
        [4, 'schema.enum'],
      ],
    );
    assert.match(found[0].message, /GitLab ignores this value \(and the first one, 1 line above\) and keeps the last one \(loud\), 1 line below\./);
    assert.match(found[1].message, /GitLab keeps this last value \(loud\) and ignores the earlier one \(verbose\), 2 lines above\./);
  });

  test('the values are named as written (quoted, flow, a comment left out); a block value is not', () => {
    const message = (text: string) => check(text).find((d) => d.code === 'yaml.duplicateKey')?.message;
    assert.match(message('flux:\n  webhook_receiver_url: "http://a # b"\n  webhook_receiver_url: http://c # the new one\n')!, /keeps this last value \(http:\/\/c\) and ignores the earlier one \("http:\/\/a # b"\)/);
    assert.match(message('ci_access:\n  projects:\n    - id: a\n      environments: [a, b]\n      environments: [c]\n')!, /keeps this last value \(\[c\]\) and ignores the earlier one \(\[a, b\]\)/);
    assert.match(message('ci_access:\n  projects:\n    - id: acme/app\nci_access:\n  groups:\n    - id: acme\n')!, /GitLab keeps this last value and ignores the earlier one, 3 lines above\./);
  });
});

// docs/gitlab-behaviour.md#container_scanning-cadence
describe('container_scanning needs a cadence (protoc-gen-validate min_len 1)', () => {
  table([
    ['a section without cadence is refused', 'container_scanning:\n  vulnerability_report:\n    namespaces: [default]\n', ['error schema.missingKey']],
    ['an empty cadence is refused', 'container_scanning:\n  cadence: ""\n', ['error schema.empty']],
    ['a section with a cadence is accepted', 'container_scanning:\n  cadence: "0 18 * * *"\n  vulnerability_report:\n    namespaces: [default]\n', []],
    ['no section at all is accepted', 'observability:\n  logging:\n    level: info\n', []],
  ]);
});

// docs/gitlab-behaviour.md#values-that-fail-later
describe('values GitLab accepts and the agent fails on later: warnings that say when', () => {
  table([
    ['a six-field cron cadence', 'container_scanning:\n  cadence: "0 0 18 * * *"\n', ['warning schema.failsLater']],
    ['a cadence that is a word', 'container_scanning:\n  cadence: daily\n', ['warning schema.failsLater']],
    ['a webhook_receiver_url without a scheme', 'flux:\n  webhook_receiver_url: webhook-receiver.flux-system.svc.cluster.local\n', ['warning schema.failsLater']],
    ['a descriptor cadence', 'container_scanning:\n  cadence: "@daily"\n', []],
    ['an http URL', 'flux:\n  webhook_receiver_url: http://webhook-receiver.flux-system.svc.cluster.local\n', []],
  ]);

  test('the warning says GitLab accepts the file and when the agent fails', () => {
    const [d] = check('container_scanning:\n  cadence: "0 0 18 * * *"\n');
    assert.match(d.message, /GitLab accepts the file, but the agent cannot parse the schedule when it loads the configuration/);
    assert.doesNotMatch(d.message, /rejects/);
  });
});

// docs/gitlab-behaviour.md#rulesif-by-version
describe('rules:if as GitLab\'s lexer of the chosen release reads it', () => {
  const rules = (expression: string) => `ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: '${expression}'\n`;
  const exprCodes = (expression: string, gitlabVersion: string) =>
    checkAgentFile({ path: '.gitlab/agents/a/config.yaml', content: rules(expression) }, { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion }, NO_SIBLINGS)
      .filter((d) => d.code.startsWith('expr.'))
      .map((d) => `${d.severity} ${d.code}`);
  for (const [expression, version, expected] of [
    ['!$CI_COMMIT_TAG', '18.11', []],
    ['!$CI_COMMIT_TAG', NEWEST_GITLAB_VERSION, []],
    ['$CI_COMMIT_BRANCH && !($CI_COMMIT_TAG || $CI_MERGE_REQUEST_IID)', '18.11', []],
    ['!$CI_COMMIT_TAG', '18.10', ['error expr.notInVersion']],
    ['!$CI_COMMIT_TAG', '17.11', ['error expr.notInVersion']],
    ['$CI_COMMIT_BRANCH != "main"', '16.0', []],
    ['$[[ inputs.env_x ]] == "a"', NEWEST_GITLAB_VERSION, []],
    ['$[[ inputs.env-x ]] == "a"', NEWEST_GITLAB_VERSION, ['error expr.syntax']],
  ] as const) {
    test(`${expression} in GitLab ${version}`, () => assert.deepEqual(exprCodes(expression, version), expected));
  }

  test('the ! error names the release that added it', () => {
    const [d] = checkAgentFile({ path: '.gitlab/agents/a/config.yaml', content: rules('!$CI_COMMIT_TAG') }, { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion: '18.10' }, NO_SIBLINGS).filter((x) => x.code === 'expr.notInVersion');
    assert.match(d.message, /GitLab 18\.10 has no unary "!" in rules:if \(added in 18\.11\)/);
  });

  test('the simulation evaluates ! from 18.11', () => {
    const text = rules('!$CI_COMMIT_TAG');
    const outcome = (gitlabVersion: string) => {
      const settings = { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion };
      const parsed = parseYaml(text);
      const simulation = simulateEntries(readCiAccess(parsed.value), scenarioContext(settings, 'a'));
      return simulation.entries[0].outcomes.map((o) => o.outcome.authorized);
    };
    // Preset scenarios: default branch, feature branch, tag release, merge request. A tag makes !$CI_COMMIT_TAG false.
    assert.deepEqual(outcome('18.11'), [true, true, false, true]);
    assert.deepEqual(outcome('18.10'), [false, false, false, false]);
  });
});

// docs/gitlab-behaviour.md#ignored-file-names
describe('file names GitLab ignores: config.yml and environment_templates/default.yml', () => {
  const ignored = (path: string, content: string) =>
    checkAgentFile({ path, content }, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS)
      .filter((d) => d.code === 'file.ignoredName')
      .map((d) => d.data?.renameTo);
  for (const [path, content, expected] of [
    ['repo/.gitlab/agents/prod/config.yml', 'ci_access:\n  projects:\n    - id: acme/app\n', ['config.yaml']],
    ['repo/.gitlab/agents/prod/config.yaml', 'ci_access:\n  projects:\n    - id: acme/app\n', []],
    ['repo/.gitlab/agents/prod/environment_templates/default.yml', 'objects: []\n', ['default.yaml']],
    ['repo/.gitlab/agents/prod/environment_templates/default.yaml', 'objects: []\n', []],
    ['repo/config.yml', 'ci_access: {}\n', []],
  ] as const) {
    test(`${path}`, () => assert.deepEqual(ignored(path, content), expected));
  }

  test('config.yml is still checked, so it is right once renamed', () => {
    const found = checkAgentFile({ path: 'repo/.gitlab/agents/prod/config.yml', content: 'ci_acess: {}\n' }, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS);
    assert.deepEqual(codes(found).sort(), ['error schema.unknownKey', 'warning file.ignoredName']);
  });
});

// docs/gitlab-behaviour.md#removed-keys-by-version
describe('removed keys by version: what each release still reads', () => {
  const gitops = 'gitops:\n  manifest_projects:\n    - id: acme/manifests\n      ref:\n        branch: main\n      paths:\n        - glob: "/**/*.yaml"\n      prune_propagation_policy: foreground\n';
  const brokenGitops = 'gitops:\n  manifest_projects:\n    - paths:\n        - glob: ""\n      reconcile_timeout: 1h\n';
  const interval = 'remote_development:\n  partial_sync_interval: "10s"\n  full_sync_interval: "3600s"\n';
  for (const [name, text, version, expected] of [
    ['gitops in 16.1 (before its deprecation)', gitops, '16.1', []],
    ['gitops in 16.2', gitops, '16.2', ['warning schema.deprecatedKey']],
    ['gitops in 17.11 (the agent only logs it)', gitops, '17.11', ['warning schema.deprecatedKey']],
    ['gitops in 18.0', gitops, '18.0', ['error schema.removedKey']],
    ['gitops in the newest release', gitops, undefined, ['error schema.removedKey']],
    ['a broken gitops block in 17.11: each problem inside is an error', brokenGitops, '17.11', ['warning schema.deprecatedKey', 'error schema.empty', 'error schema.format.duration']],
    ['the sync intervals in 16.11', interval, '16.11', ['warning schema.deprecatedKey', 'warning schema.deprecatedKey']],
    ['the sync intervals in 17.0', interval, '17.0', ['error schema.removedKey', 'error schema.removedKey']],
    ['a sync interval that is no duration in 16.11', 'remote_development:\n  full_sync_interval: 1h\n', '16.11', ['warning schema.deprecatedKey', 'error schema.format.duration']],
    ['starboard in every selectable release', 'starboard:\n  cadence: "0 18 * * *"\n', '16.0', ['error schema.removedKey']],
  ] as const) {
    test(name, () => {
      const found = check(text, version);
      assert.deepEqual(codes(found), expected, JSON.stringify(found, null, 1));
    });
  }
});

// docs/gitlab-behaviour.md#ignored-file-names: a default.yml is not the template GitLab renders, so a
// config.yaml beside it is checked against GitLab's built-in default template instead.
test('a config.yaml whose only template is default.yml is checked against the built-in template', () => {
  const config = 'ci_access:\n  projects:\n    - id: acme/app\n      access_as:\n        agent: {}\n      resource_management:\n        enabled: true\n';
  const files: Record<string, string> = { 'environment_templates/default.yml': 'objects: []\n' };
  const found = checkAgentFile({ path: 'repo/.gitlab/agents/prod/config.yaml', content: config }, DEFAULT_PROJECT_SETTINGS, siblingsFrom((name) => files[name] ?? null));
  const crossFile = found.find((d) => d.code === 'crossFile.resourceManagementNeedsCiJob');
  assert.match(crossFile?.message ?? '', /built-in default template/);
});
