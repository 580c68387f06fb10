// docs/gitlab-behaviour.md#gitlab-versions: one table-driven test per version boundary, each row
// citing the public source of its version.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { simulateAccess } from '../../../server/src/engine/access/simulate';
import { completeAgentConfig } from '../../../server/src/engine/completion';
import { GITLAB_VERSIONS, NEWEST_GITLAB_VERSION, VERSIONED_BEHAVIOURS, VERSIONED_KEYS } from '../../../server/src/engine/gitlab/gitlabVersions';
import { schemaAtPath } from '../../../server/src/engine/config/schemaLookup';
import { agentConfigSchemaFor } from '../../../server/src/engine/config/versionedSchema';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, readProjectSettings } from '../../../server/src/engine/api';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';

// The security lints have their own tests (securityLints.test.ts).
const codes = (ds: EngineDiagnostic[]) => ds.filter((d) => !d.code.startsWith('security.')).map((d) => `${d.severity} ${d.code}`);
const validate = (text: string, gitlabVersion: string) => validateAgentConfig(text, { target: 'gitlab', gitlabVersion });

interface Boundary {
  readonly what: string;
  readonly source: string;
  readonly text: string;
  /** [version, expected severities and codes] */
  readonly cases: readonly (readonly [string, readonly string[]])[];
}

const entry = (body: string) => `ci_access:\n  projects:\n    - id: acme/app\n${body}`;

const BOUNDARIES: readonly Boundary[] = [
  {
    what: 'ci_access.instance is unknown before 17.11',
    source: 'https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/ (history), https://gitlab.com/gitlab-org/gitlab/-/issues/357516',
    text: 'ci_access:\n  instance: {}\n',
    // From 17.11 a note: it counts only with the administrator's instance-level authorization (gitlab-org/gitlab#570346).
    cases: [
      ['17.10', ['error schema.notInVersion']],
      ['17.11', ['information authorization.instanceSetting']],
    ],
  },
  {
    what: 'protected_branches_only is unknown before 17.3',
    source: 'https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/ , gitlab-agent MR !1569',
    text: entry('      protected_branches_only: true\n'),
    cases: [
      ['17.2', ['error schema.notInVersion']],
      ['17.3', []],
    ],
  },
  {
    what: 'resource_management is unknown before 17.9',
    source: 'https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/ , https://gitlab.com/gitlab-org/gitlab/-/merge_requests/178824',
    text: entry('      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n'),
    cases: [
      ['17.8', ['error schema.notInVersion']],
      ['17.9', []],
    ],
  },
  {
    what: 'gitops: plain before 16.2, deprecated 16.2–17.11, removed from 18.0',
    source: 'https://gitlab.com/gitlab-org/gitlab/-/issues/406545 , gitlab-agent MR !1436, https://pkg.go.dev/gitlab.com/gitlab-org/cluster-integration/gitlab-agent/v18/pkg/agentcfg',
    text: 'gitops:\n  manifest_projects:\n    - id: acme/manifests\n      paths:\n        - glob: "/**/*.yaml"\n',
    cases: [
      ['16.1', []],
      ['16.2', ['warning schema.deprecatedKey']],
      ['17.11', ['warning schema.deprecatedKey']],
      ['18.0', ['error schema.removedKey']],
    ],
  },
  {
    what: 'the workspace sync intervals are removed in 17.0',
    source: 'gitlab-agent MR !1229 (deprecation), https://gitlab.com/gitlab-org/cluster-integration/gitlab-agent/-/merge_requests/1425 (removal)',
    text: 'remote_development:\n  partial_sync_interval: "10s"\n',
    cases: [
      ['16.11', ['warning schema.deprecatedKey']],
      ['17.0', ['error schema.removedKey']],
    ],
  },
  {
    what: 'user_access is unknown before 16.1',
    source: 'https://docs.gitlab.com/user/clusters/agent/user_access/',
    text: 'user_access:\n  access_as:\n    agent: {}\n  projects:\n    - id: acme/app\n',
    cases: [
      ['16.0', ['error schema.notInVersion']],
      ['16.1', []],
    ],
  },
  {
    what: 'user_access needs access_as before 18.3',
    source: 'https://docs.gitlab.com/user/clusters/agent/user_access/ (history), gitlab-agent MR !2749',
    text: 'user_access:\n  projects:\n    - id: acme/app\n',
    cases: [
      ['18.2', ['error schema.missingKey']],
      ['18.3', []],
    ],
  },
  {
    what: 'remote_development.shared_namespace is unknown before 18.0',
    source: 'https://docs.gitlab.com/user/workspace/settings/ , https://gitlab.com/gitlab-org/gitlab/-/issues/519254',
    text: 'remote_development:\n  shared_namespace: workspaces\n',
    cases: [
      ['17.11', ['error schema.notInVersion']],
      ['18.0', []],
    ],
  },
  {
    what: 'container_scanning.severity_threshold is unknown before 18.4',
    source: 'https://docs.gitlab.com/user/clusters/agent/vulnerabilities/',
    text: 'container_scanning:\n  cadence: "0 0 * * *"\n  severity_threshold: HIGH\n',
    cases: [
      ['18.3', ['error schema.notInVersion']],
      ['18.4', []],
    ],
  },
  {
    what: 'the unary ! of rules:if exists from 18.11',
    source: 'https://docs.gitlab.com/ci/jobs/job_rules/#negate-expressions , https://gitlab.com/gitlab-org/gitlab/-/merge_requests/219430',
    text: entry('      rules:\n        - if: \'!$CI_COMMIT_TAG\'\n'),
    // The note on `rules` (proposal target) comes first: GitLab rejects the key in every release.
    cases: [
      ['18.10', ['information target.proposalOnly', 'error expr.notInVersion']],
      ['18.11', ['information target.proposalOnly']],
    ],
  },
];

