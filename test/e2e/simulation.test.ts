// Namespace previews and the simulation, end to end in a real VS Code (code-server): hovering a `namespace:` shows the resolved
// namespace per scenario in the hover widget; the Simulate CI Access view lists the outcomes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchWorkbench, repoRoot, type Workbench } from './harness';

const CONFIG = '.gitlab/agents/production-agent/config.yaml';
let wb: Workbench;

before(async () => {
  wb = await launchWorkbench({ workspaceFolder: path.join(repoRoot, 'examples'), settings: { 'gitlabAgentConfig.configProjectPath': 'acme/infra/agents' } });
});

after(async () => {
  await wb?.close();
});

test('hovering namespace: shows the resolved namespace per scenario', async () => {
  const lines = readFileSync(path.join(repoRoot, 'examples', CONFIG), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes('namespace: payments-$CI_ENVIRONMENT_SLUG')) + 1;
  const column = lines[line - 1].indexOf('namespace') + 3;
  await wb.openFile(CONFIG);
  const text = await wb.hoverAt(line, column, 60_000);
  await wb.screenshot('hover-namespace-preview');
  assert.match(text, /Resolved namespace per scenario/);
  assert.match(text, /default branch → production\s*payments-production\s*✓ valid/);
  // acme/shop/payments has protected_branches_only: the feature branch is refused before the rules.
  assert.match(text, /feature branch → review app\s*—\s*not reached: protected_branches_only is true and the ref is not protected/);
  assert.match(text, /tag release\s*—\s*rule 3 decides/);
});

test('Simulate CI Access opens the results view', async () => {
  await wb.focusEditor();
  await wb.runCommand('GitLab Agent: Simulate CI Access');
  const { text: frame, handle } = await waitForWebviewText(wb, /CI access|scenario/, 60_000);
  await wb.screenshot('simulate-ci-access-view');
  // Headless Chromium does not composite the out-of-process webview into page screenshots; capture the view's own content too.
  await handle.locator('body').screenshot({ path: path.join(repoRoot, 'test-output', 'e2e', 'simulate-ci-access-table.png') });
  assert.match(frame, /acme\/shop\/payments/);
  assert.match(frame, /payments-production/);
});

/** Webviews render in nested iframes; read their text until it matches. */
async function waitForWebviewText(workbench: Workbench, pattern: RegExp, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    for (const frame of workbench.page.frames()) {
      try {
        last = String(await frame.evaluate('document.body ? document.body.innerText : ""'));
      } catch {
        continue;
      }
      if (pattern.test(last) && /payments/.test(last)) return { text: last, handle: frame };
    }
    await workbench.page.waitForTimeout(200);
  }
  throw new Error(`no webview matched ${pattern}; last text: ${last.slice(0, 500)}`);
}
