// Completion and hover, end to end in a real VS Code (code-server): completion inserts a skeleton and a CI
// variable that the editor then holds; hover shows each key's documentation. Screenshots in
// test-output/e2e/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchWorkbench, type Workbench } from './harness';

const CONFIG = '.gitlab/agents/demo/config.yaml';
const TEMPLATE = '.gitlab/agents/demo/environment_templates/default.yaml';
const TEMPLATE_TEXT = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: ""
`;
const TEXT = `ci_access:
  projects:
    - id: acme/shop/web
      protected_branches_only: true
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: web-$CI_ENVIRONMENT_SLUG

  groups:
    - id: acme/platform
      resource_management:
        enabled: true
`;

let wb: Workbench;
let fixture: string;

before(async () => {
  fixture = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-e2e-completion-'));
  const folder = path.join(fixture, 'demo-project');
  mkdirSync(path.join(folder, '.gitlab', 'agents', 'demo', 'environment_templates'), { recursive: true });
  writeFileSync(path.join(folder, CONFIG), TEXT);
  writeFileSync(path.join(folder, TEMPLATE), TEMPLATE_TEXT);
  wb = await launchWorkbench({ workspaceFolder: folder });
  await wb.openFile(CONFIG);
});

after(async () => {
  await wb?.close();
  rmSync(fixture, { recursive: true, force: true });
});

/** What the page's window offers (the test is typed for Node, without DOM types). */
interface PageGlobals {
  getComputedStyle(element: unknown): { color: string };
}

const suggestWidget = () => wb.page.locator('.editor-widget.suggest-widget.visible');

/** Opens the suggest widget at the cursor (Ctrl+Space) and waits until `label` is the focused row (what Enter accepts). */
async function suggest(label: string): Promise<void> {
  const row = suggestWidget().locator(`.monaco-list-row.focused[aria-label^="${label.replace(/["\\]/g, '\\$&')}"]`).first();
  const deadline = Date.now() + 60_000;
  // Asked before the language server is ready, the widget says "No suggestions": ask again.
  for (;;) {
    await wb.page.keyboard.press('Control+Space');
    try {
      await row.waitFor({ state: 'visible', timeout: 3_000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) {
        await wb.screenshot(`completion-failed-${label.replace(/\W/g, '_')}`);
        throw err;
      }
      await wb.page.keyboard.press('Escape');
    }
  }
}

/** The text of a rendered editor line (non-breaking spaces as spaces); the cursor stays where it is. */
async function lineText(line: number): Promise<string> {
  const rendered = wb.page.locator('.editor-group-container.active .monaco-editor .view-line');
  const texts = await rendered.allInnerTexts();
  const tops = await rendered.evaluateAll((nodes) => nodes.map((n) => Number.parseFloat((n as { style: { top: string } }).style.top)));
  // Rendered lines are absolutely positioned; order them by their top to count lines.
  const ordered = texts.map((t, i) => [tops[i]!, t.replace(/\u00a0/g, ' ')] as const).sort((a, b) => a[0] - b[0]);
  const first = await firstVisibleLine();
  return ordered[line - first]?.[1] ?? '';
}

/**
 * Waits until rendered line `line` matches `expected`, then returns it: Monaco renders an accepted
 * suggestion on a later animation frame, so one read right after Enter can still show the old text.
 */
async function expectLine(line: number, expected: string | RegExp, timeoutMs = 5_000): Promise<string> {
  const matches = (text: string) => (typeof expected === 'string' ? text === expected : expected.test(text));
  const deadline = Date.now() + timeoutMs;
  let text = await lineText(line);
  while (!matches(text) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    text = await lineText(line);
  }
  if (typeof expected === 'string') assert.equal(text, expected);
  else assert.match(text, expected);
  return text;
}

/** 1-based number of the first rendered line (the editor scrolls to keep the cursor visible). */
async function firstVisibleLine(): Promise<number> {
  const numbers = await wb.page.locator('.editor-group-container.active .monaco-editor .line-numbers').allInnerTexts();
  return Math.min(...numbers.map((n) => Number(n.trim())).filter((n) => Number.isFinite(n) && n > 0));
}