describe('GitLab version boundaries', () => {
  for (const boundary of BOUNDARIES) {
    test(`${boundary.what} (${boundary.source})`, () => {
      for (const [version, expected] of boundary.cases) {
        // The `!` row lives in the rules design: checked with the proposal target and its scenarios.
        const found =
          boundary.what.includes('rules:if')
            ? checkAgentFile({ path: '.gitlab/agents/a/config.yaml', content: boundary.text }, { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion: version }, NO_SIBLINGS)
            : validate(boundary.text, version);
        assert.deepEqual(codes(found), expected, `GitLab ${version}: ${JSON.stringify(found, null, 1)}`);
      }
    });
  }

  test('an unknown-before key says which release added it and which one is chosen', () => {
    const [d] = validate(entry('      protected_branches_only: true\n'), '17.2');
    assert.match(d.message, /"protected_branches_only" is not in GitLab 17\.2: it was added in 17\.3/);
  });

  test('ci_access.instance: the note names the setting and GitLab.com, on the key', () => {
    const [d] = validate('ci_access:\n  instance:\n    environments: [staging]\n', '19.5').filter((x) => x.code === 'authorization.instanceSetting');
    assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.character], [1, 2, 10]);
    assert.match(d.message, /only when an administrator enables instance-level authorization .*organization_cluster_agent_authorization_enabled.*; otherwise, and always on GitLab\.com, GitLab ignores it/);
  });

  test('gitops in 18.0 is an error saying "removed in 18.0"', () => {
    const [d] = validate('gitops:\n  manifest_projects: []\n', '18.0');
    assert.match(d.message, /removed in 18\.0/);
    // Its successor is Flux the tool, not the `flux` section of the file (it used to say "Use `flux`").
    assert.match(d.message, /deploy with Flux: https:\/\/docs\.gitlab\.com\/user\/clusters\/agent\/gitops\/migrate_to_flux\/$/);
    assert.doesNotMatch(d.message, /`flux`/);
  });

  test('a deprecated gitops block is still checked whole: an unknown key inside it is an error at its line (17.11)', () => {
    const text = 'gitops:\n  manifest_projects:\n    - id: acme/manifests\n      bogus: 1\n      dry_run_strategy: sometimes\n';
    const found = validate(text, '17.11');
    assert.deepEqual(codes(found), ['warning schema.deprecatedKey', 'error schema.unknownKey', 'error schema.enum']);
    assert.equal(found[1].range.start.line, 3);
  });

  test('environment templates before 17.9 are files GitLab does not read', () => {
    const template = 'objects: []\n';
    const at = (gitlabVersion: string) => codes(checkAgentFile({ path: '.gitlab/agents/a/environment_templates/default.yaml', content: template }, { ...DEFAULT_PROJECT_SETTINGS, gitlabVersion }, NO_SIBLINGS));
    assert.deepEqual(at('17.8').filter((c) => c.includes('notInVersion')), ['warning template.notInVersion']);
    assert.deepEqual(at('17.9').filter((c) => c.includes('notInVersion')), []);
  });
});

