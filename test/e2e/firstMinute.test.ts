// "The first minute": the examples workspace with exactly the settings `npm start` writes
// (scripts/lib/example-workspace.mjs, imported, not copied), a fresh VS Code profile (nothing
// remembered), the real test control plane. Opening production-agent's config and running "Apply
// Environment" from the palette asks nothing but the confirmation beside the diff; applying creates
// the review app's namespace. Screenshot: first-minute-apply-confirm.png.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CoreV1Api } from '@kubernetes/client-node';
import { environmentSlug } from '../../server/src/engine/vars/slug';
import { clusterEnv, kubeConfig, statusCode, waitUntilDeleted, type ClusterEnv } from '../cluster/harness';
import { launchWorkbench, repoRoot, type Workbench } from './harness';

interface ExampleWorkspace {
  exampleWorkspaceSettings(kubeconfig: string): Record<string, string | number>;
  writeWorkspaceSettings(folder: string, settings: Record<string, unknown>): () => void;
}

// The default namespace of the agent, home of the inventories (no setting says otherwise in the example).
const AGENT_NAMESPACE = 'gitlab-agent';

let wb: Workbench;
let env: ClusterEnv;
let settings: Record<string, string | number>;
let namespace: string;
let tmp: string;
let agentNamespaceExisted = true;
let inventoriesBefore = new Set<string>();

const core = async () => (await kubeConfig('admin')).makeApiClient(CoreV1Api);

async function configMapNames(): Promise<Set<string>> {
  const list = await (await core()).listNamespacedConfigMap({ namespace: AGENT_NAMESPACE }).catch(() => ({ items: [] }));
  return new Set(list.items.map((c) => c.metadata!.name!));
}

/** The example's review namespace (and its inventory) from an earlier run on this test cluster: the first Apply must create it. */
async function removeNamespace(): Promise<void> {
  const api = await core();
  const deleted = await api.deleteNamespace({ name: namespace }).then(
    () => true,
    (err: unknown) => {
      if (statusCode(err) !== 404) throw err;
      return false;
    },
  );
  if (deleted) await waitUntilDeleted(await kubeConfig('admin'), '/api/v1/namespaces', namespace, () => api.readNamespace({ name: namespace }));
}

before(async () => {
  env = await clusterEnv();
  const lib = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'lib', 'example-workspace.mjs')).href)) as ExampleWorkspace;
  settings = lib.exampleWorkspaceSettings(env.kubeconfig);
  // The default template's namespace: `<environment slug>-<project id>-<agent id>` of the scenario npm start names.
  namespace = `${environmentSlug('review/feature-login')}-${settings['gitlabAgentConfig.cluster.projectId']}-${settings['gitlabAgentConfig.cluster.agentId']}`;
  await removeNamespace();
  agentNamespaceExisted = await (await core()).readNamespace({ name: AGENT_NAMESPACE }).then(
    () => true,
    () => false,
  );
  inventoriesBefore = await configMapNames();

  tmp = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-first-minute-'));
  const folder = path.join(tmp, 'examples');
  cpSync(path.join(repoRoot, 'examples'), folder, { recursive: true });
  // What npm start does to examples/ (a .vscode/ of a running npm start, copied above, is overwritten key by key).
  lib.writeWorkspaceSettings(folder, settings);
  // No user settings: everything Apply needs comes from the workspace, as after npm start.
  wb = await launchWorkbench({ workspaceFolder: folder });
});

after(async () => {
  await wb?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  if (!env) return;
  await removeNamespace();
  const api = await core();
  if (!agentNamespaceExisted) await api.deleteNamespace({ name: AGENT_NAMESPACE }).catch(() => undefined);
  else for (const name of await configMapNames()) if (!inventoriesBefore.has(name)) await api.deleteNamespacedConfigMap({ namespace: AGENT_NAMESPACE, name }).catch(() => undefined);
});

test('after npm start, Apply Environment on the example asks only the confirmation', async (t) => {
  t.after(async () => {
    await wb?.screenshot('first-minute-final-state').catch(() => undefined);
  });
  await wb.page.locator('.statusbar-item[id$="gitlabAgentConfig.clusterContext"]').filter({ hasText: env.adminContext }).waitFor({ timeout: 60_000 });
  await wb.openFile('.gitlab/agents/production-agent/config.yaml');

  await wb.page.keyboard.press('F1');
  await wb.page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await wb.page.keyboard.insertText('GitLab Agent: Apply Environment');
  const command = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row[aria-label^="GitLab Agent: Apply Environment"]').first();
  await command.waitFor({ timeout: 60_000 });
  await command.click();

  // Either the confirmation comes, or a question does (every question Apply asks is titled "Apply environment…").
  const confirmation = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Review the diff' });
  const question = wb.page.locator('.quick-input-widget').filter({ hasText: /Apply environment/ });
  await Promise.race([confirmation.waitFor({ timeout: 120_000 }), question.waitFor({ state: 'visible', timeout: 120_000 })]);
  if (await question.isVisible()) assert.fail(`Apply asked: ${await question.innerText()}`);
  const text = await confirmation.innerText();
  await wb.page.locator('.tab.active').filter({ hasText: 'live ↔ proposed' }).waitFor({ timeout: 30_000 });
  await wb.page.locator('.monaco-diff-editor .modified .view-lines').filter({ hasText: namespace }).waitFor({ timeout: 30_000 });
  await wb.page.waitForFunction("[...document.querySelectorAll('.notifications-toasts .notification-toast')].every((e) => e.getAnimations({ subtree: true }).length === 0)");
  await wb.screenshot('first-minute-apply-confirm');
  assert.match(text, new RegExp(`Apply environment review/feature-login \\(.*\\) to ${env.adminContext} \\(create 2\\)\\?`));
  assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no modal');

  await confirmation.getByRole('button', { name: 'Apply', exact: true }).click();
  const result = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Apply environment \(/ });
  await result.waitFor({ timeout: 180_000 });
  assert.match(await result.innerText(), /2 created, 0 updated, 0 unchanged, 0 pruned/);
  const live = await (await core()).readNamespace({ name: namespace });
  assert.equal(live.metadata?.labels?.['agent.gitlab.com/id-1'], '', "GitLab's label for agent 1 (the example's id)");
});