/** Saves the editor and waits until the file on disk satisfies `predicate`. */
async function savedText(predicate: (text: string) => boolean, relPath = CONFIG): Promise<string> {
  await wb.focusEditor();
  await wb.page.keyboard.press('Control+S');
  const file = path.join(wb.workspace, relPath);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = readFileSync(file, 'utf8');
    if (predicate(text) || Date.now() > deadline) return text;
    await wb.page.waitForTimeout(100);
  }
}

test('completing a new projects entry inserts the authorization skeleton; typing fills its placeholder', async () => {
  await wb.typeAt(8, 1, '    - ');
  await suggest('project authorization');
  await wb.page.keyboard.press('Control+Space'); // show the documentation beside the list
  await wb.screenshot('completion-project-skeleton');
  await wb.page.keyboard.press('Enter');
  await suggestWidget().waitFor({ state: 'hidden' });
  await wb.page.keyboard.insertText('acme/shop/api'); // replaces the selected ${1:group/project}
  await wb.page.keyboard.press('Escape');
  await expectLine(8, '    - id: acme/shop/api');
  const saved = await savedText((t) => t.includes('acme/shop/api'));
  assert.match(saved, /\n {4}- id: acme\/shop\/api\n {6}default_namespace: namespace\n {6}access_as:\n {8}agent: \{\}\n/);
});

// docs/gitlab-behaviour.md#predefined-variables
test('completing a CI variable in an if: expression', async () => {
  const line = 6;
  const end = '        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH'.length + 1;
  await wb.typeAt(line, end, ' && $CI_PIPELINE_SO');
  await suggest('$CI_PIPELINE_SOURCE');
  await wb.screenshot('completion-ci-variable');
  await wb.page.keyboard.press('Enter');
  await suggestWidget().waitFor({ state: 'hidden' });
  await expectLine(line, '        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE');
  const saved = await savedText((t) => t.includes('$CI_PIPELINE_SOURCE'));
  assert.ok(saved.includes('- if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE\n'), saved);
});

