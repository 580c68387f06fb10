// The schema's exact formats and cross-field rules (docs/gitlab-behaviour.md#agent-configuration-file, docs/gitlab-behaviour.md#names), through the same
// validation the editor and the CLI run, plus the server-side rules JSON Schema cannot express.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import schema from '../../../schemas/agent-config.schema.json';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import type { EngineDiagnostic } from '../../../server/src/engine/diagnostics';
import { rangeOf } from '../../support/ranges';

function codes(text: string): string[] {
  return validateAgentConfig(text).map((d) => d.code);
}

function only(text: string, code: string): EngineDiagnostic {
  const found = validateAgentConfig(text).filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code} in ${JSON.stringify(validateAgentConfig(text), null, 1)}`);
  return found[0];
}

const egress = (cidr: string) => `remote_development:\n  network_policy:\n    egress:\n      - allow: "${cidr}"\n`;

// docs/gitlab-behaviour.md#remote_development-settings
describe('CIDRs in network_policy.egress: IPv4 and IPv6, with a prefix valid for the family', () => {
  const valid = ['0.0.0.0/0', '10.0.0.0/8', '192.168.1.0/24', '255.255.255.255/32', '::/0', 'fd00::/8', '2001:db8::/32', '2001:0db8:0000:0000:0000:0000:0000:0001/128', '::ffff:10.0.0.0/104', 'fe80::1:2:3/64'];
  const invalid = ['10.0.0.0', '10.0.0.0/33', '256.0.0.0/8', '10.0.0/8', '10.0.0.0/-1', '2001:db8::1/129', '2001:db8:::/32', '2001:db8::g/32', '1:2:3:4:5:6:7:8:9/64', 'fd00::/', 'any'];
  for (const cidr of valid) test(`valid: ${cidr}`, () => assert.deepEqual(codes(egress(cidr)), []));
  for (const cidr of invalid) {
    test(`invalid: ${cidr}`, () => {
      const text = egress(cidr);
      const d = only(text, 'schema.format.cidr');
      assert.deepEqual(d.range, rangeOf(text, `"${cidr}"`));
      assert.match(d.message, /CIDR notation/);
    });
  }
});

// docs/gitlab-behaviour.md#remote_development-settings
describe('remote_development cross-field rules', () => {
  test('max_resources_per_workspace must be {} with shared_namespace: error on the key', () => {
    const text = 'remote_development:\n  shared_namespace: ws\n  max_resources_per_workspace:\n    requests: {cpu: "1", memory: 1Gi}\n    limits: {cpu: "2", memory: 2Gi}\n';
    const d = only(text, 'schema.crossField');
    assert.deepEqual(d.range, rangeOf(text, 'max_resources_per_workspace'));
    assert.match(d.message, /must be `\{\}` when `shared_namespace` is set/);
    assert.deepEqual(codes('remote_development:\n  shared_namespace: ws\n  max_resources_per_workspace: {}\n'), []);
    assert.deepEqual(codes('remote_development:\n  shared_namespace: ""\n  max_resources_per_workspace:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 2, memory: 2Gi}\n'), []);
  });

  test('allow_privilege_escalation needs user namespaces or a runtime class: error on the value', () => {
    const text = 'remote_development:\n  allow_privilege_escalation: true\n';
    const d = only(text, 'schema.crossField');
    assert.deepEqual(d.range, rangeOf(text, 'true'));
    assert.deepEqual(codes('remote_development:\n  allow_privilege_escalation: true\n  use_kubernetes_user_namespaces: true\n'), []);
    assert.deepEqual(codes('remote_development:\n  allow_privilege_escalation: true\n  default_runtime_class: gvisor\n'), []);
    assert.deepEqual(codes('remote_development:\n  allow_privilege_escalation: false\n'), []);
  });

  test('dns_zone is required when workspaces are enabled, unless the proxy serves no HTTP', () => {
    const text = 'remote_development:\n  enabled: true\n';
    const d = only(text, 'schema.crossField');
    assert.deepEqual(d.range, rangeOf(text, 'remote_development'));
    assert.match(d.message, /`dns_zone` is required/);
    assert.deepEqual(codes('remote_development:\n  enabled: true\n  gitlab_workspaces_proxy:\n    http_enabled: false\n'), []);
    assert.deepEqual(codes('remote_development:\n  enabled: false\n'), []);
  });

  test('requests and limits are both required once either is set', () => {
    const text = 'remote_development:\n  default_resources_per_workspace_container:\n    requests: {cpu: 500m, memory: 1Gi}\n';
    const d = only(text, 'schema.missingKey');
    assert.match(d.message, /Missing required key "limits"/);
    assert.deepEqual(codes('remote_development:\n  default_resources_per_workspace_container: {}\n'), []);
  });

  test('the lifetimes add up to at most 8760 hours, the unset one taken at its default (744)', () => {
    const text = 'remote_development:\n  max_active_hours_before_stop: 8760\n';
    const d = only(text, 'config.workspaceLifetime');
    assert.deepEqual(d.range, rangeOf(text, '8760'));
    assert.match(d.message, /add up to 9504 hours .*max_stopped_hours_before_termination 744 \(the default\)/);
    const both = 'remote_development:\n  max_active_hours_before_stop: 5000\n  max_stopped_hours_before_termination: 3761\n';
    assert.deepEqual(validateAgentConfig(both).map((x) => [x.code, x.range]), [
      ['config.workspaceLifetime', rangeOf(both, '5000')],
      ['config.workspaceLifetime', rangeOf(both, '3761')],
    ]);
    assert.deepEqual(codes('remote_development:\n  max_active_hours_before_stop: 5000\n  max_stopped_hours_before_termination: 3760\n'), [], 'exactly 8760 is allowed');
  });

  test('image pull secrets: unique names; in the shared namespace when there is one', () => {
    const text = 'remote_development:\n  shared_namespace: ws\n  image_pull_secrets:\n    - {name: registry, namespace: ws}\n    - {name: registry, namespace: other}\n';
    const duplicate = only(text, 'config.duplicateImagePullSecret');
    assert.deepEqual(duplicate.range, rangeOf(text, 'registry', 1));
    const elsewhere = only(text, 'config.imagePullSecretNamespace');
    assert.deepEqual(elsewhere.range, rangeOf(text, 'other'));
    assert.equal(elsewhere.data?.replacement, 'ws');
    assert.deepEqual(codes('remote_development:\n  image_pull_secrets:\n    - {name: a, namespace: x}\n    - {name: b, namespace: z}\n'), []);
  });
});

// docs/gitlab-behaviour.md#names
describe('Kubernetes names and keys', () => {
  test('label and annotation keys: syntax and reserved prefixes, on the key', () => {
    const text = 'remote_development:\n  labels:\n    example.com/team: web\n    kubernetes.io/managed: x\n    "bad key": v\n  annotations:\n    ci.gitlab.com/owner: z\n';
    const diagnostics = validateAgentConfig(text);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range]),
      [
        ['schema.reservedKey', rangeOf(text, 'kubernetes.io/managed')],
        ['schema.format.labelKey', rangeOf(text, '"bad key"')],
        ['schema.reservedKey', rangeOf(text, 'ci.gitlab.com/owner')],
      ],
    );
  });

  test('label values: at most 63 characters of the allowed set', () => {
    const long = 'a'.repeat(64);
    const text = `remote_development:\n  labels:\n    team: "${long}"\n    ok: ""\n`;
    only(text, 'schema.tooLong');
    only('remote_development:\n  labels:\n    team: "-web"\n', 'schema.format.labelValue');
  });

  test('default_runtime_class is a DNS-1123 subdomain (no empty labels), empty allowed', () => {
    only('remote_development:\n  default_runtime_class: a..b\n', 'schema.format.dns1123Subdomain');
    assert.deepEqual(codes('remote_development:\n  default_runtime_class: kata.containers\n'), []);
    assert.deepEqual(codes('remote_development:\n  default_runtime_class: ""\n'), []);
  });

  test('quantities: Kubernetes syntax; container scanning wants strings (protobuf)', () => {
    only('remote_development:\n  default_resources_per_workspace_container:\n    requests: {cpu: 1x, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n', 'schema.format.quantity');
    only('container_scanning:\n  cadence: "0 18 * * *"\n  resource_requirements:\n    requests: {cpu: 0.5}\n', 'schema.type');
    assert.deepEqual(codes('container_scanning:\n  cadence: "0 18 * * *"\n  resource_requirements:\n    requests: {cpu: "0.5", memory: 500Mi, ephemeral_storage: 1Gi}\n'), []);
  });
});

describe('other formats', () => {
  // docs/gitlab-behaviour.md#container_scanning
  // docs/gitlab-behaviour.md#values-that-fail-later: GitLab's parser accepts it, the agent does not.
  test('cadence is a five-field cron expression (a warning: the agent fails on it later)', () => {
    assert.equal(only('container_scanning:\n  cadence: daily\n', 'schema.failsLater').severity, 'warning');
    assert.deepEqual(codes('container_scanning:\n  cadence: "0 13 * * 0"\n'), []);
  });

  // docs/gitlab-behaviour.md#observability-logging
  test('log levels accept the name or the protobuf number, and list names for a misspelt name', () => {
    assert.deepEqual(codes('observability:\n  logging:\n    level: 1\n'), []);
    const d = only('observability:\n  logging:\n    level: 7\n', 'schema.enum');
    assert.match(d.message, /must be one of 0, 1, 2, 3, got number 7/);
  });

  // docs/gitlab-behaviour.md#flux-webhook-receiver
  test('webhook_receiver_url is an http(s) URL or a service proxy path (a warning: the agent fails on it later)', () => {
    assert.equal(only('flux:\n  webhook_receiver_url: webhook-receiver\n', 'schema.failsLater').severity, 'warning');
    assert.deepEqual(codes('flux:\n  webhook_receiver_url: /api/v1/namespaces/flux-system/services/webhook-receiver/proxy\n'), []);
  });

  test('removed keys are tagged deprecated; only a drop-in successor is offered as a rename', () => {
    assert.deepEqual(only('starboard: {}\n', 'schema.removedKey').tags, ['deprecated']);
    assert.equal(only('starboard: {}\n', 'schema.removedKey').data?.renameTo, 'container_scanning');
    // docs/gitlab-behaviour.md#removed-keys
    assert.equal(only('gitops: {}\n', 'schema.removedKey').data?.renameTo, undefined, 'gitops → flux is not key for key');
  });
});

describe('the schema file itself, as other editors read it', () => {
  /** Every key anywhere in the schema: its path and subschema. */
  function* keys(node: Record<string, unknown>, path: string): Generator<[string, Record<string, unknown>]> {
    for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      yield [`${path}.${name}`, child];
      yield* keys(child, `${path}.${name}`);
      const items = child.items as Record<string, unknown> | undefined;
      if (items) yield* keys(items, `${path}.${name}[]`);
      const values = child.additionalProperties;
      if (values && typeof values === 'object') yield* keys(values as Record<string, unknown>, `${path}.${name}.*`);
    }
  }

  test('every key has a description and a markdownDescription (hover in any editor)', () => {
    const missing = [...keys(schema as Record<string, unknown>, '')].filter(([, s]) => typeof s.description !== 'string' || typeof s.markdownDescription !== 'string').map(([p]) => p);
    assert.deepEqual(missing, []);
  });

  // docs/gitlab-behaviour.md#agent-configuration-file
  test('defaults are machine-readable where GitLab documents one', () => {
    const root = schema as unknown as { properties: Record<string, { properties: Record<string, Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> }> }> };
    const rd = root.properties.remote_development.properties;
    assert.equal(rd.gitlab_workspaces_proxy.properties!.namespace.default, 'gitlab-workspaces');
    assert.equal(rd.max_active_hours_before_stop.default, 36);
    assert.equal(rd.max_stopped_hours_before_termination.default, 744, 'the code, not the docs prose (722)');
    assert.equal(rd.workspaces_quota.default, -1);
    assert.deepEqual(rd.network_policy.properties!.egress.default, [{ allow: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] }]);
    assert.equal(root.properties.observability.properties.logging.properties!.grpc_level.default, 'error');
    assert.equal(root.properties.container_scanning.properties.scanner_timeout.default, '300s');
    assert.equal(root.properties.flux.properties.webhook_receiver_url.default, 'http://webhook-receiver.flux-system.svc.cluster.local');
  });

  test('plain draft-07 validators (as yaml-language-server uses) apply the cross-field rules too', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    assert.equal(validate({ remote_development: { shared_namespace: 'ws', max_resources_per_workspace: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } } }), false);
    assert.equal(validate({ remote_development: { allow_privilege_escalation: true } }), false);
    assert.equal(validate({ remote_development: { enabled: true, dns_zone: 'ws.example.dev', shared_namespace: 'ws', max_resources_per_workspace: {} } }), true);
  });
});
