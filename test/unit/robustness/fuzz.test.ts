/**
 * Fuzzing the checks with mutations of the example files and fixtures (mutations.ts): random edits,
 * deep nesting, flow collections, broken `if:` expressions and template actions, huge lines, invalid
 * UTF-8. Whatever the input, `agentcfg validate` (run in-process) and the editor's incremental
 * model must not throw, must print nothing on stderr (no library warnings either), must put every
 * diagnostic inside the document, and must finish well within a generous time cap. The cap is a
 * safety net only (20× what a document should take); linearTime.test.ts measures the cost.
 * Seeded: a failure names its seed and document, and the document is written to test-output/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { completeAgentConfig, completeEnvironmentTemplate } from '../../../server/src/engine/completion/index';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import type { ValidateOptions } from '../../../server/src/engine/config/validateAgentConfig';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { seededRandom } from '../../support/generateConfig';
import { repoRoot } from '../../support/lspClient';
import { AgentDir, assertInside, validateInProcess } from './harness';
import { int, mutate, seedConfigs, seedTemplates, withInvalidUtf8, type Random } from './mutations';

const SEEDS = [1, 2, 3, 4];
const DOCUMENTS_PER_SEED = 250;
const EDITS_PER_SEED = 125;
/**
 * Per document: 2 s plus 20 ms per KB, 20× what a validation should take (about 100 ms, and 1 ms
 * per KB of syntax errors), so that only a runaway trips it, not a loaded machine.
 */
const capMs = (text: string) => 2_000 + (20 * text.length) / 1024;
/** GitLab's limit on config.yaml; edits that grow the text past it start again from a seed. */
const MAX_TEXT = 128 * 1024;

const RULES: ValidateOptions = {
  target: 'proposal',
  agentName: 'fuzz',
  rules: { agent: { configProjectPath: 'acme/infra', name: 'fuzz' }, scenarios: presetScenarios('main'), defaultBranch: 'main', options: { noRuleMatch: 'deny', overlongNamespace: 'error' } },
};

/** A config that turns resource management on, so that the template is rendered for every scenario. */
const MANAGED_CONFIG = 'ci_access:\n  projects:\n    - id: acme/app\n      access_as: {ci_job: {}}\n      resource_management: {enabled: true}\n';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);
before(() => process.on('warning', onWarning));
after(() => process.off('warning', onWarning));

/** Runs `check`; on failure writes the document where it can be replayed and names seed and index. */
async function replayable(seed: number, i: number, content: string | Buffer, check: () => Promise<void> | void): Promise<void> {
  try {
    await check();
  } catch (err) {
    const dir = path.join(repoRoot, 'test-output', 'robustness');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `seed-${seed}-doc-${i}.yaml`);
    writeFileSync(file, content);
    throw new Error(`seed ${seed}, document ${i} (written to ${file}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** 1 to 3 mutations of a seed document. */
function variant(seeds: readonly string[], random: Random): string {
  let text = seeds[int(random, seeds.length)];
  for (let n = 1 + int(random, 3); n > 0 && text.length <= MAX_TEXT; n--) text = mutate(text, random);
  return text;
}

async function checkCli(file: string, text: string, context: string): Promise<void> {
  const run = await validateInProcess(file);
  assert.ok(run.code === 0 || run.code === 1, `${context}: exit ${run.code}`);
  assert.equal(run.stderr, '', context);
  assertInside(text, run.diagnostics.map((d) => d.range), context);
  assert.ok(run.milliseconds < capMs(text), `${context}: ${run.milliseconds.toFixed(0)} ms for ${text.length} characters`);
}

describe('fuzzed files through agentcfg validate, in-process', () => {
  for (const seed of SEEDS) {
    test(`config.yaml variants (seed ${seed})`, async () => {
      const random = seededRandom(seed);
      const seeds = seedConfigs();
      const dir = new AgentDir();
      for (let i = 0; i < DOCUMENTS_PER_SEED; i++) {
        const text = variant(seeds, random);
        const bytes = random() < 0.1 ? withInvalidUtf8(text, random) : null;
        await replayable(seed, i, bytes ?? text, async () => {
          await checkCli(dir.write('config.yaml', bytes ?? text), bytes ? bytes.toString('utf8') : text, `config, seed ${seed}, document ${i}`);
        });
      }
      assert.deepEqual(warnings, []);
    });

    test(`environment template variants, rendered for every scenario (seed ${seed})`, async () => {
      const random = seededRandom(seed + 100);
      const seeds = seedTemplates();
      const dir = new AgentDir();
      dir.write('config.yaml', MANAGED_CONFIG);
      for (let i = 0; i < DOCUMENTS_PER_SEED; i++) {
        const text = variant(seeds, random);
        const bytes = random() < 0.1 ? withInvalidUtf8(text, random) : null;
        await replayable(seed + 100, i, bytes ?? text, async () => {
          await checkCli(dir.write('environment_templates/default.yaml', bytes ?? text), bytes ? bytes.toString('utf8') : text, `template, seed ${seed + 100}, document ${i}`);
        });
      }
      assert.deepEqual(warnings, []);
    });
  }
});

describe('fuzzed edits through the editor model: incremental validation and completion', () => {
  for (const seed of SEEDS) {
    test(`a config edited ${EDITS_PER_SEED} times (seed ${seed + 200})`, async () => {
      const random = seededRandom(seed + 200);
      const seeds = seedConfigs();
      const model = new IncrementalAgentConfig();
      let text = seeds[int(random, seeds.length)];
      for (let i = 0; i < EDITS_PER_SEED; i++) {
        // Mostly keep editing the same text, as a user does; now and then start again from a seed.
        text = random() < 0.1 || text.length > MAX_TEXT ? seeds[int(random, seeds.length)] : mutate(text, random);
        const current = text;
        await replayable(seed + 200, i, current, () => {
          const context = `edit ${i}, seed ${seed + 200}`;
          // What the editor does per keystroke: update the model, validate, complete somewhere.
          const started = performance.now();
          const parsed = model.update(current);
          const diagnostics = model.diagnostics(RULES, RULES);
          const offset = int(random, current.length + 1);
          const candidates = completeAgentConfig({ ...parsed, offset, target: 'proposal', scenarioVariables: [], environments: [], knownIds: { projects: new Map(), groups: new Map() } });
          const elapsed = performance.now() - started;
          assertInside(current, diagnostics.map((d) => d.range), context);
          assert.ok(Array.isArray(candidates), context);
          assert.ok(elapsed < capMs(current), `${context}: ${elapsed.toFixed(0)} ms for ${current.length} characters`);
          // The same text completed as a template (actions, `{{ .` variables) must not throw either.
          const template = parseYaml(current);
          completeEnvironmentTemplate(template.text, template.index, template.doc, offset);
        });
      }
      assert.deepEqual(warnings, []);
    });
  }
});
