// The editor's incremental model gives exactly the whole-file checks for the checks that depend on
// the GitLab version per entry: the list limit (100 entries before 17.0, 500 from it,
// docs/gitlab-behaviour.md#top-level-keys-and-list-limits) and entries outside the top-level group
// of the agent configuration project (docs/gitlab-behaviour.md#authorization-order, 3).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { compareVersions } from '../../../server/src/engine/gitlab/gitlabVersions';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import { validateAgentConfig, type ValidateOptions } from '../../../server/src/engine/config/validateAgentConfig';
import { generateVariedAgentConfig, seededRandom } from '../../support/generateConfig';

const options = (gitlabVersion: string): ValidateOptions => ({
  target: 'proposal',
  agentName: 'bench',
  gitlabVersion,
  rules: { agent: { configProjectPath: 'acme/infra', name: 'bench' }, scenarios: presetScenarios('main'), defaultBranch: 'main', options: { gitlabVersion, noRuleMatch: 'deny', overlongNamespace: 'error' } },
});

/**
 * A varied config whose every seventh project, one group and one user_access project lie in other
 * top-level groups. Without `protected_branches_only` before 17.3 and without `user_access` before
 * 18.3: there the "not in this version" error of the one and the `access_as` required by the other
 * make the editor check the whole file (checks of their own, not what is compared here).
 */
function crossConfig(entries: number, seed: number, version: string): string {
  let n = 0;
  let text = generateVariedAgentConfig(entries, seed).replace(/protected_branches_only: /g, 'enviroments: ');
  if (compareVersions(version, '18.3') < 0) text = text.replace(/user_access:[\s\S]*?(?=remote_development:)/, '');
  return text
    .replace(/- id: acme\/service-/g, (m) => (n++ % 7 === 3 ? '- id: partners/service-' : m))
    .replace('  - id: acme/group-1', '  - id: partners/group-1')
    .replace('    - id: acme/sre', '    - id: contractors/sre');
}

/** Typing, deleting, duplicating and removing lines (entries appear, vanish and change index). */
function randomEdit(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const kind = random();
  if (kind < 0.4) {
    const chars = ['a', 'p', '/', '-', ' ', ':', '\n', '0'];
    return text.slice(0, at) + chars[Math.floor(random() * chars.length)] + text.slice(at);
  }
  if (kind < 0.7) return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 4));
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = text.indexOf('\n', at);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd + 1);
  return kind < 0.85 ? text.slice(0, lineStart) + line + text.slice(lineStart) : text.slice(0, lineStart) + text.slice(lineStart + line.length);
}

function assertSame(incremental: IncrementalAgentConfig, text: string, opts: ValidateOptions, owner: unknown, step: string): void {
  incremental.update(text);
  assert.deepEqual(incremental.diagnostics(opts, owner), validateAgentConfig(text, opts), `diagnostics differ ${step}`);
}

describe('incremental validation equals a from-scratch validation, per GitLab version', () => {
  for (const version of ['16.11', '18.0', '18.1', '18.3', '18.4']) {
    it(`entries of other top-level groups, GitLab ${version}, after 80 random edits`, () => {
      const random = seededRandom(31);
      let text = crossConfig(40, 31, version);
      const opts = options(version);
      const incremental = new IncrementalAgentConfig();
      const owner = {};
      let composed = 0;
      const first = validateAgentConfig(text, opts).filter((d) => d.code.startsWith('authorization.crossTopLevel'));
      assert.ok(first.length >= 5, `the config has entries of other top-level groups (${first.length} found)`);
      for (let step = 0; step < 80; step++) {
        const edited = randomEdit(text, random);
        assertSame(incremental, edited, opts, owner, `after edit ${step} (${version})`);
        if (incremental.incremental) {
          composed++;
          text = edited;
        }
      }
      assert.ok(composed > 30, `only ${composed} of 80 versions were composed from entries`);
    });
  }

  it('across the 100-entry limit of 16.11: entries beyond it get no entry checks, the limit warning moves', () => {
    const random = seededRandom(13);
    let text = crossConfig(104, 13, '16.11');
    const opts = options('16.11');
    const incremental = new IncrementalAgentConfig();
    const owner = {};
    assert.equal(validateAgentConfig(text, opts).filter((d) => d.code === 'config.entryLimit').length, 1);
    let composed = 0;
    for (let step = 0; step < 12; step++) {
      assertSame(incremental, text, opts, owner, `at step ${step}`);
      if (incremental.incremental) composed++;
      // Remove or add an entry near the front: every later entry changes index, some cross the limit.
      const lines = text.split('\n');
      const entryLines = lines.flatMap((l, i) => (l.startsWith('    - id: ') ? [i] : []));
      const target = entryLines[Math.floor(random() * 5)];
      if (random() < 0.5) lines.splice(target, 0, `    - id: partners/new-${step}`, '      environments: ["*"]');
      else lines.splice(target, 1);
      text = lines.join('\n');
    }
    assert.ok(composed >= 8, `only ${composed} of 12 versions were composed from entries`);
  });

  it('the same model, the version changed: the checks follow it', () => {
    const text = crossConfig(104, 17, '18.3');
    const incremental = new IncrementalAgentConfig();
    incremental.update(text);
    for (const version of ['19.5', '18.3', '18.4']) {
      assert.deepEqual(incremental.diagnostics(options(version), version), validateAgentConfig(text, options(version)), `GitLab ${version}`);
    }
  });
});
