/** Document links from resource_management to environment_templates/default.yaml (docs/gitlab-behaviour.md#environment-template-file), over stdio. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import type { DocumentLink } from 'vscode-languageserver-protocol';
import { LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

const CONFIG = `ci_access:
  projects:
    - id: acme/app
      resource_management:
        enabled: true
    - id: acme/web
  groups:
    - id: acme/platform
      resource_management:
        enabled: false
`;

let client: LspTestClient;
let workspace: string;
const agentDir = (agent: string) => path.join(workspace, '.gitlab', 'agents', agent);

before(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-links-'));
  mkdirSync(path.join(agentDir('with-template'), 'environment_templates'), { recursive: true });
  writeFileSync(path.join(agentDir('with-template'), 'environment_templates', 'default.yaml'), 'objects: []\n');
  mkdirSync(agentDir('without-template'), { recursive: true });
  client = await LspTestClient.start({ workspaceFolder: workspace });
});

after(async () => {
  await client.stop();
  rmSync(workspace, { recursive: true, force: true });
});

async function links(agent: string, text: string): Promise<DocumentLink[]> {
  const uri = pathToFileURL(path.join(agentDir(agent), 'config.yaml')).href;
  await client.open(uri, text);
  return client.request<DocumentLink[]>('textDocument/documentLink', { textDocument: { uri } });
}

test('each resource_management key links to the agent’s environment_templates/default.yaml', async () => {
  const found = await links('with-template', CONFIG);
  const target = pathToFileURL(path.join(agentDir('with-template'), 'environment_templates', 'default.yaml')).href;
  assert.deepEqual(
    found.map((l) => [l.range, l.target]),
    [
      [rangeOf(CONFIG, 'resource_management', 0), target],
      [rangeOf(CONFIG, 'resource_management', 1), target],
    ],
  );
  assert.match(found[0]!.tooltip ?? '', /Open environment_templates\/default\.yaml/);
});

// docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#built-in-default-template
test('without the file the tooltip says GitLab uses the built-in default template', async () => {
  const found = await links('without-template', CONFIG);
  assert.equal(found.length, 2);
  assert.equal(found[0]!.target, pathToFileURL(path.join(agentDir('without-template'), 'environment_templates', 'default.yaml')).href);
  assert.match(found[0]!.tooltip ?? '', /built-in default template/);
});

test('no resource_management, no links', async () => {
  assert.deepEqual(await links('no-resource-management', 'ci_access:\n  projects:\n    - id: acme/app\n'), []);
});

test('a config whose URI is not a local path here (file://host/share off Windows): no links, and no error', { skip: process.platform === 'win32' }, async () => {
  const uri = 'file://fileserver/share/.gitlab/agents/remote/config.yaml';
  await client.open(uri, CONFIG);
  assert.deepEqual(await client.request<DocumentLink[]>('textDocument/documentLink', { textDocument: { uri } }), []);
});