describe('the version setting', () => {
  test('versions run from 16.0 to the newest documented, which is the default everywhere', () => {
    assert.equal(GITLAB_VERSIONS[0], '16.0');
    assert.equal(DEFAULT_PROJECT_SETTINGS.gitlabVersion, NEWEST_GITLAB_VERSION);
    assert.equal(DEFAULT_SETTINGS.gitlabVersion, NEWEST_GITLAB_VERSION);
    const manifest = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { enum: string[]; default: string }> } } };
    const setting = manifest.contributes.configuration.properties['gitlabAgentConfig.gitlabVersion'];
    assert.equal(setting.default, NEWEST_GITLAB_VERSION);
    assert.deepEqual([...setting.enum].sort(), [...GITLAB_VERSIONS].sort());
  });

  test('readProjectSettings takes a known version and falls back to the newest otherwise', () => {
    assert.equal(readProjectSettings({ gitlabVersion: '17.11' }).gitlabVersion, '17.11');
    assert.equal(readProjectSettings({ gitlabVersion: '15.0' }).gitlabVersion, NEWEST_GITLAB_VERSION);
    assert.equal(readProjectSettings({ gitlabVersion: 17.11 }).gitlabVersion, NEWEST_GITLAB_VERSION);
  });

  test('every row of the table names a public source, and every added version agrees with the schema file\'s "since"', () => {
    for (const key of VERSIONED_KEYS) {
      assert.ok(key.sources.length > 0 && key.sources.every((s) => /^https:\/\/(docs\.gitlab\.com|gitlab\.com|pkg\.go\.dev)\//.test(s)), key.paths.join());
      if (!key.added) continue;
      for (const p of key.paths) {
        const dataPath = p.split('.').flatMap((s) => (s.endsWith('[]') ? [s.slice(0, -2), 0] : [s]));
        const schema = schemaAtPath(dataPath);
        assert.equal(schema?.['x-since'], key.added, p);
      }
    }
    for (const behaviour of Object.values(VERSIONED_BEHAVIOURS)) assert.ok(behaviour.sources.length > 0);
  });
});

describe('completion and hover follow the version', () => {
  const keysAt = (text: string, gitlabVersion: string) => {
    const parsed = parseYaml(text);
    return completeAgentConfig({ text, index: parsed.index, doc: parsed.doc, value: parsed.value, offset: text.length, target: 'gitlab', gitlabVersion, scenarioVariables: [], environments: [], knownIds: { projects: new Map(), groups: new Map() } }).map((c) => c.label);
  };

  test('keys a release does not have are not offered', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      ';
    assert.ok(!keysAt(text, '17.2').includes('protected_branches_only'));
    assert.ok(keysAt(text, '17.3').includes('protected_branches_only'));
    assert.ok(!keysAt('ci_access:\n  ', '17.10').includes('instance'));
    assert.ok(keysAt('ci_access:\n  ', '17.11').includes('instance'));
  });

  test('the ! operator is offered where an operand starts only from 18.11', () => {
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: ';
    assert.ok(!keysAt(text, '18.10').includes('!'));
    assert.ok(keysAt(text, '18.11').includes('!'));
  });

  test('hover text: "Since GitLab 17.3" where the key exists, "Not in GitLab" where it does not', () => {
    const pathOf = ['ci_access', 'projects', 0, 'protected_branches_only'];
    assert.match(String(schemaAtPath(pathOf, agentConfigSchemaFor('17.3'))?.markdownDescription), /Since GitLab 17\.3/);
    assert.match(String(schemaAtPath(pathOf, agentConfigSchemaFor('17.2'))?.markdownDescription), /Not in GitLab 17\.2: `protected_branches_only` was added in 17\.3/);
  });
});

