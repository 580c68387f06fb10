// Diagnostics, end to end in a real VS Code (code-server 4.100.3 + Chromium): opening the broken
// example config lists its mistakes in the Problems panel at the exact key or value, and fixing the
// text clears the corresponding problem as you type.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatProblems, launchWorkbench, repoRoot, type Problem, type Workbench } from './harness';

const BROKEN = '.gitlab/agents/broken-agent/config.yaml';

let wb: Workbench;

before(async () => {
  wb = await launchWorkbench({ workspaceFolder: path.join(repoRoot, 'examples') });
});

after(async () => {
  await wb?.close();
});

const unknownKey = (p: Problem) => p.message.startsWith('Unknown key "defualt_namespace"');
const notBoolean = (p: Problem) => p.message.includes('must be a boolean');

test('the broken config lists its errors in the Problems panel at the exact positions', async () => {
  await wb.openFile(BROKEN);
  const typo = await wb.waitForProblem(unknownKey, 60_000);
  const listed = await wb.problems();
  await wb.screenshot('diagnostics-broken-config');

  assert.equal(typo.severity, 'error');
  assert.equal(typo.code, 'schema.unknownKey');
  assert.deepEqual([typo.line, typo.column], [5, 7], 'on the key itself');
  assert.match(typo.message, /default_namespace/, 'suggests the right key');

  const find = (predicate: (p: Problem) => boolean, what: string) => {
    const found = listed.find(predicate);
    assert.ok(found, `expected ${what} among:\n${formatProblems(listed)}`);
    return found;
  };
  const yesPlease = find(notBoolean, 'a "must be a boolean" error');
  assert.deepEqual([yesPlease.line, yesPlease.column], [6, 32], 'on the value "yes please"');
  const duplicate = find((p) => /duplicate/i.test(p.message), 'a duplicate key error');
  assert.equal(duplicate.line, 17, 'on the second "level"');
  const gitops = find((p) => /gitops/.test(p.message) && /removed/.test(p.message), 'a "gitops removed" error');
  assert.deepEqual([gitops.line, gitops.column], [18, 1]);
  for (const p of listed) assert.equal(p.resource, 'config.yaml .gitlab/agents/broken-agent', `grouped under the file: ${p.message}`);
  assert.deepEqual(wb.externalRequests, [], 'the browser reached only loopback');
});

test('fixing the typo clears its problem as you type; the others stay', async () => {
  // "defualt_namespace" starts at line 5, column 7: swap "ua" (columns 10-11) for "au".
  await wb.replaceRange(5, 10, 12, 'au');
  const remaining = await wb.waitForNoProblem(unknownKey, 30_000);
  await wb.screenshot('diagnostics-typo-fixed');
  assert.ok(remaining.some(notBoolean), `the other errors remain:\n${formatProblems(remaining)}`);

  await wb.replaceRange(6, 32, 44, 'true');
  const afterBoolean = await wb.waitForNoProblem(notBoolean, 30_000);
  await wb.screenshot('diagnostics-boolean-fixed');
  assert.ok(!afterBoolean.some(unknownKey), 'the typo stays fixed');
  assert.ok(afterBoolean.some((p) => /duplicate/i.test(p.message)), `the duplicate key remains:\n${formatProblems(afterBoolean)}`);
});
