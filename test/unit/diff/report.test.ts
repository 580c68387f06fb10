/** The access diff's reports: the markdown for a merge-request comment and the editor's lens titles. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessDiff, type AccessChange } from '../../../server/src/engine/diff';
import { changeLenses, diffMarkdown, diffText, MAX_MARKDOWN_ROWS } from '../../../server/src/engine/diff/report';
import { DEFAULT_PROJECT_SETTINGS } from '../../../server/src/engine/api';

const settings = { ...DEFAULT_PROJECT_SETTINGS, configProjectPath: 'acme/infra/agents' };
const files = (agent: string) => ({ config: `.gitlab/agents/${agent}/config.yaml`, template: `.gitlab/agents/${agent}/environment_templates/default.yaml`, pipeline: '.gitlab-ci.yml' });
const diff = (before: string, after: string): AccessChange[] => accessDiff({ before: { configs: { prod: { text: before } } }, after: { configs: { prod: { text: after } } }, settings });

describe('markdown', () => {
  test('a full commit id is shortened to 12 digits; cells escape table and emphasis characters', () => {
    // docs/gitlab-behaviour.md#environment-filter: the denial names the entry's patterns.
    const changes = diff('ci_access:\n  projects:\n    - id: acme/web\n      environments: ["review/*"]\n', 'ci_access:\n  projects:\n    - id: acme/web\n      environments: ["review/*", production]\n');
    const markdown = diffMarkdown(changes, 'a'.repeat(40), files);
    assert.match(markdown, /^\*\*CI\/CD access diff\*\* \(compared with `aaaaaaaaaaaa`\)/);
    assert.match(markdown, /matches none of review\/\\\* \|/);
    assert.equal(diffText([], 'b'.repeat(40), files), 'No CI/CD access changes compared with bbbbbbbbbbbb.\n');
  });

  test(`at most ${MAX_MARKDOWN_ROWS} rows, the rest counted`, () => {
    const ids = Array.from({ length: 30 }, (_, i) => `    - id: acme/p${i}\n`).join('');
    const changes = diff(`ci_access:\n  projects:\n${ids}`, 'ci_access: {}\n');
    // Each removed entry loses access in the four built-in situations (docs/gitlab-behaviour.md#authorization-order).
    assert.equal(changes.length, 120);
    const lines = diffMarkdown(changes, 'main', files).trimEnd().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('| ') && !l.startsWith('| Severity')).length, MAX_MARKDOWN_ROWS);
    assert.equal(lines.at(-1), '… and 20 more (`agentcfg diff --format json` lists every change).');
  });
});

describe('lenses', () => {
  test('one per changed line of the new version, production first in words; removed entries have none', () => {
    const before = 'ci_access:\n  projects:\n    - id: acme/web\n      environments: ["review/*"]\n    - id: acme/api\n      default_namespace: api\n';
    const after = 'ci_access:\n  projects:\n    - id: acme/web\n      environments: ["review/*", production]\n    - id: acme/new\n';
    assert.deepEqual(changeLenses(diff(before, after), 'main'), [
      { agent: 'prod', file: 'config', line: 2, title: '⚠ vs main: grants production access to default branch → production, tag release' },
      { agent: 'prod', file: 'config', line: 4, title: '⚠ vs main: grants production access to default branch → production, tag release, feature branch → review app, +1' },
    ]);
  });
});
