import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';
import { rangeOf } from '../../support/ranges';

function only(diagnostics: EngineDiagnostic[], code: string): EngineDiagnostic {
  const found = diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(diagnostics, null, 1)}`);
  return found[0];
}

// docs/gitlab-behaviour.md#agent-configuration-file
describe('agent configuration validation', () => {
  test('a valid configuration using every ci_access key has no diagnostics', () => {
    const text = `ci_access:
  projects:
    - id: group/project
      default_namespace: apps
      access_as:
        impersonate:
          username: deployer
          uid: "1000"
          groups: [ops]
          extra:
            - key: team
              val: [platform]
      environments: [production, review/*]
      protected_branches_only: true
      resource_management:
        enabled: true
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: apps-$CI_ENVIRONMENT_SLUG
        - when: never
  groups:
    - id: group
      access_as:
        ci_job: {}
  instance:
    default_namespace: shared
user_access:
  access_as:
    user: {}
  projects: [{id: group/project}]
  groups: [{id: group}]
remote_development:
  enabled: true
  dns_zone: workspaces.example.dev
  shared_namespace: workspaces
  max_active_hours_before_stop: 36
  max_stopped_hours_before_termination: 744
observability:
  logging:
    level: debug
    grpc_level: warn
container_scanning:
  cadence: "0 18 * * *"
  scanner_timeout: "3600s"
  vulnerability_report:
    namespaces: [default]
flux:
  webhook_receiver_url: http://webhook-receiver.flux-system.svc.cluster.local
`;
    // The security lints judge the access it grants (docs/gitlab-behaviour.md#security-lints), not its validity;
    // the one note says what `instance` needs beyond the file (docs/gitlab-behaviour.md#ci_access-entries).
    assert.deepEqual(validateAgentConfig(text, { securityLints: false }).map((d) => `${d.severity} ${d.code}`), ['information authorization.instanceSetting']);
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('unknown keys are errors on the key, listing the allowed keys and a did-you-mean', () => {
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      defualt_namespace: x\n';
    const d = only(validateAgentConfig(text), 'schema.unknownKey');
    assert.deepEqual(d.range, rangeOf(text, 'defualt_namespace'));
    assert.match(d.message, /Unknown key "defualt_namespace" in ci_access\.projects\[0\]/);
    assert.match(d.message, /Did you mean "default_namespace"\?/);
    assert.match(d.message, /Allowed keys: id, default_namespace, access_as, environments, protected_branches_only, resource_management, rules\./);
    assert.equal(d.data?.suggestion, 'default_namespace');
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('unknown top-level key: allowed keys omit removed ones', () => {
    const text = 'ci_acess: {}\n';
    const d = only(validateAgentConfig(text), 'schema.unknownKey');
    assert.deepEqual(d.range, rangeOf(text, 'ci_acess'));
    assert.match(d.message, /at the top level\. Did you mean "ci_access"\? Allowed keys: ci_access, user_access, remote_development, observability, container_scanning, flux\.$/);
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('a wrong type points at the value', () => {
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      protected_branches_only: "yes please"\n';
    const d = only(validateAgentConfig(text), 'schema.type');
    assert.deepEqual(d.range, rangeOf(text, '"yes please"'));
    assert.match(d.message, /"ci_access\.projects\[0\]\.protected_branches_only" must be a boolean, got string "yes please"/);
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('YAML 1.1 booleans (yes/on) are booleans, as sigs.k8s.io/yaml reads them', () => {
    assert.deepEqual(validateAgentConfig('ci_access:\n  projects:\n    - id: a/b\n      protected_branches_only: yes\n'), []);
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('access_as is a oneof: two modes are an error on the access_as key', () => {
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      access_as:\n        ci_job: {}\n        agent: {}\n';
    const d = only(validateAgentConfig(text), 'schema.oneOf');
    assert.deepEqual(d.range, rangeOf(text, 'access_as'));
    assert.match(d.message, /must set exactly one of: agent, ci_job, impersonate/);
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('ci_user is not a supported access_as mode', () => {
    const text = 'ci_access:\n  groups:\n    - id: g\n      access_as:\n        ci_user: {}\n';
    const d = only(validateAgentConfig(text), 'schema.unknownKey');
    assert.deepEqual(d.range, rangeOf(text, 'ci_user'));
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('a missing id points at the list item', () => {
    const text = 'ci_access:\n  groups:\n    - default_namespace: x\n';
    const d = only(validateAgentConfig(text), 'schema.missingKey');
    assert.deepEqual(d.range, rangeOf(text, 'default_namespace: x'));
    assert.match(d.message, /Missing required key "id" in ci_access\.groups\[0\]/);
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('an empty id is an error (PGV min length 1)', () => {
    const text = 'ci_access:\n  projects:\n    - id: ""\n';
    const d = only(validateAgentConfig(text), 'schema.empty');
    assert.deepEqual(d.range, rangeOf(text, '""'));
  });

  // docs/gitlab-behaviour.md#removed-keys
  test('gitops is reported as removed in 18.0, on the key', () => {
    const text = 'gitops:\n  manifest_projects: []\n';
    const d = only(validateAgentConfig(text), 'schema.removedKey');
    assert.deepEqual(d.range, rangeOf(text, 'gitops'));
    assert.match(d.message, /removed in 18\.0/);
    assert.equal(d.data?.replacement, 'flux');
  });

  // docs/gitlab-behaviour.md#remote_development-settings
  test('partial_sync_interval is reported as removed in 17.0', () => {
    const text = 'remote_development:\n  partial_sync_interval: 10s\n';
    const d = only(validateAgentConfig(text), 'schema.removedKey');
    assert.deepEqual(d.range, rangeOf(text, 'partial_sync_interval'));
    assert.match(d.message, /17\.0/);
  });

  // docs/gitlab-behaviour.md#observability-logging
  test('enum values with a did-you-mean', () => {
    const text = 'observability:\n  logging:\n    level: debgu\n';
    const d = only(validateAgentConfig(text), 'schema.enum');
    assert.deepEqual(d.range, rangeOf(text, 'debgu'));
    assert.match(d.message, /must be one of "info", "debug", "warn", "error", got string "debgu"\. Did you mean "debug"\?/);
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('protobuf durations need the "s" suffix', () => {
    const text = 'container_scanning:\n  scanner_timeout: 1h\n';
    const d = only(validateAgentConfig(text), 'schema.format.duration');
    assert.deepEqual(d.range, rangeOf(text, '1h'));
  });

  // docs/gitlab-behaviour.md#remote_development-settings
  test('shared_namespace must be a DNS-1123 label', () => {
    const text = 'remote_development:\n  shared_namespace: Work_Spaces\n';
    const d = only(validateAgentConfig(text), 'schema.format.dns1123Label');
    assert.deepEqual(d.range, rangeOf(text, 'Work_Spaces'));
  });

  // docs/gitlab-behaviour.md#duplicate-keys
  test('YAML duplicate keys are warnings on the second key (GitLab keeps the last value)', () => {
    const text = 'observability:\n  logging:\n    level: info\n    level: debug\n';
    const d = only(validateAgentConfig(text), 'yaml.duplicateKey');
    assert.deepEqual(d.range, rangeOf(text, 'level', 1));
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /Duplicate key "level": GitLab keeps this last value/);
  });

  test('YAML syntax errors are reported where they are, and schema noise is suppressed', () => {
    const text = 'ci_access:\n  projects:\n    - id: "unterminated\n';
    const diagnostics = validateAgentConfig(text);
    assert.ok(diagnostics.length > 0);
    assert.ok(diagnostics.every((d) => d.code.startsWith('yaml.')), JSON.stringify(diagnostics));
    assert.deepEqual(diagnostics[0].range, rangeOf(text, `"unterminated`));
  });

  // docs/gitlab-behaviour.md#ci_access-entries
  test('duplicate ids (case-insensitive): the earlier entry is flagged, the later wins', () => {
    const text = 'ci_access:\n  projects:\n    - id: Group/App\n    - id: group/app\n';
    const d = only(validateAgentConfig(text), 'config.duplicateId');
    assert.deepEqual(d.range, rangeOf(text, 'Group/App'));
    assert.match(d.message, /line 4/);
  });

  // docs/gitlab-behaviour.md#top-level-keys-and-list-limits
  test('more than 500 entries: warning on entry 501', () => {
    const entries = Array.from({ length: 502 }, (_, i) => `    - id: g/p${i}`).join('\n');
    const text = `ci_access:\n  projects:\n${entries}\n`;
    const d = only(validateAgentConfig(text), 'config.entryLimit');
    assert.equal(d.severity, 'warning');
    assert.deepEqual(d.range.start, rangeOf(text, 'id: g/p500').start);
    assert.match(d.message, /502 entries; GitLab honours only the first 500/);
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('files over 128 KiB are warned about', () => {
    const entries = Array.from({ length: 6000 }, (_, i) => `    - id: group/project-number-${i}`).join('\n');
    const d = only(validateAgentConfig(`ci_access:\n  projects:\n${entries}\n`), 'config.tooLarge');
    assert.match(d.message, /over 128 KiB/);
  });

  // docs/gitlab-behaviour.md#config-file-location-and-parsing
  test('agent directory names must be RFC 1123 labels', () => {
    const d = only(validateAgentConfig('{}\n', { agentName: 'My_Agent' }), 'config.agentName');
    assert.equal(d.severity, 'error');
    assert.deepEqual(validateAgentConfig('{}\n', { agentName: 'my-agent' }), []);
  });

  describe('compatibility target', () => {
    const text = 'ci_access:\n  projects:\n    - id: a/b\n      rules:\n        - namespace: x\n';
    // docs/gitlab-behaviour.md#ci_access-rules-design
    test('proposal (default) accepts the rules design', () => {
      assert.deepEqual(validateAgentConfig(text), []);
    });
    test('gitlab reports rules as a key GitLab would reject, saying which target', () => {
      const d = only(validateAgentConfig(text, { target: 'gitlab' }), 'target.unsupportedKey');
      assert.deepEqual(d.range, rangeOf(text, 'rules'));
      assert.match(d.message, /compatibility target: gitlab/);
    });
  });

  describe('bad input never throws and gets a sensible answer', () => {
    // docs/gitlab-behaviour.md#config-file-location-and-parsing
    test('empty file: information that the config is empty (empty file == empty config)', () => {
      const d = only(validateAgentConfig(''), 'config.empty');
      assert.equal(d.severity, 'information');
    });
    test('a document of only ---', () => {
      assert.deepEqual(validateAgentConfig('---\n').map((d) => d.code), ['config.empty']);
    });
    test('a scalar instead of a mapping', () => {
      const d = only(validateAgentConfig('just text\n'), 'schema.type');
      assert.match(d.message, /The configuration must be a mapping/);
    });
    test('random bytes', () => {
      let seed = 42;
      const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256);
      const bytes = Buffer.from(Array.from({ length: 64 * 1024 }, random));
      const diagnostics = validateAgentConfig(bytes.toString('utf8'));
      assert.ok(diagnostics.length > 0 && diagnostics.length <= 501);
      assert.ok(diagnostics.some((d) => d.severity === 'error'));
    });
    test('an alias bomb is refused, not expanded', () => {
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 12; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`);
      const diagnostics = validateAgentConfig(lines.join('\n') + '\n');
      assert.ok(diagnostics.some((d) => d.code === 'yaml.unreadable'), JSON.stringify(diagnostics.map((d) => d.code)));
    });
    test('a second YAML document is ignored by GitLab and says so', () => {
      const d = only(validateAgentConfig('ci_access: {}\n---\nfoo: 1\n'), 'yaml.extraDocument');
      assert.equal(d.range.start.line, 1);
    });
  });
});
