import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { agentConfigAjv, validatorKey } from '../../../server/src/engine/config/agentConfigSchema';
import type { CompatibilityTarget } from '../../../server/src/engine/gitlab/compatibilityTarget';
import { NEWEST_GITLAB_VERSION } from '../../../server/src/engine/gitlab/gitlabVersions';
import { standaloneValidatorsModule } from '../../../server/src/build/standaloneValidators';
import { agentConfigSchemaFor } from '../../../server/src/engine/config/versionedSchema';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { environmentTemplateAjv, environmentTemplateSchema, TEMPLATE_VALIDATOR_KEY } from '../../../server/src/engine/template/diagnostics/templateSchema';
import { generateVariedAgentConfig, seededRandom } from '../../support/generateConfig';

const root = path.resolve(import.meta.dirname, '../../..');

/** The module the build puts in the bundles, loaded as the bundle would run it. */
function precompiled(): Record<string, ValidateFunction> {
  const module = { exports: {} as { PRECOMPILED_VALIDATORS?: Record<string, ValidateFunction> } };
  new Function('module', 'exports', 'require', standaloneValidatorsModule())(module, module.exports, createRequire(path.join(root, 'package.json')));
  return module.exports.PRECOMPILED_VALIDATORS!;
}

/** Values that reach every keyword of ours: unknown, removed and proposal keys, values that fail later, wrong types. */
function values(): unknown[] {
  const random = seededRandom(3);
  const texts = [
    readFileSync(path.join(root, 'examples/.gitlab/agents/production-agent/config.yaml'), 'utf8'),
    readFileSync(path.join(root, 'examples/.gitlab/agents/broken-agent/config.yaml'), 'utf8'),
    ...[1, 2, 3, 4].map((seed) => generateVariedAgentConfig(15, seed)),
    'starboard:\n  vulnerability_report:\n    namespaces: [a]\n',
    'container_scanning:\n  cadence: "0 0 * * * *"\nobservability:\n  logging:\n    level: loud\n',
    'ci_access:\n  projects:\n    - id: a/b\n      rules:\n        - if: $A == "1"\n          namespace: x\n',
    'gitops:\n  manifest_projects:\n    - id: a/b\n',
    'remote_development:\n  enabled: yes\n  dns_zone: 7\n',
    '',
    '- a\n- b\n',
  ];
  const out: unknown[] = texts.map((text) => parseYaml(text).value);
  // Random scalars in random places of a valid config.
  for (let i = 0; i < 200; i++) {
    const base = parseYaml(generateVariedAgentConfig(3, i)).value as Record<string, Record<string, unknown[]>>;
    const entry = base.ci_access.projects[0] as Record<string, unknown>;
    const keys = ['id', 'default_namespace', 'access_as', 'environments', 'protected_branches_only', 'rules', 'resource_management', 'unknown'];
    const pick = [1, 'x', true, null, [], {}, ['a'], { ci_job: {} }, 'Bad_NS'][Math.floor(random() * 9)];
    entry[keys[Math.floor(random() * keys.length)]] = pick;
    out.push(base);
  }
  return out;
}

describe('the validators compiled ahead of time (ajv standalone, in the bundles) equal the ones compiled at run time', () => {
  const ahead = precompiled();
  for (const target of ['proposal', 'gitlab'] as CompatibilityTarget[]) {
    it(`target ${target}: same verdict and the same errors on ${values().length} values`, () => {
      const key = validatorKey(target, NEWEST_GITLAB_VERSION);
      const standalone = ahead[key];
      assert.ok(standalone, `no precompiled validator for ${key}`);
      const runtime = agentConfigAjv(target).compile(agentConfigSchemaFor(NEWEST_GITLAB_VERSION));
      let failing = 0;
      for (const [i, value] of values().entries()) {
        const valid = runtime(value);
        assert.equal(standalone(value), valid, `verdict on value ${i}`);
        assert.deepEqual(standalone.errors ?? null, runtime.errors ?? null, `errors on value ${i}`);
        if (!valid) failing++;
      }
      assert.ok(failing > 50, `only ${failing} values had errors`);
    });
  }
});

/** Environment templates read as data (the fixtures and the example), and the same with a random value put in a random place. */
function templateValues(): unknown[] {
  const random = seededRandom(5);
  const fixtures = path.join(root, 'test/fixtures/templates');
  const texts = [readFileSync(path.join(root, 'examples/.gitlab/agents/production-agent/environment_templates/default.yaml'), 'utf8'), ...readdirSync(fixtures).map((name) => readFileSync(path.join(fixtures, name), 'utf8'))];
  const out: unknown[] = texts.map((text) => parseYaml(text).value);
  const picks = [1, 'x', true, null, [], {}, ['a'], { kind: 'ConfigMap' }, { apiVersion: 7 }];
  for (let i = 0; i < 200; i++) {
    const value = structuredClone(out[i % texts.length]) as Record<string, unknown>;
    const keys = [...Object.keys(value), 'unknown', 'objects', 'environment', 'agent', 'kind'];
    value[keys[Math.floor(random() * keys.length)]!] = picks[Math.floor(random() * picks.length)];
    out.push(value);
  }
  return out;
}

describe('the environment template validator compiled ahead of time equals the one compiled at run time', () => {
  it('same verdict and the same errors', () => {
    const standalone = precompiled()[TEMPLATE_VALIDATOR_KEY];
    assert.ok(standalone, 'no precompiled template validator');
    const runtime = environmentTemplateAjv().compile(environmentTemplateSchema);
    let failing = 0;
    for (const [i, value] of templateValues().entries()) {
      const valid = runtime(value);
      assert.equal(standalone(value), valid, `verdict on value ${i}`);
      assert.deepEqual(standalone.errors ?? null, runtime.errors ?? null, `errors on value ${i}`);
      if (!valid) failing++;
    }
    assert.ok(failing > 50, `only ${failing} values had errors`);
  });
});
