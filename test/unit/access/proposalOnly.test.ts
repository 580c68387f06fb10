// "Know where you stand": under the `proposal` target (the default) a file with `rules`
// gets a note, on its first `rules` key, that GitLab would reject it. No GitLab release ships the rules design
// (docs/gitlab-behaviour.md#ci_access-rules-design, proposed in
// https://gitlab.com/gitlab-org/cluster-integration/gitlab-agent/-/merge_requests/714 ; the shipped
// keys: https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/ ), and KAS refuses a
// configuration with an unknown key (docs/gitlab-behaviour.md#config-file-location-and-parsing).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PROPOSAL_ONLY_CODE } from '../../../server/src/engine/access/proposalOnly';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, type ProjectSettings } from '../../../server/src/engine/api';
import { rangeOf } from '../../support/ranges';

const PATH = '.gitlab/agents/prod/config.yaml';
const TEXT = `ci_access:
  projects:
    - id: acme/web
      rules:
        - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          namespace: web
    - id: acme/api
      default_namespace: api
  groups:
    - id: acme/platform
      access_as:
        ci_job: {}
      environments: [staging]
      rules:
        - namespace: platform
  instance:
    access_as:
      ci_job: {}
    environments: [staging]
    rules: []
`;
const check = (settings: Partial<ProjectSettings> = {}, text = TEXT) => checkAgentFile({ path: PATH, content: text }, { ...DEFAULT_PROJECT_SETTINGS, ...settings }, NO_SIBLINGS);
const notes = (settings: Partial<ProjectSettings> = {}) => check(settings).filter((d) => d.code === PROPOSAL_ONLY_CODE);

describe('the note on rules under the proposal target', () => {
  test('one information per file, on the first rules key, counting the other entries with rules', () => {
    const found = notes();
    assert.deepEqual(found.map((d) => [d.severity, d.range]), [['information', rangeOf(TEXT, 'rules')]]);
    assert.match(found[0].message, /^GitLab would reject this file: "rules" \(here and in 2 more entries\) is the proposed rules design/);
  });

  test('a large file: one note, which leaves room for its problems', () => {
    const entries = Array.from({ length: 600 }, (_, i) => `    - id: acme/p${i}\n      rules:\n        - namespace: ns-${i}\n`).join('');
    const found = check({}, `ci_access:\n  projects:\n${entries}`);
    // GitLab reads the first 500 entries (docs/gitlab-behaviour.md#top-level-keys-and-list-limits): the note counts those.
    assert.deepEqual(found.map((d) => d.code).sort(), ['config.entryLimit', PROPOSAL_ONLY_CODE]);
    assert.match(found.find((d) => d.code === PROPOSAL_ONLY_CODE)!.message, /\(here and in 499 more entries\)/);
  });

  test('no rules, no note', () => {
    assert.deepEqual(check({}, 'ci_access:\n  projects:\n    - id: acme/web\n').filter((d) => d.code === PROPOSAL_ONLY_CODE), []);
  });

  test('the message says GitLab would reject the file, in the release checked, and which setting checks as GitLab reads', () => {
    const [note] = check({ gitlabVersion: '17.3' }, TEXT.slice(0, TEXT.indexOf('  groups:'))).filter((d) => d.code === PROPOSAL_ONLY_CODE);
    assert.equal(
      note.message,
      'GitLab would reject this file: "rules" is the proposed rules design (gitlab-agent MR !714), which GitLab 17.3 does not have (no release ships it), ' +
        'and the agent refuses a configuration with an unknown key. It is checked here because the compatibility target is "proposal"; ' +
        'set gitlabAgentConfig.target (--target on the command line) to "gitlab" to check the file as GitLab reads it.',
    );
    assert.deepEqual(note.data, { target: 'proposal', gitlabVersion: '17.3' });
    // Information: the file is valid for the chosen target, so a pipeline running agentcfg still passes.
    assert.equal(check().some((d) => d.severity === 'error'), false);
  });

  test('target gitlab: no note, the key is the error GitLab gives', () => {
    const found = check({ target: 'gitlab' });
    assert.deepEqual(found.filter((d) => d.code === PROPOSAL_ONLY_CODE), []);
    assert.deepEqual(
      found.filter((d) => d.code === 'target.unsupportedKey').map((d) => d.range),
      [0, 1, 2].map((i) => rangeOf(TEXT, 'rules', i)),
    );
  });

  test("the editor's incremental model gives the same notes, also after an edit that adds rules", () => {
    const incremental = new IncrementalAgentConfig();
    const settings = DEFAULT_PROJECT_SETTINGS;
    const viaEditor = (text: string) => {
      const parsed = incremental.update(text);
      return checkAgentFile({ path: PATH, content: text }, settings, NO_SIBLINGS, { parsed, ciAccess: readCiAccess(parsed.value), ownDiagnostics: (o) => incremental.ownDiagnostics(o, settings) });
    };
    assert.deepEqual(viaEditor(TEXT), check());
    const edited = TEXT.replace('      default_namespace: api\n', '      default_namespace: api\n      rules:\n        - when: never\n');
    assert.deepEqual(viaEditor(edited), check({}, edited));
    assert.match(viaEditor(edited).find((d) => d.code === PROPOSAL_ONLY_CODE)!.message, /\(here and in 3 more entries\)/);
  });
});
