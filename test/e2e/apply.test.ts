// Applying and deleting an environment, end to end in a real VS Code (code-server) against the real test control plane:
// "Apply Environment" from the palette takes the kubeconfig's current context (shown in the status
// bar), the open agent's template and the one scenario, shows the server-side dry-run in the diff
// editor with its confirmation beside it (a notification, not a modal), applies, closes the stale
// diff, and the namespace exists (checked with @kubernetes/client-node). Then: the RBAC section of
// the hover, and a 403 as one message. Screenshots: status-bar-current-context.png, apply-diff.png,
// apply-result.png, hover-rbac.png, apply-forbidden.png, delete-confirm.png.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CoreV1Api, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions } from '@kubernetes/client-node';
import { environmentSlug } from '../../server/src/engine/vars/slug';
import { clusterEnv, grantCiJobsDeployments, kubeConfig, statusCode, waitUntilDeleted, type ClusterEnv } from '../cluster/harness';
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

  // The kubeconfig's current-context is selected by default and shown, before any command.
  const status = wb.page.locator('.statusbar-item[id$="gitlabAgentConfig.clusterContext"]').filter({ hasText: env.adminContext });
  await status.waitFor({ timeout: 60_000 });
  await wb.screenshot('status-bar-current-context');

  await wb.openFile(TEMPLATE);
  await paletteCommand('GitLab Agent: Apply Environment');
  // Nothing else is asked: the context is the current one, the template the open agent's, the one
  // scenario with an environment is taken, the ids come from the settings.

  // The server-side dry-run, shown as a diff: live (nothing yet) ↔ proposed, with its confirmation beside it.
  const diffTab = wb.page.locator('.tab.active').filter({ hasText: 'live ↔ proposed' });
  await diffTab.waitFor({ timeout: 120_000 });
  const diff = wb.page.locator('.monaco-diff-editor').first();
  await diff.waitFor();
  await diff.locator('.modified .view-lines').filter({ hasText: NAMESPACE }).waitFor({ timeout: 30_000 });
  const confirmation = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Review the diff' });
  await confirmation.waitFor({ timeout: 30_000 });
  assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no modal covers the diff');
  const confirmationText = await confirmation.innerText();
  await wb.screenshot('apply-diff');
  assert.match(confirmationText, new RegExp(`to ${env.adminContext} \\(create 2\\)\\?`));
  const proposed = await diff.locator('.modified .view-lines').innerText();
  // docs/gitlab-behaviour.md#managed-object-labels-and-annotation
  assert.match(proposed, /agent\.gitlab\.com\/id-4242/, 'the proposed objects carry GitLab labels');

  await confirmation.getByRole('button', { name: 'Apply', exact: true }).click();
  const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Apply environment \(/ });
  await toast.waitFor({ timeout: 180_000 });
  // The progress notification closes when the server answered; then the result stands alone.
  await wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'applying to' }).waitFor({ state: 'hidden', timeout: 30_000 });
  const message = await toast.innerText();
  await wb.screenshot('apply-result');
  assert.doesNotMatch(message, /failed/i, message);
  assert.match(message, /2 created, 0 updated, 0 unchanged, 0 pruned/);
  // The diff showed the state before applying: it is closed, not left stale.
  await wb.page.locator('.tab').filter({ hasText: 'live ↔ proposed' }).waitFor({ state: 'detached', timeout: 30_000 });

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
  const confirmation = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /\(update 1\)\? Review the diff/ });
  await confirmation.waitFor({ timeout: 120_000 });
  await confirmation.getByRole('button', { name: 'Apply', exact: true }).click();
  const dialog = wb.page.locator('.monaco-dialog-box');
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
  // The safe button has the focus, not the destructive one.
  assert.equal(await wb.page.evaluate('document.activeElement && document.activeElement.textContent'), 'Keep');
  await wb.screenshot('delete-confirm');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  const others = wb.page.locator('.monaco-dialog-box').filter({ hasText: 'Delete them too?' });
  await others.waitFor({ timeout: 60_000 });
  assert.match(await others.innerText(), new RegExp(`Deleting the namespace also deletes 1 object this environment did not create\\. Delete them too\\?[\\s\\S]*ConfigMap ${NAMESPACE}/kubectl-made\\n`));
  await wb.screenshot('delete-others-confirm');
  await others.getByRole('button', { name: 'Delete Them Too', exact: true }).click();

  const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Delete environment resources \(/ });
  // Progress reads naturally: never "deleting: deleting".
  assert.doesNotMatch(await wb.page.locator('.notifications-toasts').innerText(), /deleting: deleting/);
  await toast.waitFor({ timeout: 180_000 });
  assert.match(await toast.innerText(), /2 deleted; inventory deleted/);
  await waitUntilDeleted(kc, '/api/v1/namespaces', NAMESPACE, () => core.readNamespace({ name: NAMESPACE }));
  await row.waitFor({ state: 'detached', timeout: 30_000 });
  await wb.screenshot('delete-result');
});

