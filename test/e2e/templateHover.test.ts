// The template hover, end to end in a real VS Code (code-server): in environment_templates/default.yaml the
// hover on a `{{ … }}` shows what it prints per scenario and the hover on an object the object GitLab
// would create (docs/gitlab-behaviour.md#template-variables-and-functions,
// https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/ ); a config with rules
// shows, under the default proposal target, the note that GitLab would reject it
// (docs/gitlab-behaviour.md#ci_access-rules-design). Screenshots in test-output/e2e/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BINDING_TEMPLATE } from '../support/templates';
import { launchWorkbench, type Workbench } from './harness';

const CONFIG = '.gitlab/agents/demo/config.yaml';
const TEMPLATE = '.gitlab/agents/demo/environment_templates/default.yaml';
const CONFIG_TEXT = `ci_access:
  projects:
    - id: acme/shop
      access_as:
        ci_job: {}
      resource_management:
        enabled: true
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`;
// Line numbers below are 1-based, as the editor's Go to Line takes them (BINDING_TEMPLATE: test/support/templates.ts).
const TEMPLATE_TEXT = `${BINDING_TEMPLATE}apply_resources: on_start
delete_resources: on_stop
`;

let wb: Workbench;
let fixture: string;

before(async () => {
  fixture = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-e2e-template-hover-'));
  const folder = path.join(fixture, 'demo-project');
  mkdirSync(path.join(folder, path.dirname(TEMPLATE)), { recursive: true });
  writeFileSync(path.join(folder, CONFIG), CONFIG_TEXT);
  writeFileSync(path.join(folder, TEMPLATE), TEMPLATE_TEXT);
  wb = await launchWorkbench({ workspaceFolder: folder, settings: { 'gitlabAgentConfig.configProjectPath': 'acme/infra' } });
});

after(async () => {
  await wb?.close();
  rmSync(fixture, { recursive: true, force: true });
});

/** The hover at a 1-based position; a screenshot of the failure when it does not come. */
async function hover(line: number, column: number, name: string): Promise<string> {
  return wb.hoverAt(line, column).catch(async (err: unknown) => {
    await wb.screenshot(`${name}-failed`);
    throw err;
  });
}

test('the hover on {{ .environment.slug }} shows its value per scenario', async () => {
  await wb.openFile(TEMPLATE);
  // Line 5: `      name: "{{ .project.slug }}-{{ .environment.slug }}"`, the pointer inside the second action.
  const text = await hover(5, 42, 'template-hover');
  await wb.screenshot('template-hover');
  assert.match(text, /\{\{ \.environment\.slug \}\} per scenario/);
  assert.match(text, /default branch → production\s+production/);
  assert.match(text, /feature branch → review app\s+review-feature-lo-qiv329/);
  assert.match(text, /Project acme\/shop; ids assumed: project 12345678, agent 1234567\./);
  assert.match(text, /Not rendered for merge request pipeline/);
  await wb.page.keyboard.press('Escape');
});

test('the hover on a RoleBinding shows the object per scenario, with its subjects', async () => {
  // Line 7: `    kind: RoleBinding`.
  const text = await hover(7, 8, 'template-hover-object');
  await wb.screenshot('template-hover-object');
  assert.match(text, /RoleBinding as GitLab would create it, per scenario/);
  assert.match(text, /default branch → production\s+deployers\s+shop-production\s+Group gitlab:project_env:12345678:production → ClusterRole admin/);
  await wb.page.keyboard.press('Escape');
});

test('a config with rules: the Problems panel says GitLab would reject it (proposal target)', async () => {
  await wb.openFile(CONFIG);
  const note = await wb.waitForProblem((p) => p.code === 'target.proposalOnly', 60_000);
  await wb.screenshot('proposal-hint');
  assert.equal(note.severity, 'info');
  assert.deepEqual([note.line, note.column], [8, 7]);
  assert.match(note.message, /^GitLab would reject this file: "rules" is the proposed rules design/);
});
