import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyPath } from '../../../server/src/engine/files';
import { closestMatch, editDistance } from '../../../server/src/engine/text/didYouMean';
import { PREDEFINED_VARIABLES } from '../../../server/src/engine/vars/predefined';
import { TextIndex } from '../../../server/src/engine/text/textIndex';

describe('TextIndex', () => {
  test('LF, CRLF and CR line breaks', () => {
    const index = new TextIndex('a\nbc\r\nd\re');
    assert.deepEqual(index.positionAt(0), { line: 0, character: 0 });
    assert.deepEqual(index.positionAt(3), { line: 1, character: 1 });
    assert.deepEqual(index.positionAt(6), { line: 2, character: 0 });
    assert.deepEqual(index.positionAt(8), { line: 3, character: 0 });
    assert.equal(index.lineEnd(1), 4);
    assert.equal(index.offsetAt({ line: 1, character: 99 }), 4);
  });
});

// docs/gitlab-behaviour.md#config-file-location-and-parsing, docs/gitlab-behaviour.md#environment-template-file
describe('classifyPath (locations)', () => {
  const cases: [string, string][] = [
    ['/repo/.gitlab/agents/prod/config.yaml', 'agentConfig'],
    ['/repo/.gitlab/agents/prod/config.yml', 'agentConfig'],
    ['C:\\repo\\.gitlab\\agents\\prod\\config.yaml', 'agentConfig'],
    ['/repo/.gitlab/agents/prod/environment_templates/default.yaml', 'environmentTemplate'],
    ['/repo/.gitlab/agents/config.yaml', 'other'],
    ['/repo/.gitlab-ci.yml', 'other'],
  ];
  for (const [file, kind] of cases) test(`${file} → ${kind}`, () => assert.equal(classifyPath(file).kind, kind));
  test('percent-encoded URI paths', () => {
    assert.deepEqual(classifyPath('/my%20repo/.gitlab/agents/a%2Db/config.yaml'), { kind: 'agentConfig', agentName: 'a-b' });
  });
});

describe('closestMatch', () => {
  test('suggests near misses only', () => {
    assert.equal(closestMatch('defualt_namespace', ['id', 'default_namespace']), 'default_namespace');
    assert.equal(closestMatch('enviroments', ['environments', 'rules']), 'environments');
    assert.equal(closestMatch('zzz', ['id', 'rules']), null);
  });

  test('answers asked again (remembered per candidate list, 512 at most) equal a fresh comparison with every candidate', () => {
    const names = PREDEFINED_VARIABLES.map((v) => v.name);
    /** The definition: the first candidate at the least distance, within the limit, ignoring case. */
    const reference = (word: string): string | null => {
      const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
      let best: string | null = null;
      let bestDistance = limit + 1;
      for (const name of names) {
        const d = editDistance(word.toLowerCase(), name.toLowerCase(), limit);
        if (d < bestDistance) [best, bestDistance] = [name, d];
      }
      return best;
    };
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const words = Array.from({ length: 1500 }, () => {
      const name = names[random(names.length)]!;
      const at = random(name.length);
      const edited = [name.slice(0, at) + name.slice(at + 1), name.slice(0, at) + 'X' + name.slice(at), name.toLowerCase(), `DEPLOY_${random(40)}`][random(4)]!;
      return random(3) === 0 ? edited.slice(0, 3 + random(6)) : edited;
    });
    let suggested = 0;
    for (const round of [1, 2]) {
      for (const word of words) {
        const expected = reference(word);
        if (expected) suggested++;
        assert.equal(closestMatch(word, names), expected, `${word} (round ${round})`);
      }
    }
    assert.ok(suggested > 1000, `suggestions compared: ${suggested}`);
  });
});
