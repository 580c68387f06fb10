// The simulation matrix, end to end in a real VS Code (code-server): "Simulate CI Access" on the example opens the
// matrix beside the config (entries × scenarios, the real context name); typing in the filter hides
// the other entries; a click on a cell, and Enter on a cell reached with the arrow keys, put the
// editor's cursor on the line that decided it; an edit of the config re-renders the view with the
// filter kept; "Check in cluster" shows what the cluster lets each authorized identity do.
// Screenshots: simulation-matrix.png, simulation-matrix-filtered.png, simulation-matrix-rbac.png (test-output/e2e).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { clusterEnv, grantCiJobsDeployments } from '../cluster/harness';
import { e2eOutputDir, launchWorkbench, repoRoot, type Workbench } from './harness';

const CONFIG = '.gitlab/agents/production-agent/config.yaml';
const LINES = readFileSync(path.join(repoRoot, 'examples', CONFIG), 'utf8').split('\n');
/** 1-based line and column of the first non-blank character of the first line containing `text`. */
const at = (text: string) => {
  const index = LINES.findIndex((l) => l.includes(text));
  assert.ok(index >= 0, text);
  return { line: index + 1, column: LINES[index].search(/\S/) + 1 };
};

let wb: Workbench;
let view: Frame;

before(async () => {
  // The project's local control plane (already running under the e2e suite) is the connected cluster.
  const env = await clusterEnv();
  wb = await launchWorkbench({ workspaceFolder: path.join(repoRoot, 'examples'), settings: { 'gitlabAgentConfig.configProjectPath': 'acme/infra/agents', 'gitlabAgentConfig.cluster.kubeconfig': env.kubeconfig } });
  await wb.openFile(CONFIG);
  await wb.runCommand('GitLab Agent: Simulate CI Access');
  view = await matrixFrame(60_000);
});

after(async () => {
  await wb?.close();
});

const cursor = () => wb.page.locator('[id="status.editor.selection"]');
const waitForCursor = (line: number, column: number) => cursor().filter({ hasText: new RegExp(`^\\s*Ln ${line}, Col ${column}\\b`) }).waitFor({ timeout: 15_000 });

/** The webview renders in nested iframes: the one holding the matrix, once the server's data is in. */
async function matrixFrame(timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of wb.page.frames()) {
      const ready = await frame.evaluate("!!document.querySelector('table.matrix td.cell')").catch(() => false);
      if (ready) return frame;
    }
    await wb.page.waitForTimeout(200);
  }
  throw new Error('no webview shows the simulation matrix');
}

/** The workbench as the user sees it (the view in the default split), and the view's own content. */
async function screenshots(name: string): Promise<void> {
  await wb.screenshot(name);
  await view.locator('body').screenshot({ path: path.join(e2eOutputDir, `${name}-view.png`) });
}

