// Coexistence with Red Hat YAML, in a real VS Code (code-server 4.100.3): agent configs and
// environment templates open with the language id `gitlab-agent-yaml`, keep YAML highlighting through
// the grammar that includes `source.yaml` (plus an injection for Go template actions), and get our
// diagnostics only. Red Hat YAML's .vsix cannot be obtained offline, so a stand-in with its client
// setup over the real yaml-language-server 1.25.0 (redHatStandin/) is installed beside ours and
// pointed at our schema, as a user of both would do: it serves other YAML files, never ours.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { formatProblems, launchWorkbench, repoRoot, type Problem, type Workbench } from './harness';
import { packRedHatStandin } from './redHatStandin/packStandin';

const CONFIG = '.gitlab/agents/broken-agent/config.yaml';
const CONFIG_RESOURCE = 'config.yaml .gitlab/agents/broken-agent';

let wb: Workbench;

before(async () => {
  const schema = pathToFileURL(path.join(repoRoot, 'schemas', 'agent-config.schema.json')).href;
  wb = await launchWorkbench({
    workspaceFolder: path.join(repoRoot, 'examples'),
    extraVsix: [await packRedHatStandin()],
    settings: { 'yaml.schemas': { [schema]: '**/.gitlab/agents/*/config.yaml' }, 'yaml.schemaStore.enable': false, 'yaml.validate': true },
  });
  writeFileSync(path.join(wb.workspace, 'other.yaml'), 'plain: yaml\nlist: [a, b\n');
});

after(async () => {
  await wb?.close();
});

const fromPeer = (p: Problem) => p.source !== 'gitlab-agent';

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
  await wb.openFile(CONFIG);
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

test('any other YAML file stays YAML, and the Red Hat stand-in serves it', async () => {
  await wb.openFile('other.yaml');
  assert.equal(await languageMode('YAML'), 'YAML');
  const syntax = await wb.waitForProblem((p) => p.resource === 'other.yaml' && fromPeer(p), 60_000);
  assert.notEqual(syntax.source, 'gitlab-agent');
});

test('no diagnostic of the stand-in reaches config.yaml: each problem is listed once, by us', async () => {
  // Ordering barrier: the stand-in handles notifications in order, so once it has answered an edit
  // made after config.yaml was opened, it has seen everything it would ever get for config.yaml.
  const key = (p: Problem) => `${p.line}:${p.column}:${p.message}`;
  const before = new Set((await wb.problems()).filter((p) => p.resource === 'other.yaml').map(key));
  await wb.typeAt(1, 1, '{');
  await wb.waitForProblem((p) => p.resource === 'other.yaml' && fromPeer(p) && !before.has(key(p)), 30_000);
  const listed = await wb.problems();
  const onConfig = listed.filter((p) => p.resource === CONFIG_RESOURCE);
  await wb.screenshot('coexistence-with-red-hat-standin');
  assert.ok(onConfig.length >= 6, `our problems are listed:\n${formatProblems(listed)}`);
  assert.deepEqual(onConfig.filter(fromPeer), [], `only ours on config.yaml:\n${formatProblems(onConfig)}`);
  assert.equal(new Set(onConfig.map(key)).size, onConfig.length, 'no problem twice');
  assert.deepEqual(wb.externalRequests, [], 'the browser reached only loopback');
});

test('control: switched to plain YAML, config.yaml does get the stand-in\'s duplicates (what the language id prevents)', async () => {
  await wb.openFile(CONFIG);
  // The command opens a second picker (the languages), so the harness's runCommand, which waits for
  // the palette to close, does not fit: both pickers are driven here.
  const rows = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await wb.page.keyboard.press('F1');
  await wb.page.keyboard.insertText('Change Language Mode');
  await rows.and(wb.page.locator('[aria-label^="Change Language Mode"]')).first().click({ timeout: 30_000 });
  await wb.page.keyboard.insertText('YAML');
  await rows.and(wb.page.locator('[aria-label^="YAML"]')).first().click({ timeout: 30_000 });
  assert.equal(await languageMode('YAML'), 'YAML');
  const duplicate = await wb.waitForProblem((p) => p.resource === CONFIG_RESOURCE && fromPeer(p) && /defualt_namespace/.test(p.message), 60_000);
  await wb.screenshot('coexistence-control-as-yaml');
  assert.equal(duplicate.line, 5, 'the peer flags the same key we flag');
});
