// "Know where you stand" and "first run", end to end in a real VS Code (code-server) on the
// examples workspace: the language status of an agent file shows the target, the GitLab version, the
// server's state and the cluster context, and its quick picks write the setting where it lives; the
// walkthrough opens from the palette and its buttons work; the output channel holds no library
// warnings. Screenshots in test-output/e2e/.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { clusterEnv, type ClusterEnv } from '../cluster/harness';
import { launchWorkbench, repoRoot, type Workbench } from './harness';

const BROKEN = '.gitlab/agents/broken-agent/config.yaml';

let wb: Workbench;
let env: ClusterEnv;

before(async () => {
  env = await clusterEnv();
  wb = await launchWorkbench({
    workspaceFolder: path.join(repoRoot, 'examples'),
    settings: {
      'gitlabAgentConfig.configProjectPath': 'acme/infra',
      'gitlabAgentConfig.cluster.kubeconfig': env.kubeconfig,
      // Set in the user settings: switching it must write there, not to the workspace.
      'gitlabAgentConfig.target': 'gitlab',
    },
  });
  await wb.openFile(BROKEN);
  await wb.waitForProblem((p) => /defualt_namespace/.test(p.message), 60_000);
});

after(async () => {
  await wb?.close();
});

const statusHover = () => wb.page.locator('.monaco-hover').filter({ has: wb.page.locator('.hover-language-status') });

/** Opens the `{}` language status beside the language mode; resolves with each item's text once `expected` are all shown. */
async function languageStatus(expected: RegExp[], timeoutMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await wb.page.keyboard.press('Escape');
    await wb.page.locator('[id="status.languageStatus"] a').click();
    await statusHover().waitFor({ state: 'visible' });
    const items = (await statusHover().locator('.hover-language-status .element .left').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    if (expected.every((re) => items.some((item) => re.test(item)))) return items;
    if (Date.now() > deadline) throw new Error(`the language status shows:\n${items.join('\n')}`);
    await wb.page.waitForTimeout(250);
  }
}

/** Clicks the action of the status item whose text matches, then picks `value` in its quick pick. */
async function switchTo(item: RegExp, value: string): Promise<void> {
  const row = statusHover().locator('.hover-language-status').filter({ has: wb.page.locator('.left', { hasText: item }) });
  await row.locator('a.monaco-link').click();
  const quickInput = wb.page.locator('.quick-input-widget');
  await quickInput.locator('input').waitFor({ state: 'visible' });
  await wb.page.keyboard.insertText(value);
  await quickInput.locator(`.quick-input-list .monaco-list-row[aria-label^="${value}"]`).first().waitFor();
  await wb.page.keyboard.press('Enter');
  await quickInput.waitFor({ state: 'hidden' });
}

function jsonFile(file: string): Record<string, unknown> {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
}

/** The file's JSON, or null while it is being written (VS Code truncates settings.json before writing it: a read can see it empty or cut short). */
function jsonFileOrNull(file: string): Record<string, unknown> | null {
  try {
    return jsonFile(file);
  } catch (e) {
    if (e instanceof SyntaxError) return null;
    throw e;
  }
}

async function waitForSetting(file: string, key: string, value: unknown): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (jsonFileOrNull(file)?.[key] !== value) {
    if (Date.now() > deadline) throw new Error(`${file} has no ${key}: ${JSON.stringify(value)}:\n${existsSync(file) ? readFileSync(file, 'utf8') : '(missing)'}`);
    await wb.page.waitForTimeout(100);
  }
}

test('the language status shows target, GitLab version, server state and cluster context; Switch writes the setting where it lives', async () => {
  const items = await languageStatus([/^Target: GitLab/, /^GitLab 19\.5/, /^Server ready/, new RegExp(env.adminContext)], 60_000);
  await wb.screenshot('language-status');
  // In this order: what the file is checked against first.
  assert.deepEqual(items, ['Target: GitLab exactly what GitLab ships', 'GitLab 19.5 files are checked as this release reads them', 'Server ready', `${env.adminContext} cluster context`]);

  // The version is set nowhere: the choice goes to the workspace, and the server follows it at once
  // (`gitops` is a deprecation warning before 17.11, an error from 18.0).
  await switchTo(/^GitLab /, '17.10');
  await waitForSetting(path.join(wb.workspace, '.vscode', 'settings.json'), 'gitlabAgentConfig.gitlabVersion', '17.10');
  await wb.waitForProblem((p) => p.line === 18 && /gitops/.test(p.message) && p.severity === 'warning', 30_000);
  await languageStatus([/^GitLab 17\.10/]);

  // The target is set in the user settings: it is switched there, the workspace keeps no copy.
  await switchTo(/^Target: /, 'proposal');
  await waitForSetting(path.join(wb.userDataDir, 'User', 'settings.json'), 'gitlabAgentConfig.target', 'proposal');
  assert.equal(jsonFile(path.join(wb.workspace, '.vscode', 'settings.json'))['gitlabAgentConfig.target'], undefined);
  await languageStatus([/^Target: proposal/]);
  await wb.page.keyboard.press('Escape');
});

