// Quick fixes computed from the document (engine/fixes/quickFixes.ts): each problem of the shipped
// broken config has one, and applying it makes that problem go without adding an error (a lint may
// then see what the broken value hid: a list of environments that names production).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkAgentFile, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS, shownDiagnostics, type EngineDiagnostic } from '../../server/src/engine/api';
import { quickFixesFor, type QuickFix } from '../../server/src/engine/api/editor';
import { parseYaml } from '../../server/src/engine/yaml/yamlDocument';
import { TextIndex } from '../../server/src/engine/text/textIndex';

const root = path.resolve(import.meta.dirname, '..', '..');
const file = path.join(root, 'examples', '.gitlab', 'agents', 'broken-agent', 'config.yaml');
const text = readFileSync(file, 'utf8');
const check = (source: string) => shownDiagnostics(checkAgentFile({ path: file, content: source }, DEFAULT_PROJECT_SETTINGS, NO_SIBLINGS));
const key = (d: EngineDiagnostic) => `${d.code} ${d.message}`;

function applied(source: string, fix: QuickFix): string {
  const index = new TextIndex(source);
  const edits = fix.edits.map((e) => ({ start: index.offsetAt(e.range.start), end: index.offsetAt(e.range.end), newText: e.newText })).sort((a, b) => b.start - a.start);
  let out = source;
  for (const e of edits) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** The fixes an editor offers for a problem: the check's own (in its data), else the document's. */
function fixesOf(source: string, d: EngineDiagnostic): QuickFix[] {
  const data = d.data as Record<string, unknown> | undefined;
  if (typeof data?.suggestion === 'string') return [{ title: `Change to ${data.suggestion}`, edits: [{ range: d.range, newText: data.suggestion }], preferred: true }];
  return quickFixesFor(parseYaml(source), d);
}

const problems = check(text);

test('the broken example shows its seven problems', () => {
  assert.deepEqual(problems.map((d) => d.code), ['schema.unknownKey', 'schema.type', 'schema.oneOf', 'security.agentIdentityShared', 'schema.type', 'yaml.duplicateKey', 'schema.removedKey']);
});

for (const problem of problems) {
  test(`${problem.code} on line ${problem.range.start.line + 1} has a fix, and each fix removes it and adds no error`, () => {
    const fixes = fixesOf(text, problem);
    assert.ok(fixes.length > 0, `no fix for: ${problem.message}`);
    for (const fix of fixes) {
      const after = check(applied(text, fix));
      const before = new Set(problems.map(key));
      assert.ok(!after.some((d) => key(d) === key(problem)), `"${fix.title}" left the problem`);
      const added = after.filter((d) => !before.has(key(d)) && d.severity === 'error');
      assert.deepEqual(added.map(key), [], `"${fix.title}" added errors`);
    }
  });
}

test('the boolean and access_as fixes offer a choice; the list and key removals are the one obvious fix', () => {
  const titles = (code: string, nth = 0) => fixesOf(text, problems.filter((d) => d.code === code)[nth]!).map((f) => `${f.title}${f.preferred ? ' (preferred)' : ''}`);
  assert.deepEqual(titles('schema.type', 0), ['Change to true', 'Change to false']);
  assert.deepEqual(titles('schema.oneOf'), ['Keep only ci_job', 'Keep only agent']);
  assert.deepEqual(titles('schema.type', 1), ['Make it a list: [production] (preferred)']);
  assert.deepEqual(titles('yaml.duplicateKey'), ['Remove the earlier "level" (GitLab ignores it) (preferred)']);
  assert.deepEqual(titles('schema.removedKey'), ['Remove "gitops" (GitLab no longer reads it) (preferred)']);
  assert.deepEqual(titles('security.agentIdentityShared'), ['Silence security.agentIdentityShared for this line']);
});
