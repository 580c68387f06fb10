// The settings reference (docs/user-guide/settings.md) is generated from package.json's
// `contributes.configuration` by scripts/settingsReference.mjs (`npm run docs:settings`): the committed
// page must be what the script renders now, and every setting must say what it does, since the page
// and VS Code's Settings editor show nothing else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');

type PackageJson = { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } } };

interface SettingsReferenceLib {
  SETTINGS_REFERENCE: string;
  renderSettingsReference(packageJson: unknown): string;
  undocumentedSettings(packageJson: unknown): string[];
}

const REGENERATE = 'run `npm run docs:settings` and commit docs/user-guide/settings.md';

let lib: SettingsReferenceLib;
before(async () => {
  lib = (await import(pathToFileURL(path.join(root, 'scripts', 'settingsReference.mjs')).href)) as SettingsReferenceLib;
});

const packageJson = () => JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
const committed = () => readFileSync(path.join(root, lib.SETTINGS_REFERENCE), 'utf8');

test('docs/user-guide/settings.md is what package.json renders', () => {
  assert.ok(committed() === lib.renderSettingsReference(packageJson()), `docs/user-guide/settings.md differs from package.json's contributes.configuration: ${REGENERATE}`);
});

test('every setting has a description', () => {
  assert.deepEqual(lib.undocumentedSettings(packageJson()), [], 'settings without description or markdownDescription in package.json (VS Code and docs/user-guide/settings.md would show nothing)');
});

test('the page names every setting, in package.json order, with its type, default and values', () => {
  const page = committed();
  const names = Object.keys(packageJson().contributes.configuration.properties);
  const headings = [...page.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]);
  assert.deepEqual(headings, names);
  const target = page.slice(page.indexOf('### `gitlabAgentConfig.target`'));
  assert.match(target, /- Type: `string`\n- Default: `"proposal"`\n- Values:\n {2}- `"proposal"`: What GitLab ships/);
  assert.match(page, /### `gitlabAgentConfig.cluster.kubeconfig`\n\n- Type: `string`\n- Default: `""`\n- Scope: `machine-overridable`\n\nKubeconfig for cluster operations/);
  assert.match(page, /npm run docs:settings/);
});

test('the checks can fail: an undocumented setting is reported and the rendered page no longer matches', () => {
  for (const description of [undefined, '', '   ']) {
    const changed = packageJson();
    changed.contributes.configuration.properties['gitlabAgentConfig.undocumented'] = { type: 'boolean', default: false, ...(description === undefined ? {} : { description }) };
    assert.deepEqual(lib.undocumentedSettings(changed), ['gitlabAgentConfig.undocumented']);
    const rendered = lib.renderSettingsReference(changed);
    assert.notEqual(rendered, committed());
    assert.match(rendered, /### `gitlabAgentConfig.undocumented`\n\n- Type: `boolean`\n- Default: `false`\n/);
  }
});

test('a configuration given as a list of sections renders each section\'s settings in order', () => {
  const sections = { contributes: { configuration: [{ properties: { a: { type: 'string', description: 'first' } } }, { properties: { b: { type: 'number', default: 1, markdownDescription: 'second' } } }] } };
  const rendered = lib.renderSettingsReference(sections);
  assert.deepEqual([...rendered.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]), ['a', 'b']);
  assert.deepEqual(lib.undocumentedSettings(sections), []);
});
