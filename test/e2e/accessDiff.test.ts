// The access diff, end to end in a real VS Code (code-server): "Compare CI Access with Branch…" on a git
// repository whose work tree loosens an agent's access reads the chosen branch's agent files
// through VS Code's git extension and shows the access diff (screenshot), with a lens on the entry.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchWorkbench, repoRoot, type Workbench } from './harness';

const CONFIG = '.gitlab/agents/production-agent/config.yaml';
let wb: Workbench;
let repository: string;

before(async () => {
  // A repository with the example on main, and a work tree that authorizes one more project,
  // acme/shop/newsletter (without an environments filter): every situation gains access.
  repository = mkdtempSync(path.join(tmpdir(), 'agentcfg-e2e-diff-'));
  cpSync(path.join(repoRoot, 'examples'), repository, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', repository, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args]);
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'example');
  git('checkout', '-q', '-b', 'loosen-payments');
  const file = path.join(repository, CONFIG);
  writeFileSync(file, readFileSync(file, 'utf8').replace('\n  groups:', '\n    - id: acme/shop/newsletter\n      default_namespace: newsletter\n  groups:'));
  wb = await launchWorkbench({ workspaceFolder: repository, settings: { 'gitlabAgentConfig.configProjectPath': 'acme/infra/agents', 'git.enabled': true } });
});

after(async () => {
  await wb?.close();
  rmSync(repository, { recursive: true, force: true });
});

test('Compare CI Access with Branch… shows what the work tree grants compared with main', async () => {
  await wb.openFile(CONFIG);
  const { page } = wb;
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  // The command, then the branch it asks for (the git extension needs a moment to find the repository).
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('F1');
    await page.keyboard.insertText('Compare CI Access with Branch');
    await rows.filter({ hasText: 'Compare CI Access with Branch' }).first().click();
    const main = rows.filter({ hasText: /^main/ }).first();
    try {
      await main.waitFor({ timeout: 15_000 });
      await main.click();
      break;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (attempt === 3) throw err;
    }
  }
  const frame = await waitForFrameText(page, /acme\/shop\/newsletter/, 60_000);
  await wb.screenshot('access-diff-compare');
  await frame.handle.locator('body').screenshot({ path: path.join(repoRoot, 'test-output', 'e2e', 'access-diff-compare-preview.png') });
  assert.match(frame.text, /gained/i);
  assert.match(frame.text, /newsletter/);
  // The lens on the changed entry, back in the config's editor.
  await wb.openFile(CONFIG);
  const lens = page.locator('.codelens-decoration').filter({ hasText: 'vs main' }).first();
  await lens.waitFor({ state: 'attached', timeout: 30_000 });
  await wb.screenshot('access-diff-lens');
  assert.match(await lens.innerText(), /vs main/);
});

/** The markdown preview renders in nested iframes: read their text until it matches. */
async function waitForFrameText(page: Workbench['page'], pattern: RegExp, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    for (const handle of page.frames()) {
      if (handle === page.mainFrame()) continue;
      try {
        last = String(await handle.evaluate('document.body ? document.body.innerText : ""'));
      } catch {
        continue;
      }
      if (pattern.test(last)) return { text: last, handle };
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no frame matched ${pattern}; last text: ${last.slice(0, 400)}`);
}
