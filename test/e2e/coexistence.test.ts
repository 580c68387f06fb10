// Issue 6, coexistence with Red Hat YAML, in a real VS Code (code-server 4.100.3): agent configs and
// environment templates open with the language id `gitlab-agent-yaml` (which Red Hat YAML does not
// serve — see test/lsp/coexistence.test.ts), keep YAML highlighting through the grammar that includes
// `source.yaml` (plus an injection for Go template actions), and still get our diagnostics; any
// other YAML file stays `yaml`.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchWorkbench, repoRoot, type Workbench } from './harness';

let wb: Workbench;

before(async () => {
  wb = await launchWorkbench({ workspaceFolder: path.join(repoRoot, 'examples') });
  writeFileSync(path.join(wb.workspace, 'other.yaml'), 'plain: yaml\nlist:\n  - a\n');
});

after(async () => {
  await wb?.close();
});

/** The language the status bar shows for the active editor. */
async function languageMode(expected: string): Promise<string> {
  const mode = wb.page.locator('[id="status.editor.mode"]');
  await mode.filter({ hasText: expected }).waitFor({ timeout: 30_000 }).catch(() => undefined);
  return (await mode.innerText()).trim();
}

/** How many differently coloured token classes the first lines of the editor use (1 = no grammar). */
async function tokenColours(): Promise<number> {
  const classes = await wb.page.locator('.editor-group-container.active .view-lines .view-line span span').evaluateAll((spans) => spans.map((s) => s.className));
  return new Set(classes).size;
}

test('config.yaml opens as GitLab Agent YAML, highlighted as YAML, with our diagnostics', async () => {
  await wb.openFile('.gitlab/agents/broken-agent/config.yaml');
  assert.equal(await languageMode('GitLab Agent YAML'), 'GitLab Agent YAML');
  const problem = await wb.waitForProblem((p) => p.code === 'schema.unknownKey', 60_000);
  assert.equal(problem.source, 'gitlab-agent');
  assert.ok((await tokenColours()) >= 3, 'keys, values and comments are coloured by the YAML grammar');
  await wb.screenshot('coexistence-config-language');
});

/** The token class VS Code gives the span whose text is exactly `text` (first occurrence). */
async function tokenClass(text: string): Promise<string | undefined> {
  const spans = await wb.page.locator('.editor-group-container.active .view-lines .view-line span span').evaluateAll((all) => all.map((s) => [s.textContent, s.className]));
  return spans.find(([t]) => t === text)?.[1] ?? undefined;
}

test('an environment template opens as GitLab Agent YAML too, its {{ actions }} highlighted inside YAML strings', async () => {
  await wb.openFile('.gitlab/agents/production-agent/environment_templates/default.yaml');
  assert.equal(await languageMode('GitLab Agent YAML'), 'GitLab Agent YAML');
  const inString = await tokenClass('"bind-');
  const field = await tokenClass('.agent.id');
  const rendered = await wb.page.locator('.editor-group-container.active .view-lines .view-line span span').evaluateAll((all) => all.map((s) => `${s.textContent}=${s.className}`));
  assert.ok(inString && field, `both tokens are rendered: ${rendered.join(' | ')}`);
  assert.notEqual(field, inString, 'the Go template field is coloured apart from the YAML string around it');
  await wb.screenshot('coexistence-template-language');
});

test('any other YAML file stays YAML (left to Red Hat YAML or VS Code)', async () => {
  await wb.openFile('other.yaml');
  assert.equal(await languageMode('YAML'), 'YAML');
  assert.deepEqual(wb.externalRequests, [], 'the browser reached only loopback');
});
