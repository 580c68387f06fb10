// Issue 5, end to end in a real VS Code (code-server) against the real test control plane: "Apply
// Environment" from the palette picks the cluster context, the template and a scenario, shows the
// server-side dry-run in the diff editor, asks for confirmation, applies, and the namespace exists
// (checked with @kubernetes/client-node). Screenshots: apply-diff.png, apply-confirm.png, apply-result.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CoreV1Api, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions } from '@kubernetes/client-node';
import { environmentSlug } from '../../server/src/engine/vars/slug';
import { clusterEnv, kubeConfig, statusCode, waitUntilDeleted, type ClusterEnv } from '../cluster/harness';
import { launchWorkbench, repoRoot, type Workbench } from './harness';

const AGENT_ID = 4242;
const PROJECT_ID = Number(String(Date.now()).slice(-6));
const ENVIRONMENT = 'review/e2e-apply';
// The default template's namespace: `<environment slug>-<project id>-<agent id>` (docs/gitlab-behaviour.md#built-in-default-template, slug docs/gitlab-behaviour.md#ref-and-environment-slugs).
const NAMESPACE = `${environmentSlug(ENVIRONMENT)}-${PROJECT_ID}-${AGENT_ID}`;
const TEMPLATE = '.gitlab/agents/production-agent/environment_templates/default.yaml';
// The inventories' home for this run (created by the apply, removed by the test; the tool never deletes it).
const AGENT_NAMESPACE = `e2e-agent-${Date.now().toString(36)}`;

let wb: Workbench;
let env: ClusterEnv;

before(async () => {
  env = await clusterEnv();
  wb = await launchWorkbench({
    workspaceFolder: path.join(repoRoot, 'examples'),
    settings: {
      'gitlabAgentConfig.cluster.kubeconfig': env.kubeconfig,
      'gitlabAgentConfig.cluster.agentNamespace': AGENT_NAMESPACE,
      'gitlabAgentConfig.cluster.agentId': AGENT_ID,
      'gitlabAgentConfig.cluster.projectId': PROJECT_ID,
      'gitlabAgentConfig.configProjectPath': 'acme/infra/agents',
      'gitlabAgentConfig.usePresetScenarios': false,
      'gitlabAgentConfig.scenarios': [{ name: 'e2e review app', ref: 'feature/e2e', environmentName: ENVIRONMENT, projectPath: 'acme/shop/app' }],
    },
  });
});

after(async () => {
  await wb?.close();
  if (env) {
    const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
    for (const name of [NAMESPACE, AGENT_NAMESPACE]) {
      await core.deleteNamespace({ name }).catch((err: unknown) => {
        if (statusCode(err) !== 404) throw err;
      });
    }
  }
});

/** Waits for the quick input to list a row whose label starts with `label`, and picks it. */
async function pick(label: string): Promise<void> {
  const row = wb.page.locator(`.quick-input-widget .quick-input-list .monaco-list-row[aria-label^="${label.replace(/["\\]/g, '\\$&')}"]`).first();
  await row.waitFor({ timeout: 60_000 });
  await row.click();
}

/** Runs a palette command. Not wb.runCommand: it waits for the palette to close, and here the next quick pick opens at once. */
async function paletteCommand(title: string): Promise<void> {
  await wb.page.keyboard.press('F1');
  await wb.page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await wb.page.keyboard.insertText(title);
  await pick(title);
}

test('Apply Environment: context, template, scenario → diff editor → confirm → the namespace exists', async (t) => {
  t.after(async () => {
    // What the workbench showed when it ended (useful when a step timed out).
    await wb?.screenshot('apply-final-state').catch(() => undefined);
  });
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await assert.rejects(core.readNamespace({ name: NAMESPACE }), (err: unknown) => statusCode(err) === 404, 'the namespace does not exist before');

  await wb.openFile(TEMPLATE);
  await paletteCommand('GitLab Agent: Apply Environment');
  // No context selected yet: the picker lists the kubeconfig's contexts (through the server).
  await pick(env.adminContext);
  await wb.page.locator('.statusbar-item[id$="gitlabAgentConfig.clusterContext"]').filter({ hasText: env.adminContext }).waitFor({ timeout: 30_000 });
  await pick(TEMPLATE);
  await pick('e2e review app');

  // The server-side dry-run, shown as a diff: live (nothing yet) ↔ proposed.
  const diffTab = wb.page.locator('.tab.active').filter({ hasText: 'live ↔ proposed' });
  await diffTab.waitFor({ timeout: 120_000 });
  const diff = wb.page.locator('.monaco-diff-editor').first();
  await diff.waitFor();
  await diff.locator('.modified .view-lines').filter({ hasText: NAMESPACE }).waitFor({ timeout: 30_000 });
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  const dialogText = await dialog.innerText();
  await wb.screenshot('apply-diff');
  assert.match(dialogText, /Create:/);
  assert.match(dialogText, new RegExp(`Namespace ${NAMESPACE}`));
  assert.match(dialogText, /RoleBinding/);
  const proposed = await diff.locator('.modified .view-lines').innerText();
  // docs/gitlab-behaviour.md#managed-object-labels-and-annotation
  assert.match(proposed, /agent\.gitlab\.com\/id-4242/, 'the proposed objects carry GitLab labels');

  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Apply environment \(/ });
  await toast.waitFor({ timeout: 180_000 });
  // The progress notification closes when the server answered; then the result stands alone.
  await wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'applying to' }).waitFor({ state: 'hidden', timeout: 30_000 });
  const message = await toast.innerText();
  await wb.screenshot('apply-result');
  assert.doesNotMatch(message, /failed/i, message);
  assert.match(message, /2 created, 0 updated, 0 unchanged, 0 pruned/);

  const namespace = await core.readNamespace({ name: NAMESPACE });
  assert.equal(namespace.status?.phase, 'Active');
  assert.ok(Object.keys(namespace.metadata?.labels ?? {}).includes(`agent.gitlab.com/id-${AGENT_ID}`));
  const rbac = (await kubeConfig('admin')).makeApiClient(RbacAuthorizationV1Api);
  const bindings = await rbac.listNamespacedRoleBinding({ namespace: NAMESPACE });
  assert.deepEqual(bindings.items.map((b) => b.metadata?.name), [`bind-${AGENT_ID}-${PROJECT_ID}-${environmentSlug(ENVIRONMENT)}`]);
});

