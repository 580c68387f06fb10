/**
 * Completion reads the model DocumentModels keeps incrementally (entries parsed on their own and
 * moved into place): at every position it must answer exactly as from a whole parse of the text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completeAgentConfig, indexIds } from '../../../server/src/engine/completion';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import { parseYaml, type ParsedYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { generateVariedAgentConfig } from '../../support/generateConfig';

test('completion from the incremental model equals completion from a whole parse, at every position', () => {
  const text = generateVariedAgentConfig(40, 7);
  const model = new IncrementalAgentConfig();
  model.update(text.replace('ci_access', 'ci_accesz')); // an earlier version, so that this one is composed from cached entries
  const composed = model.update(text);
  assert.equal(model.incremental, true, 'the version under test is composed, not parsed whole');
  const whole = parseYaml(text);
  const lines = text.split('\n');
  const answer = (parsed: ParsedYaml, offset: number) =>
    completeAgentConfig({ text, index: parsed.index, doc: parsed.doc, value: parsed.value, offset, target: 'proposal', scenarioVariables: [], environments: [], knownIds: indexIds(new Map()) })
      .map((c) => `${c.label}@${c.replace.join('-')}`)
      .join('|');
  let compared = 0;
  for (const [line, content] of lines.entries()) {
    for (let character = 0; character <= content.length; character += 3) {
      const offset = whole.index.offsetAt({ line, character });
      assert.equal(answer(composed, offset), answer(whole, offset), `line ${line + 1}, column ${character + 1}: ${content}`);
      compared++;
    }
  }
  assert.ok(compared > 1000, `${compared} positions compared`);
});