test('the matrix shows every entry × scenario with the real context name', async () => {
  const text = await view.locator('body').innerText();
  await screenshots('simulation-matrix');
  assert.match(text, /acme\/infra\/agents:production-agent/);
  assert.doesNotMatch(text, /<agent configuration project>/);
  assert.deepEqual(await view.locator('table.matrix thead th').allInnerTexts(), ['entry', 'default branch → production', 'feature branch → review app', 'tag release', 'merge request pipeline']);
  assert.equal(await view.locator('table.matrix tbody tr[data-text]').count(), 3);
  assert.match(await view.locator('table.matrix tbody tr[data-text]').nth(1).innerText(), /acme\/shop\/payments[\s\S]*payments-production/);
  // The last column's problems and denials are inside the view's width (not off-screen in the split).
  const width = await view.evaluate('document.documentElement.clientWidth');
  const right = await view.evaluate("Math.max(...[...document.querySelectorAll('table.matrix td.cell')].map((c) => c.getBoundingClientRect().right))");
  assert.ok(Number(right) <= Number(width) + 1, `cells end at ${String(right)} px in a view ${String(width)} px wide`);
  // Nothing but this page's own style and script may load, and nothing left the machine.
  assert.match(String(await view.evaluate("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content")), /^default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+';$/);
  assert.deepEqual(wb.externalRequests, [], 'the browser reached only loopback');
});

test("a code lens opens the view at its entry's row", async () => {
  await wb.page.locator('.codelens-decoration a', { hasText: 'payments-production' }).first().click();
  const current = view.locator('table.matrix tr.current th.entry');
  await current.waitFor({ timeout: 15_000 });
  assert.match(await current.innerText(), /acme\/shop\/payments/);
  assert.equal(await view.locator('table.matrix tr.current').count(), 1);
});

test('scrolled down, the filter bar and the scenario header row stay in sight', async () => {
  await view.evaluate('window.scrollTo(0, 160)');
  const [bar, header] = (await view.evaluate("[document.getElementById('bar'), document.querySelector('table.matrix thead th')].map((e) => e.getBoundingClientRect().top)")) as number[];
  await view.evaluate('window.scrollTo(0, 0)');
  assert.ok(Math.abs(bar) < 1, `the bar's top at ${bar} px`);
  assert.ok(header > 0 && header < 120, `the header row's top at ${header} px`);
});

test('typing in the filter keeps only the matching entries', async () => {
  await view.locator('#filter').fill('payments');
  await view.locator('#count').filter({ hasText: '1 of 3 entries' }).waitFor({ timeout: 5_000 });
  await screenshots('simulation-matrix-filtered');
  const shown = await view.locator('table.matrix tbody tr:not([hidden]) th.entry').allInnerTexts();
  assert.equal(shown.length, 1);
  assert.match(shown[0], /project acme\/shop\/payments/);
});

test('a click on a cell puts the cursor on the rule that decided it', async () => {
  // payments × default branch: rule 1 (`- if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH`) matches.
  const rule = at('- if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH');
  await view.locator('table.matrix tbody tr:not([hidden]) td.cell').first().click();
  await waitForCursor(rule.line, rule.column);
});

test('arrow keys and Enter reach a cell from the keyboard', async () => {
  // From payments' entry cell: down is hidden by the filter, so clear it first; then down to the
  // group entry, right to its first scenario, Enter: the group's entry line (no rules there).
  await view.locator('#filter').fill('');
  const payments = view.locator('table.matrix th.entry').filter({ hasText: 'acme/shop/payments' });
  await payments.focus();
  for (const key of ['ArrowDown', 'ArrowRight', 'Enter']) await view.locator(':focus').press(key);
  const group = at('- id: acme/platform');
  await waitForCursor(group.line, group.column);
});

test('an edit re-renders the view in place: the filter and the scroll position stay', async (t) => {
  const line = at('default_namespace: storefront');
  t.after(() => wb.screenshot('simulation-matrix-edit-final-state').then(() => undefined));
  // The config's editor group is made active again after each use of the view (typing in the filter makes the view's group active).
  const backToEditor = () => wb.page.locator('.tab[aria-label^="config.yaml"]').first().click();
  await view.locator('#filter').fill('storefront');
  await backToEditor();
  await wb.replaceLine(line.line, '      default_namespace: storefront-next');
  await view.locator('table.matrix code').filter({ hasText: 'storefront-next' }).first().waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('#filter').inputValue(), 'storefront');
  assert.equal(await view.locator('table.matrix tbody tr:not([hidden])').count(), 1);

  // Unfiltered, the pipeline's jobs make the page taller than the view: scrolled down, an edit keeps the place.
  await view.locator('#filter').fill('');
  await view.evaluate('window.scrollTo(0, 150)');
  await backToEditor();
  await wb.replaceLine(line.line, '      default_namespace: storefront');
  await view.locator('table.matrix code', { hasText: /^storefront$/ }).first().waitFor({ timeout: 30_000 });
  assert.equal(await view.evaluate('window.scrollY'), 150);
});