test('a field another manager took over needs a second, explicit confirmation to force', async (t) => {
  t.after(async () => {
    await wb?.screenshot('force-final-state').catch(() => undefined);
  });
  const label = `agent.gitlab.com/id-${AGENT_ID}`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.patchNamespace(
    { name: NAMESPACE, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE, labels: { [label]: 'theirs' } } }, fieldManager: 'someone-else', force: true },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );

  await wb.focusEditor();
  await paletteCommand('GitLab Agent: Apply Environment');
  await pick(TEMPLATE); // the context is remembered: no context picker this time
  await pick('e2e review app');
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.filter({ hasText: 'Update:' }).waitFor({ timeout: 120_000 });
  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  const force = dialog.filter({ hasText: 'Take them over (force)?' });
  await force.waitFor({ timeout: 30_000 });
  assert.match(await force.innerText(), new RegExp(`Namespace ${NAMESPACE}: fields owned by "someone-else"`));
  await wb.screenshot('apply-force-confirm');
  await force.getByRole('button', { name: 'Force Apply', exact: true }).click();

  const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /0 created, 1 updated, 1 unchanged/ });
  await toast.waitFor({ timeout: 180_000 });
  const live = await core.readNamespace({ name: NAMESPACE });
  assert.equal(live.metadata?.labels?.[label], '', 'our value again');
});

test('the Cluster view lists the environment; its inline Delete shows the plan, asks again for the namespace\'s kubectl-made object, then removes the namespace', async (t) => {
  t.after(async () => {
    await wb?.screenshot('cluster-view-final-state').catch(() => undefined);
  });
  const kc = await kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  await core.readNamespace({ name: NAMESPACE }); // applied by the previous test
  // Made by hand, not by the environment: deleting the namespace takes it along, so the user is asked again.
  await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'kubectl-made' }, data: { a: 'b' } } });

  await wb.page.locator('.activitybar .action-item a[aria-label^="GitLab Agent"]').first().click();
  const row = wb.page.locator('.monaco-list-row').filter({ hasText: ENVIRONMENT }).filter({ hasText: 'Ready' });
  await row.waitFor({ timeout: 60_000 });
  assert.match(await row.innerText(), new RegExp(`Ready · 2 objects · ${NAMESPACE}`));
  await wb.screenshot('cluster-view');

  await row.hover();
  await row.locator('.action-label[aria-label="Delete Environment Resources"]').click();
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 60_000 });
  const text = await dialog.innerText();
  assert.match(text, /Delete 3 objects of environment inventory/);
  assert.ok(text.indexOf(`RoleBinding ${NAMESPACE}/`) < text.indexOf(`Namespace ${NAMESPACE}`), 'reverse order: the RoleBinding before its Namespace');
  await wb.screenshot('delete-confirm');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  const others = wb.page.locator('.monaco-dialog-box').filter({ hasText: 'Delete them too?' });
  await others.waitFor({ timeout: 60_000 });
  assert.match(await others.innerText(), new RegExp(`Deleting the namespace also deletes 1 object this environment did not create\\. Delete them too\\?[\\s\\S]*ConfigMap ${NAMESPACE}/kubectl-made\\n`));
  await wb.screenshot('delete-others-confirm');
  await others.getByRole('button', { name: 'Delete Them Too', exact: true }).click();

  const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Delete environment resources \(/ });
  await toast.waitFor({ timeout: 180_000 });
  assert.match(await toast.innerText(), /2 deleted; inventory deleted/);
  await waitUntilDeleted(kc, '/api/v1/namespaces', NAMESPACE, () => core.readNamespace({ name: NAMESPACE }));
  await row.waitFor({ state: 'detached', timeout: 30_000 });
  await wb.screenshot('delete-result');
});
