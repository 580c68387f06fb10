/**
 * Validation costs time roughly linear in a document's size, whatever its shape. Measured without a
 * wall-clock threshold, which a loaded machine would break: each hostile document is timed against
 * a plain configuration of the same size validated from scratch (or against itself at a quarter of
 * the size), interleaved and taking the fastest of several runs, so load slows both sides alike. Before the fix, a 3 KB
 * config of nested flow mappings re-validated in 4.3 s per keystroke in the editor (a plain 3 KB
 * config: a few milliseconds), and a 7 KB one in 15 s.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { useFastBlockYaml } from '../../../server/src/engine/yaml/fastBlockYaml';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import { validateAgentConfig, type ValidateOptions } from '../../../server/src/engine/config/validateAgentConfig';
import { generateAgentConfigOfSize } from '../../support/generateConfig';
import { nestedFlow, nestedFlowConfig, nestedFlowKeysConfig } from './mutations';

const OPTIONS: ValidateOptions = {
  target: 'proposal',
  agentName: 'linear',
  rules: { agent: { configProjectPath: 'acme/infra', name: 'linear' }, scenarios: presetScenarios('main'), defaultBranch: 'main', options: { noRuleMatch: 'deny', overlongNamespace: 'error' } },
};

const ROUNDS = 7;

/** A measurement: what the editor does per keystroke, or a whole validation. */
type Measure = (round: number) => number;

/** One character typed at the end of `text`: the editor's model updated and checked (editor's view). */
function keystroke(text: string): Measure {
  const model = new IncrementalAgentConfig();
  return (round) => {
    const started = performance.now();
    model.update(text + ' '.repeat(round + 2));
    model.diagnostics(OPTIONS, OPTIONS);
    return performance.now() - started;
  };
}

/**
 * `text` parsed and validated from scratch: the baseline, linear by construction. Read by the yaml
 * library, as the hostile shapes are (the fast block-YAML reader would make the baseline cheaper
 * than the library's linear cost, which is what the hostile shapes are compared with).
 */
function wholeValidation(text: string): Measure {
  return () => {
    const was = useFastBlockYaml(false);
    try {
      const started = performance.now();
      validateAgentConfig(text, OPTIONS);
      return performance.now() - started;
    } finally {
      useFastBlockYaml(was);
    }
  };
}

/** The fastest run of each measurement, measured in turn in every round (after a warm-up run each). */
function fastest(measures: readonly Measure[]): number[] {
  measures.forEach((measure) => measure(-1));
  const best = measures.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++) measures.forEach((measure, i) => (best[i] = Math.min(best[i], measure(round))));
  return best;
}

/** The reported case, reduced, and shapes like it, built to about `bytes`. */
const NESTED_FLOW: Record<string, (bytes: number) => string> = {
  'flow mappings whose keys are flow mappings, one per line (the reduced case)': nestedFlowKeysConfig,
  'nested flow mappings': (bytes) => nestedFlowConfig(nestedFlow(Math.floor(bytes / 4), 'map', true)),
  'nested flow lists and mappings, unclosed': (bytes) => nestedFlowConfig(nestedFlow(Math.floor(bytes / 5), 'mixed', false)),
  'one long line of flow entries': (bytes) => nestedFlowConfig(`[${Array.from({ length: Math.floor(bytes / 30) }, (_, i) => `{id: p${i}, x: {a: {b: [c]}}}`).join(', ')}]`),
};

describe('nested flow configs cost about what a plain config of the same size costs', () => {
  test('3 KB and 7 KB, per keystroke in the editor', () => {
    for (const bytes of [3_000, 7_000]) {
      for (const [shape, build] of Object.entries(NESTED_FLOW)) {
        const text = build(bytes);
        const [hostile, plain] = fastest([keystroke(text), wholeValidation(generateAgentConfigOfSize(text.length))]);
        // Linear work stays within a small factor of the plain config; the reported case was ~1,000×.
        assert.ok(hostile <= 10 * plain + 5, `${shape}, ${text.length} bytes: ${hostile.toFixed(1)} ms per keystroke, a plain config of that size ${plain.toFixed(1)} ms to validate whole`);
      }
    }
  });
});

/** Shapes that grow wide rather than deep: quadratic steps show as 16× for 4× the size. */
const WIDE: Record<string, (count: number) => string> = {
  'a flow mapping of many keys': (n) => nestedFlowConfig(`{${Array.from({ length: n }, (_, i) => `k${i}: 1`).join(', ')}}`),
  'a block mapping of many keys': (n) => `ci_access:\n  projects:\n    - id: a\n${Array.from({ length: n }, (_, i) => `      k${i}: 1\n`).join('')}`,
  'many mapping keys that are flow mappings': (n) => Array.from({ length: n }, (_, i) => `? {${'{'.repeat(10)}k${i}${': v}'.repeat(10)}: x}\n: v\n`).join(''),
};

describe('four times the document costs about four times as much', () => {
  test('wide mappings and many collection keys', () => {
    for (const [shape, build] of Object.entries(WIDE)) {
      const [small, large] = fastest([keystroke(build(400)), keystroke(build(1_600))]);
      // Linear: 4×; quadratic: 16×. Between them, with room for noise.
      assert.ok(large <= 9 * small + 5, `${shape}: ${small.toFixed(1)} ms for 400, ${large.toFixed(1)} ms for 1,600`);
    }
  });
});