test('Check in cluster shows what each authorized identity may do in its namespace', async (t) => {
  // A Role in storefront for every CI job (group gitlab:ci_job): the storefront cells may deploy there.
  await grantCiJobsDeployments('storefront', 'e2e-matrix', t);

  await view.locator('#filter').fill('');
  // The view has caught up with the restored example (the check asks about the cells shown).
  await view.locator('table.matrix code', { hasText: /^storefront$/ }).first().waitFor({ timeout: 30_000 });
  await view.locator('button[data-action="check"]').click();
  const answered = view.locator('table.matrix td.cell .rbac');
  await answered.first().waitFor({ timeout: 60_000 });
  await view.locator('#head .status').waitFor({ timeout: 60_000 });
  await screenshots('simulation-matrix-rbac');
  const storefront = view.locator('table.matrix tbody tr[data-text]').filter({ has: view.locator('th.entry', { hasText: 'acme/shop/storefront' }) });
  // The storefront-next edit of the previous test may have been undone or not: the namespace is read from the cell.
  const first = await storefront.locator('td.cell').first().innerText();
  assert.match(first, /☸ can deploy · \d+ refused/, first);
  // The whole sentence below the matrix, with the cells it answers for.
  const answers = await view.locator('.answers ul').innerText();
  assert.match(answers, /project acme\/shop\/storefront × default branch → production[\s\S]*in storefront as ci_job: can deploy, cannot read secrets/);
  // The agent's own ServiceAccount (payments) is never asked; the impersonated user is.
  assert.equal(await view.locator('table.matrix tbody tr[data-text]').filter({ hasText: 'acme/shop/payments' }).locator('.rbac').count(), 0);
  assert.match(answers, /group acme\/platform × default branch → production[^\n]*\nin every namespace \(the job has none\) as \w+: /);
});

test('scenarios added in the workspace settings show as columns, the entry column stays when scrolled sideways; Edit CI Scenarios opens the Workspace tab', async () => {
  const scenarios = [
    { name: 'hotfix → staging', ref: 'hotfix/pay', environmentName: 'staging' },
    { name: 'scheduled nightly rebuild of the review environments of every merge request', ref: 'main', pipelineSource: 'schedule', environmentName: 'review/nightly' },
    { name: 'release candidate', ref: 'v2.0.0-rc1', isTag: true, protectedRef: true, environmentName: 'staging' },
    { name: 'fork merge request', ref: 'feature/x', isMergeRequest: true, fromFork: true },
  ];
  mkdirSync(path.join(wb.workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(wb.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'gitlabAgentConfig.scenarios': scenarios }, null, 2));
  await view.locator('table.matrix thead th', { hasText: 'fork merge request' }).waitFor({ timeout: 30_000 });
  // Eight scenarios do not fit the split: the matrix scrolls sideways under the entry column.
  await view.evaluate('window.scrollTo(300, 0)');
  const [scrolled, entryLeft, barLeft] = (await view.evaluate(
    "[window.scrollX, ...[document.querySelector('table.matrix th.entry'), document.getElementById('bar')].map((e) => e.getBoundingClientRect().left)]",
  )) as number[];
  await wb.screenshot('simulation-matrix-wide');
  await view.evaluate('window.scrollTo(0, 0)');
  assert.ok(scrolled > 0, 'the matrix is wider than the view');
  assert.ok(Math.abs(entryLeft) < 1, `the entry column's left at ${entryLeft} px`);
  assert.ok(barLeft >= 0 && barLeft < 20, `the filter bar's left at ${barLeft} px`);
  await view.locator('button[data-action="editScenarios"]').click();
  const tabs = wb.page.locator('.settings-editor .settings-tabs-widget .action-item');
  await tabs.first().waitFor({ timeout: 30_000 });
  await wb.page.locator('.settings-editor .setting-item-contents').filter({ hasText: 'Scenarios' }).first().waitFor({ timeout: 30_000 });
  await wb.screenshot('simulation-matrix-edit-scenarios');
  const checked = await wb.page.locator('.settings-editor .settings-tabs-widget .action-item .action-label.checked').allInnerTexts();
  assert.deepEqual(checked.map((t) => t.trim()), ['Workspace']);
});