test('the hover on default_namespace says what a job may do there, asked of the cluster (RBAC preview)', async (t) => {
  t.after(async () => {
    await wb?.screenshot('hover-rbac-final-state').catch(() => undefined);
  });
  // The example's storefront entry: ci_job in namespace storefront; a Role there for every CI job.
  await grantCiJobsDeployments('storefront', 'e2e-deployer', t);

  // The built-in scenarios (deploys of acme/shop/storefront among them), in the workspace settings file as a person would.
  mkdirSync(path.join(wb.workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(wb.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'gitlabAgentConfig.usePresetScenarios': true }, null, 2));

  await wb.openFile('.gitlab/agents/production-agent/config.yaml');
  const section = wb.page.locator('.monaco-hover').filter({ hasText: 'What the job may do in the cluster' });
  // Line 5: `      default_namespace: storefront`; hovered again until the new settings are in force.
  let text = '';
  for (let attempt = 0; attempt < 20 && !(await section.count()); attempt++) {
    await wb.page.keyboard.press('Escape');
    text = await wb.hoverAt(5, 8, 60_000);
    await section.waitFor({ timeout: 5_000 }).catch(() => undefined);
  }
  await section.waitFor({ timeout: 30_000 });
  // The hover fades in: the screenshot waits until it is drawn in full.
  await wb.page.waitForFunction("[...document.querySelectorAll('.monaco-hover')].every((e) => getComputedStyle(e).opacity === '1' && e.getAnimations({ subtree: true }).length === 0)");
  const shown = await section.innerText();
  await wb.screenshot('hover-rbac');
  assert.match(text + shown, /What the job may do in the cluster/);
  assert.match(shown, new RegExp(`SubjectAccessReview, the kubeconfig's current context`));
  assert.match(shown, /in storefront as ci_job: can deploy, cannot read secrets/);
});

test('a 403 is one message naming the verb, resource and identity, with what to do in the editor', async (t) => {
  t.after(async () => {
    await wb?.screenshot('apply-forbidden-final-state').catch(() => undefined);
  });
  await wb.page.keyboard.press('Escape');
  await paletteCommand('GitLab Agent: Select Cluster Context');
  await pick(env.restrictedContext);
  await wb.page.locator('.statusbar-item[id$="gitlabAgentConfig.clusterContext"]').filter({ hasText: env.restrictedContext }).waitFor({ timeout: 30_000 });
  await wb.openFile(TEMPLATE);
  await paletteCommand('GitLab Agent: Apply Environment');
  const errors = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Apply environment: .*403 Forbidden/ });
  // Several scenarios now (the built-in ones): the one applied last is listed first.
  const scenarioRow = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row[aria-label^="e2e review app"]').first();
  await Promise.race([scenarioRow.waitFor({ timeout: 60_000 }), errors.first().waitFor({ timeout: 60_000 })]);
  if (await scenarioRow.isVisible()) await scenarioRow.click();
  await errors.first().waitFor({ timeout: 120_000 });
  const message = await errors.first().innerText();
  // The planning progress has gone and the message has slid in: the screenshot shows it whole.
  await wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'planning' }).waitFor({ state: 'hidden', timeout: 30_000 });
  await wb.page.waitForFunction("[...document.querySelectorAll('.notifications-toasts .notification-toast')].every((e) => e.getAnimations({ subtree: true }).length === 0 && getComputedStyle(e).opacity === '1')");
  await wb.screenshot('apply-forbidden');
  assert.equal(await errors.count(), 1, 'one message');
  assert.match(message, /agentcfg-restricted/);
  // The operation named once, then the environment (it used to read "Apply environment: Applying environment …").
  assert.match(message, /Apply environment: review\/e2e-[^:]+ \([^)]+\): nothing was changed — the cluster refused .*403 Forbidden/);
  assert.match(message, /may not|cannot/);
  assert.doesNotMatch(message, /--kubeconfig|--context|Pass /);
});
