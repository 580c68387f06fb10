// The editor experience, end to end in a real VS Code (code-server): completion appears while a key is typed (no
// Ctrl+Space), code lenses stay while a half-typed line breaks the YAML, and the if: hover shows
// each variable's value per scenario. Screenshots in test-output/e2e/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchWorkbench, type Workbench } from './harness';

const CONFIG = '.gitlab/agents/demo/config.yaml';
const TEXT = `ci_access:
  projects:
    - id: acme/shop/web
      rules:
        - if: $CI_COMMIT_TAG =~ /^v/ && $DEPLOY_APPROVED == "yes"
          namespace: releases
    - id: acme/shop/api
      default_namespace: api
      access_as:
        ci_job: {}
`;

let wb: Workbench;
let fixture: string;

before(async () => {
  fixture = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-e2e-experience-'));
  const folder = path.join(fixture, 'demo-project');
  mkdirSync(path.join(folder, '.gitlab', 'agents', 'demo'), { recursive: true });
  writeFileSync(path.join(folder, CONFIG), TEXT);
  wb = await launchWorkbench({ workspaceFolder: folder, settings: { 'gitlabAgentConfig.configProjectPath': 'acme/infra' } });
  await wb.openFile(CONFIG);
});

after(async () => {
  await wb?.close();
  rmSync(fixture, { recursive: true, force: true });
});

const lenses = () => wb.page.locator('.codelens-decoration');

test('code lenses stay while a half-typed line breaks the YAML; the edited entry says it is invalid', async () => {
  await lenses().filter({ hasText: 'CI access: 4/4 scenarios authorized · api' }).first().waitFor({ state: 'attached', timeout: 60_000 });
  const before = await lenses().allTextContents();
  assert.equal(before.length, 2, before.join('\n'));
  // The first entry's namespace is being retyped with a quote not yet closed: the file cannot be read as YAML.
  await wb.replaceLine(6, '          namespace: "rel');
  try {
    await wb.waitForProblem((p) => /quote/i.test(p.message), 60_000);
    // The user keeps typing in the broken value. Reading the Problems panel moved the focus there,
    // and VS Code cancels a pending code lens request when the editor loses focus
    // (codelensController: onDidBlurEditorText → scheduler.cancel()), so type in the editor again.
    await wb.goTo(6, 26);
    await wb.page.keyboard.type('ea', { delay: 150 });
    await lenses()
      .filter({ hasText: 'invalid: GitLab would reject this file' })
      .first()
      .waitFor({ state: 'attached', timeout: 30_000 })
      .catch(async (err: unknown) => {
        await wb.screenshot('lenses-stable-while-typing-failed');
        throw new Error(`lenses: ${(await lenses().allTextContents()).join(' | ')}`, { cause: err });
      });
    const during = await lenses().allTextContents();
    await wb.screenshot('lenses-stable-while-typing');
    assert.equal(during.length, 2, during.join('\n'));
    assert.ok(during.some((t) => t === 'CI access: 4/4 scenarios authorized · api'), during.join('\n'));
    assert.ok(during.some((t) => /^CI access: invalid: GitLab would reject this file · YAML syntax error on line \d+$/.test(t)), during.join('\n'));
  } finally {
    // Undo the line for the next tests, also when this one failed.
    await wb.replaceLine(6, '          namespace: releases');
    await wb.waitForNoProblem((p) => /quote/i.test(p.message), 60_000);
  }
});

test('the if: hover shows each variable per scenario and notes a variable no scenario sets', async () => {
  const text = await wb.hoverAt(5, 16).catch(async (err: unknown) => {
    await wb.screenshot('if-hover-failed');
    throw err;
  });
  await wb.screenshot('if-hover-with-values');
  assert.match(text, /\$CI_COMMIT_TAG = "v1\.2\.0"/);
  assert.match(text, /\$DEPLOY_APPROVED = unset/);
  assert.match(text, /\$DEPLOY_APPROVED is set in no scenario/);
});

test('typing a key shows completion by itself (quick suggestions), without the word list', async () => {
  // A new line under the second entry's access_as, dedented to the entry's keys, then `prot` typed.
  await wb.goTo(10, 19);
  await wb.page.keyboard.press('Enter');
  await wb.page.keyboard.press('Backspace');
  await wb.page.keyboard.type('prot', { delay: 80 });
  const widget = wb.page.locator('.editor-widget.suggest-widget.visible');
  await widget.locator('.monaco-list-row[aria-label^="protected_branches_only"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  const rows = await widget.locator('.monaco-list-row').allInnerTexts();
  await wb.screenshot('completion-while-typing-key');
  // Word-based suggestions are off in agent files: no words of the document (e.g. "releases") appear.
  assert.ok(!rows.some((r) => /\breleases\b/.test(r)), rows.join('\n'));
  await wb.page.keyboard.press('Escape');
});