test('accepting a section key opens the suggestions of its keys by itself', async () => {
  await wb.focusEditor();
  await wb.page.keyboard.press('Control+End');
  await wb.page.keyboard.insertText('obs');
  await suggest('observability');
  await wb.page.keyboard.press('Enter');
  // No Ctrl+Space here: the item's command asks the editor to suggest again.
  const logging = suggestWidget().locator('.monaco-list-row[aria-label^="logging"]').first();
  await logging.waitFor({ state: 'visible', timeout: 30_000 });
  await wb.screenshot('completion-suggest-again');
  await wb.page.keyboard.press('Enter');
  await suggestWidget().locator('.monaco-list-row[aria-label^="level"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  await wb.page.keyboard.press('Escape');
  const saved = await savedText((t) => t.includes('  logging:'));
  assert.ok(saved.endsWith('observability:\n  logging:\n    '), JSON.stringify(saved.slice(-60)));
});

test('hover shows the documentation of a key: what it does, its default, since which version', async () => {
  const text = await wb.hoverAt(4, 10, 60_000);
  await wb.screenshot('hover-key-documentation');
  assert.match(text, /protected_branches_only/);
  assert.match(text, /Only jobs running for a protected branch or tag get the agent/);
  assert.match(text, /Default: false/);
  assert.match(text, /Since GitLab 17\.3/);
  await wb.page.keyboard.press('Escape');
  const section = await wb.hoverAt(1, 3, 30_000);
  await wb.screenshot('hover-ci-access-documentation');
  assert.match(section, /Authorize CI\/CD jobs of projects and groups/);
});

test('semantic tokens colour the if: expression: variables alike, operators apart, unlike a plain YAML string', async () => {
  await wb.page.keyboard.press('Escape'); // close the hover of the previous test
  const editor = wb.page.locator('.editor-group-container.active .monaco-editor .view-lines');
  const colorOf = (text: string) =>
    editor.locator('span > span', { hasText: text }).filter({ hasText: new RegExp(`^${text.replace(/[$|]/g, '\\$&')}$`) }).first().evaluate((e) => (globalThis as unknown as PageGlobals).getComputedStyle(e).color);
  const deadline = Date.now() + 30_000;
  let colors: string[] = [];
  // Semantic tokens arrive after the TextMate colours: wait until the variable is no longer coloured as the string it is in YAML.
  for (;;) {
    colors = [await colorOf('$CI_COMMIT_BRANCH'), await colorOf('$CI_DEFAULT_BRANCH'), await colorOf('=='), await colorOf('acme/shop/web')];
    if (colors[0] !== colors[3] || Date.now() > deadline) break;
    await wb.page.waitForTimeout(200);
  }
  await wb.screenshot('semantic-tokens-rules-if');
  const [variable, otherVariable, operator, plainString] = colors;
  assert.equal(variable, otherVariable, 'both variables share the variable colour');
  assert.notEqual(variable, plainString, 'a variable is not coloured as a YAML string');
  assert.notEqual(operator, variable, 'operators have their own colour');
});

// docs/gitlab-behaviour.md#template-variables-and-functions
test('completing a template variable after {{ . in an environment template', async () => {
  await wb.openFile(TEMPLATE);
  await wb.typeAt(5, 14, '{{ .');
  await suggest('.agent.id'); // every variable is offered after the dot
  await wb.page.keyboard.press('Escape');
  await wb.page.keyboard.insertText('environment.sl'); // after `.environment.` its fields
  await suggest('slug');
  await wb.screenshot('completion-template-variable');
  await wb.page.keyboard.press('Enter');
  await suggestWidget().waitFor({ state: 'hidden' });
  // The editor may have closed the braces itself (YAML's auto-closing pairs): the variable sits before them.
  await expectLine(5, /^ {6}name: "\{\{ \.environment\.slug(\}\})?"$/);
  await wb.page.keyboard.insertText(' | slu');
  await suggest('slugify');
  await wb.page.keyboard.press('Enter');
  await suggestWidget().waitFor({ state: 'hidden' });
  if (!(await lineText(5)).includes('}}')) await wb.typeAt(5, '      name: "{{ .environment.slug | slugify'.length + 1, '}}');
  const saved = await savedText((t) => t.includes('slugify'), TEMPLATE);
  assert.match(saved, /\n {6}name: "\{\{ \.environment\.slug \| slugify ?\}\}"\n/);
});

test('Enter after an entry’s id, then a key: it lands at the entry’s column whatever the editor’s indentation', async () => {
  await wb.openFile(CONFIG);
  await wb.goTo(3, '    - id: acme/shop/web'.length + 1);
  await wb.page.keyboard.press('Enter');
  await wb.page.keyboard.insertText('envi');
  await suggest('environments');
  await wb.page.keyboard.press('Enter');
  await suggestWidget().waitFor({ state: 'hidden' });
  await wb.page.keyboard.press('Escape');
  await expectLine(4, '      environments:');
  const saved = await savedText((t) => t.includes('environments:'));
  assert.ok(saved.includes('    - id: acme/shop/web\n      environments:\n        - production\n      protected_branches_only: true\n'), saved);
});

test('resource_management links to the agent’s environment template; Ctrl+click opens it', async () => {
  await wb.openFile(CONFIG);
  const link = wb.page.locator('.editor-group-container.active .monaco-editor .view-lines .detected-link', { hasText: 'resource_management' }).first();
  await link.waitFor({ state: 'visible', timeout: 30_000 });
  const saved = await savedText(() => true);
  const line = saved.split('\n').findIndex((l) => l.includes('resource_management:')) + 1;
  const hover = await wb.hoverAt(line, 9, 30_000);
  await wb.screenshot('document-link-resource-management');
  assert.match(hover, /Open environment_templates\/default\.yaml/);
  await wb.page.keyboard.press('Escape');
  await wb.page.keyboard.down('Control');
  await link.click();
  await wb.page.keyboard.up('Control');
  await wb.page.locator('.tab.active[aria-label^="default.yaml"]').first().waitFor({ timeout: 30_000 });
});