describe('hover of a deprecated key', () => {
  test('gitops in 17.11 says it is deprecated, then what it does', () => {
    const text = String(schemaAtPath(['gitops'], agentConfigSchemaFor('17.11'))?.markdownDescription);
    assert.match(text, /^`gitops` is deprecated: GitLab 17\.11 still parses it/);
    assert.match(text, /Legacy pull-based deployment/);
  });
});

// A key the chosen release does not have is unknown to it (schema.notInVersion says GitLab rejects
// the file); the simulation reads the entries as that release would, without the key, and says so.
describe('the simulation follows the version', () => {
  const agent = { configProjectPath: 'acme/infra', name: 'prod' };
  const simulate = (text: string, gitlabVersion: string, job: Record<string, unknown> = {}) =>
    simulateAccess(readCiAccess(parseYaml(text).value), agent, { projectPath: 'acme/app', ref: 'feature', defaultBranch: 'main', ...job }, { target: 'gitlab', gitlabVersion });

  test('ci_access.instance counts from 17.11; before, the denial names the release that added it', () => {
    const text = 'ci_access:\n  instance: {}\n';
    const before = simulate(text, '17.10', { projectPath: 'other/app' });
    assert.deepEqual([before.authorized, before.via], [false, null]);
    assert.match(before.denial!, /ci_access\.instance is not in GitLab 17\.10 \(added in 17\.11\)/);
    const from = simulate(text, '17.11', { projectPath: 'other/app' });
    assert.deepEqual([from.authorized, from.via], [true, 'instance']);
    // GitLab stores it only with the administrator's setting (gitlab-org/gitlab#570346, MR !184259): the explanation says it is assumed.
    assert.ok(from.explanation.some((line) => /counts only where an administrator enables instance-level authorization .*: taken as on here/.test(line)), from.explanation.join('\n'));
  });

  test('protected_branches_only applies from 17.3; before, it is not applied and the explanation says why', () => {
    const text = entry('      protected_branches_only: true\n');
    const before = simulate(text, '17.2');
    assert.equal(before.authorized, true);
    assert.ok(before.explanation.some((line) => /protected_branches_only is not in GitLab 17\.2 \(added in 17\.3\): not applied/.test(line)), before.explanation.join('\n'));
    const from = simulate(text, '17.3');
    assert.deepEqual([from.authorized, from.denial], [false, 'protected_branches_only is true and the ref is not protected']);
    // 17.3-17.9 read the key, but Rails filters by it only with the feature flag on (MR !156626): the explanation says it is assumed.
    const flag = /only where the feature flag kubernetes_agent_protected_branches is on \(generally available from 17\.10\): taken as on here/;
    assert.ok(from.explanation.some((line) => flag.test(line)), from.explanation.join('\n'));
    assert.ok(!simulate(text, '17.10').explanation.some((line) => flag.test(line)));
  });

  test('resource_management takes effect from 17.9; until 18.1 only behind a flag, which the explanation names', () => {
    const text = entry('      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n');
    assert.equal(simulate(text, '17.8').resource_management, false);
    const flag = /prepares managed resources only where the feature flag gitlab_managed_cluster_resources is on \(off by default; generally available from 18\.1\): taken as on here/;
    for (const version of ['17.9', '18.0'] as const) {
      const outcome = simulate(text, version);
      assert.equal(outcome.resource_management, true);
      assert.ok(outcome.explanation.some((line) => flag.test(line)), outcome.explanation.join('\n'));
    }
    assert.ok(!simulate(text, '18.1').explanation.some((line) => flag.test(line)));
  });
});
