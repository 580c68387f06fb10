// Environment templates in a real VS Code (code-server 4.100.3): an unquoted `{{` value is an
// error at the value (docs/gitlab-behaviour.md#environment-template-file) and the quick fix quotes it; a namespace that renders invalid for a
// scenario warns at the template line (docs/gitlab-behaviour.md#names); an unknown variable is flagged inside the action.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatProblems, launchWorkbench, repoRoot, type Workbench } from './harness';

const TEMPLATE = '.gitlab/agents/production-agent/environment_templates/default.yaml';

/** Line 5: an unquoted value; line 10: a namespace from the environment name; line 12: a misspelt variable. */
const TEXT = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: {{ .environment.slug }}-{{ .project.id }}
  - apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: deployer
      namespace: "{{ .environment.name }}"
      labels:
        owner: "{{ .user.usernme }}"
`;

let wb: Workbench;

before(async () => {
  wb = await launchWorkbench({ workspaceFolder: path.join(repoRoot, 'examples') });
  writeFileSync(path.join(wb.workspace, TEMPLATE), TEXT);
});

after(async () => {
  await wb?.close();
});

test('an unquoted {{ value: error on the value, fixed by the quick fix', async () => {
  await wb.openFile(TEMPLATE);
  const unquoted = await wb.waitForProblem((p) => p.code === 'template.unquotedAction', 60_000);
  assert.equal(unquoted.severity, 'error');
  assert.deepEqual([unquoted.line, unquoted.column], [5, 13]);
  await wb.screenshot('template-unquoted-action');

  await wb.goTo(5, 15);
  await wb.page.keyboard.press('Control+.');
  const fix = wb.page.locator('.action-widget .monaco-list-row', { hasText: 'Quote the value' }).first();
  await fix.waitFor({ timeout: 30_000 });
  await wb.screenshot('template-quick-fix-menu');
  // The menu takes the keyboard (a pointer block covers it): the only fix is focused, Enter applies it.
  await wb.page.locator('.action-widget .monaco-list-row.focused', { hasText: 'Quote the value' }).waitFor({ timeout: 10_000 });
  await wb.page.keyboard.press('Enter');
  const remaining = await wb.waitForNoProblem((p) => p.code === 'template.unquotedAction', 30_000);
  await wb.screenshot('template-quoted');
  assert.ok(remaining.every((p) => p.code !== 'yaml.syntax'), formatProblems(remaining));
});

test('then the unknown variable and the namespace invalid for the review scenario are shown at their places', async () => {
  const unknown = await wb.waitForProblem((p) => p.code === 'template.unknownVariable', 30_000);
  assert.deepEqual([unknown.line, unknown.column], [12, 26], 'on "usernme" inside the action');
  assert.match(unknown.message, /did you mean "\.user\.username"/);
  const namespace = await wb.waitForProblem((p) => p.code === 'crossFile.invalidNamespace', 30_000);
  assert.equal(namespace.severity, 'warning');
  assert.equal(namespace.line, 10);
  assert.match(namespace.message, /review\/feature-login/);
  await wb.screenshot('template-cross-file');
  assert.deepEqual(wb.externalRequests, [], 'the browser reached only loopback');
});
