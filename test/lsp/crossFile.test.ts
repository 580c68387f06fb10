// config.yaml and environment_templates/default.yaml validated together over stdio (docs/gitlab-behaviour.md#managed-resources-availability,
// docs/gitlab-behaviour.md#built-in-default-template, docs/gitlab-behaviour.md#names): editing one file updates the other file's diagnostics without touching it.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';
import { BINDING_TEMPLATE } from '../support/templates';

const NEEDS_CI_JOB = 'crossFile.resourceManagementNeedsCiJob';
const INVALID_NAMESPACE = 'crossFile.invalidNamespace';
const has = (code: string) => (p: PublishDiagnosticsParams) => p.diagnostics.some((d) => d.code === code);
const lacks = (code: string) => (p: PublishDiagnosticsParams) => !p.diagnostics.some((d) => d.code === code);

describe('LSP over stdio: config and template checked together', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  // docs/gitlab-behaviour.md#managed-resources-availability, docs/gitlab-behaviour.md#built-in-default-template
  test('resource_management without ci_job warns (built-in template); the warning follows the template', async () => {
    const configUri = agentConfigUri('xf-impersonation');
    const templateUri = agentConfigUri('xf-impersonation', 'environment_templates/default.yaml');
    const config = 'ci_access:\n  projects:\n    - id: acme/app\n      resource_management:\n        enabled: true\n';
    const opened = await client.open(configUri, config);
    const warning = opened.diagnostics.find((d) => d.code === NEEDS_CI_JOB);
    assert.ok(warning, JSON.stringify(opened.diagnostics));
    assert.equal(warning.severity, 2);
    assert.deepEqual(warning.range, rangeOf(config, 'true'));
    assert.match(warning.message, /built-in default template/);

    // A custom template that grants rights to a fixed user no longer assumes ci_job: the config's warning goes.
    const configUpdate = client.nextDiagnostics(configUri, lacks(NEEDS_CI_JOB));
    await client.open(templateUri, BINDING_TEMPLATE.replace('kind: Group', 'kind: User').replace('"gitlab:project_env:{{ .project.id }}:{{ .environment.slug }}"', 'deployer'));
    await configUpdate;

    // Binding the CI job's group again brings it back, still without touching config.yaml.
    const back = client.nextDiagnostics(configUri, has(NEEDS_CI_JOB));
    await client.change(templateUri, BINDING_TEMPLATE);
    const warned = await back;
    assert.match(warned.diagnostics.find((d) => d.code === NEEDS_CI_JOB)!.message, /environment_templates\/default\.yaml grants rights/);

    // The quick fix sets access_as to ci_job.
    const diagnostic = warned.diagnostics.find((d) => d.code === NEEDS_CI_JOB)!;
    const [fix] = await client.codeActions(configUri, diagnostic);
    assert.equal(fix.title, 'Set access_as to ci_job');
    const edit = fix.edit!.changes![configUri][0];
    const fixed = await client.edit(configUri, edit.range, edit.newText);
    assert.deepEqual(fixed.diagnostics, []);

    // Diagnostic data comes back from the client: an edit that is not one offers no fix (never a broken edit).
    for (const data of [{ edit: {} }, { edit: { newText: 'ci_job: {}' } }, { edit: { range: diagnostic.range, newText: 3 } }, 'edit']) {
      const actions = await client.codeActions(configUri, { ...diagnostic, data });
      assert.deepEqual(actions, [], JSON.stringify(data));
    }
  });

  // docs/gitlab-behaviour.md#names
  test('a template namespace invalid for some scenario warns at the template line; fixing the project id in config.yaml clears it', async () => {
    const configUri = agentConfigUri('xf-namespace');
    const templateUri = agentConfigUri('xf-namespace', 'environment_templates/default.yaml');
    const config = 'ci_access:\n  projects:\n    - id: acme/My_App\n      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n';
    await client.open(configUri, config);
    const { diagnostics } = await client.open(templateUri, BINDING_TEMPLATE);
    const invalid = diagnostics.filter((d) => d.code === INVALID_NAMESPACE);
    assert.deepEqual(
      invalid.map((d) => d.range),
      [rangeOf(BINDING_TEMPLATE, '"{{ .project.slug }}-{{ .environment.slug }}"'), rangeOf(BINDING_TEMPLATE, '"{{ .project.slug }}-{{ .environment.slug }}"', 1)],
    );
    assert.match(invalid[0].message, /renders as "My_App-production"/);
    assert.match(invalid[0].message, /scenario "default branch → production" \(project acme\/My_App\)/);

    const cleared = client.nextDiagnostics(templateUri, lacks(INVALID_NAMESPACE));
    await client.change(configUri, config.replace('My_App', 'my-app'));
    await cleared;
  });

  test('a template only on disk counts too, and a change on disk (didChangeWatchedFiles) re-checks the open config', async () => {
    const configUri = agentConfigUri('xf-disk');
    const templatePath = fileURLToPath(agentConfigUri('xf-disk', 'environment_templates/default.yaml'));
    mkdirSync(path.dirname(templatePath), { recursive: true });
    writeFileSync(templatePath, BINDING_TEMPLATE);
    try {
      const opened = await client.open(configUri, 'ci_access:\n  projects:\n    - id: acme/app\n      resource_management:\n        enabled: true\n');
      assert.match(opened.diagnostics.find((d) => d.code === NEEDS_CI_JOB)?.message ?? '', /environment_templates\/default\.yaml grants rights/);

      writeFileSync(templatePath, BINDING_TEMPLATE.replace('kind: Group', 'kind: User').replace('"gitlab:project_env:{{ .project.id }}:{{ .environment.slug }}"', 'deployer'));
      const updated = client.nextDiagnostics(configUri, lacks(NEEDS_CI_JOB));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(templatePath).href, type: 2 }] });
      await updated;
    } finally {
      rmSync(path.dirname(path.dirname(templatePath)), { recursive: true, force: true });
    }
  });

  test('a config only on disk counts for the open template, and a change on disk (didChangeWatchedFiles) re-checks it', async () => {
    const configPath = fileURLToPath(agentConfigUri('xf-disk-config'));
    const templateUri = agentConfigUri('xf-disk-config', 'environment_templates/default.yaml');
    const config = 'ci_access:\n  projects:\n    - id: acme/My_App\n      access_as:\n        ci_job: {}\n      resource_management:\n        enabled: true\n';
    mkdirSync(path.dirname(configPath), { recursive: true });
    writeFileSync(configPath, config);
    try {
      const opened = await client.open(templateUri, BINDING_TEMPLATE);
      assert.match(opened.diagnostics.find((d) => d.code === INVALID_NAMESPACE)?.message ?? '', /renders as "My_App-production"/);

      writeFileSync(configPath, config.replace('My_App', 'my-app'));
      const cleared = client.nextDiagnostics(templateUri, lacks(INVALID_NAMESPACE));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(configPath).href, type: 2 }] });
      await cleared;
    } finally {
      rmSync(path.dirname(configPath), { recursive: true, force: true });
    }
  });

  // docs/gitlab-behaviour.md#opting-in-to-managed-resources
  test('a template no authorization uses says so (information)', async () => {
    const configUri = agentConfigUri('xf-unused');
    await client.open(configUri, 'ci_access:\n  projects:\n    - id: acme/app\n');
    const { diagnostics } = await client.open(agentConfigUri('xf-unused', 'environment_templates/default.yaml'), BINDING_TEMPLATE.replace(/\{\{ \.project\.slug \}\}-/g, ''));
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [['crossFile.templateUnused', 3]]);
  });
});