test('the walkthrough opens from "Welcome: Open Walkthrough..." with its four steps; opening a config and simulating from its buttons complete theirs', async () => {
  // The command asks which walkthrough in a second quick pick (so not wb.runCommand, which waits for the first to close).
  const rows = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await wb.page.keyboard.press('F1');
  await wb.page.keyboard.insertText('Welcome: Open Walkthrough...');
  await rows.and(wb.page.locator('[aria-label^="Welcome: Open Walkthrough..."]')).first().click();
  await rows.and(wb.page.locator('[aria-label^="GitLab Agent Config"]')).first().click();
  const page = wb.page.locator('.gettingStartedContainer');
  await page.locator('.getting-started-category h2', { hasText: 'GitLab Agent Config' }).waitFor({ state: 'visible', timeout: 30_000 });
  const steps = (await page.locator('.getting-started-step .step-title').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(steps, ['Open an agent configuration', 'See a problem', 'Simulate CI access', 'Connect a cluster']);

  // Each step's button, as a new user clicks them: open an agent configuration from Quick Open (the
  // first step is expanded)…
  await page.getByRole('button', { name: 'Open Agent Configuration', exact: true }).click();
  await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row[aria-label^=".gitlab/agents/production-agent/config.yaml"]').click();
  await wb.page.locator('.tab.active[aria-label^="config.yaml"]').waitFor();
  // …back to the walkthrough, and simulate: Simulate finds the agent configuration in its tab.
  await wb.page.locator('.tab', { hasText: 'Walkthrough' }).click();
  await page.locator('.getting-started-step', { hasText: 'Simulate CI access' }).click();
  await page.getByRole('button', { name: 'Simulate CI Access', exact: true }).click();
  await wb.page.locator('.tab[aria-label^="CI access"]').first().waitFor({ timeout: 30_000 });
  const done = page.locator('.getting-started-step[aria-checked="true"] .step-title');
  await done.filter({ hasText: 'Simulate CI access' }).waitFor({ timeout: 10_000 });
  assert.deepEqual((await done.allInnerTexts()).map((t) => t.trim()), ['Open an agent configuration', 'Simulate CI access']);
  // The screenshot shows the whole walkthrough: the simulation and the panel closed.
  await wb.page.locator('.tab[aria-label^="CI access"] .tab-actions a').click();
  await wb.runCommand('View: Hide Panel');
  await wb.page.locator('.tab', { hasText: 'Walkthrough' }).click();
  await page.locator('.getting-started-step', { hasText: 'Connect a cluster' }).click();
  await page.getByRole('button', { name: 'Select Cluster Context', exact: true }).waitFor({ state: 'visible' });
  // The step's media is markdown in a webview (an iframe in an iframe).
  await wb.page.frameLocator('.getting-started-media iframe').frameLocator('iframe').getByText('Operate the cluster side').waitFor({ timeout: 10_000 });
  await wb.screenshot('walkthrough');
});

test('the output channel has no warning lines', async () => {
  // A hover and the cluster's RBAC answer run the server's hover and cluster paths too.
  await wb.page.locator('.tab', { hasText: 'broken-agent' }).click();
  await wb.hoverAt(5, 8);
  await wb.runCommand('GitLab Agent: Show Output');
  const outputs = path.join(wb.userDataDir, 'logs');
  const channel = readdirSync(outputs, { recursive: true }).map(String).find((f) => /output_logging_[^/]+\/\d+-GitLab Agent Config\.log$/.test(f));
  assert.ok(channel, 'no log file of the "GitLab Agent Config" output channel');
  const lines = readFileSync(path.join(outputs, channel), 'utf8').split('\n').filter(Boolean);
  await wb.screenshot('output-channel');
  assert.ok(lines.includes('Language server started'), lines.join('\n'));
  assert.deepEqual(lines.filter((line) => /warn|deprecat|\(node:\d+\)/i.test(line)), []);
});
