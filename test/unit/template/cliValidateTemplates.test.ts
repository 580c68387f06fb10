// `agentcfg validate` on environment templates and on a config with its template (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#built-in-default-template, docs/gitlab-behaviour.md#names):
// the same checks as the editor, files read from disk, the preset scenarios.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { agentcfg } from '../../support/cli';

describe('agentcfg validate: environment templates and the config/template pair', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-templates-'));
    const agent = path.join(dir, '.gitlab', 'agents', 'shop');
    mkdirSync(path.join(agent, 'environment_templates'), { recursive: true });
    writeFileSync(path.join(agent, 'config.yaml'), 'ci_access:\n  projects:\n    - id: acme/My_Shop\n      resource_management:\n        enabled: true\n');
    writeFileSync(
      path.join(agent, 'environment_templates', 'default.yaml'),
      'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .project.slug }}-{{ .environment.slug }}"\n      labels:\n        team: "{{ .group.name }}"\n',
    );
    // An agent without a template: GitLab uses its built-in one, which assumes ci_job (docs/gitlab-behaviour.md#built-in-default-template).
    mkdirSync(path.join(dir, '.gitlab', 'agents', 'bare'), { recursive: true });
    writeFileSync(path.join(dir, '.gitlab', 'agents', 'bare', 'config.yaml'), 'ci_access:\n  projects:\n    - id: acme/app\n      resource_management:\n        enabled: true\n');
    writeFileSync(path.join(agent, 'environment_templates', 'review.yaml'), 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: {{ .environment.slug }}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a directory: every template problem and the cross-file warnings (an unknown variable does not stop rendering), in compiler format', () => {
    const { code, stdout } = agentcfg('validate', dir);
    assert.equal(code, 1, stdout);
    const lines = stdout.trim().split('\n').map((l) => l.slice(dir.length + 1));
    assert.deepEqual(
      lines.map((l) => /^(.*?):(\d+):(\d+): (\w+): .*\[(.+)\]$/.exec(l)!.slice(1).join(' ')),
      [
        '.gitlab/agents/bare/config.yaml 5 18 warning crossFile.resourceManagementNeedsCiJob',
        '.gitlab/agents/shop/environment_templates/default.yaml 5 13 warning crossFile.invalidNamespace',
        '.gitlab/agents/shop/environment_templates/default.yaml 7 20 error template.unknownVariable',
        '.gitlab/agents/shop/environment_templates/review.yaml 1 1 warning template.ignoredFile',
        '.gitlab/agents/shop/environment_templates/review.yaml 5 13 error template.unquotedAction',
      ],
    );
  });

  test('a valid default template still gets the per-scenario namespace check', () => {
    const file = path.join(dir, '.gitlab/agents/shop/environment_templates/default.yaml');
    writeFileSync(file, 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .project.slug }}-{{ .environment.slug }}"\n');
    const { code, stdout } = agentcfg('validate', file, '--format', 'json');
    assert.equal(code, 0, 'warnings do not fail');
    const results = JSON.parse(stdout) as { code: string; severity: string; message: string }[];
    assert.deepEqual(results.map((r) => [r.code, r.severity]), [['crossFile.invalidNamespace', 'warning']]);
    assert.match(results[0].message, /renders as "My_Shop-production"/);
  });
});
