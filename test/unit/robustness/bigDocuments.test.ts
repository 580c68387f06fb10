/**
 * Robustness at every size: generated documents up to 10 MB — random block and flow
 * YAML with anchors and aliases, deep nesting, very long scalars, all broken at random places —
 * through `agentcfg validate` (in-process) and the editor's model (incremental validation and
 * completion). Whatever the input: no exception, nothing on stderr, the 128 KiB warning, and
 * every diagnostic at a position inside the document. The first case is a reported one: the first
 * 50,000 lines of a 2 MB random file plus a last line `x`. On the previous main it did not finish
 * (the library's alias resolution walked the whole document once per alias: 386 s), so the test's
 * timeout, a safety net and not a measurement, turned it red.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { completeAgentConfig } from '../../../server/src/engine/completion/index';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import { BIG_YAML_SHAPES, bigYaml, truncatedWithX } from '../../support/bigYaml';
import { AgentDir, assertInside, validateInProcess } from './harness';

const KIB = 1024;
const SAFETY_NET = { timeout: 300_000 };

/** What every validation of a large config must give. */
async function checkCli(dir: AgentDir, text: string, context: string): Promise<void> {
  const run = await validateInProcess(dir.write('config.yaml', text));
  assert.ok(run.code === 0 || run.code === 1, `${context}: exit ${run.code}, stderr ${run.stderr}`);
  assert.equal(run.stderr, '', context);
  assert.ok(run.diagnostics.length > 0, `${context}: no diagnostic`);
  if (Buffer.byteLength(text) > 128 * KIB) assert.ok(run.diagnostics.some((d) => d.code === 'config.tooLarge'), `${context}: no config.tooLarge`);
  assert.ok(!run.diagnostics.some((d) => d.code === 'internal' || /call stack/i.test(d.message)), context);
  assertInside(text, run.diagnostics.map((d) => d.range), context);
}

/** What the editor does per keystroke on the text: update the model, validate, complete at the end. */
function checkEditorModel(text: string, context: string): void {
  const model = new IncrementalAgentConfig();
  const parsed = model.update(text);
  const diagnostics = model.diagnostics({ agentName: 'fuzz' }, { agentName: 'fuzz' });
  assert.ok(diagnostics.length > 0, `${context}: no diagnostic`);
  assertInside(text, diagnostics.map((d) => d.range), context);
  const candidates = completeAgentConfig({ ...parsed, offset: text.length - 1, target: 'proposal', scenarioVariables: [], environments: [], knownIds: { projects: new Map(), groups: new Map() } });
  assert.ok(Array.isArray(candidates), context);
}

describe('the reported case: 50,000 lines of a 2 MB random YAML file and a last line `x`', () => {
  const text = truncatedWithX(50_000);

  test('agentcfg validate: the 128 KiB warning, positioned diagnostics, exit 1', SAFETY_NET, async () => {
    await checkCli(new AgentDir(), text, '50,000 lines + x');
  });

  test('the editor model: validation and completion', SAFETY_NET, () => {
    checkEditorModel(text, '50,000 lines + x');
  });
});

describe('generated documents up to 10 MB', () => {
  for (const shape of BIG_YAML_SHAPES) {
    for (const [bytes, seed] of [
      [200 * KIB, 11],
      [2_000 * KIB, 12],
      [10_000 * KIB, 13],
    ] as const) {
      test(`${shape}, ${bytes / KIB} KiB (seed ${seed}): agentcfg validate and the editor model`, SAFETY_NET, async () => {
        const text = bigYaml(shape, bytes, seed);
        const context = `${shape} ${bytes / KIB} KiB seed ${seed}`;
        await checkCli(new AgentDir(), text, context);
        checkEditorModel(text, context);
      });
    }
  }
});
