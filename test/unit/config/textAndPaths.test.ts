import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyPath } from '../../../server/src/engine/files';
import { closestMatch } from '../../../server/src/engine/text/didYouMean';
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
});
