/**
 * Invariants of every answer, on intact and on broken text (edits mid-typing): completion never
 * throws, and each edit stays on the cursor's line and covers the cursor (LSP requires both).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { completeAgentConfig, completeEnvironmentTemplate, indexIds } from '../../../server/src/engine/completion';
import { parseYaml, type ParsedYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { repoRoot } from '../../support/lspClient';

const CONFIG = readFileSync(path.join(repoRoot, 'examples', '.gitlab', 'agents', 'production-agent', 'config.yaml'), 'utf8');
const TEMPLATE = readFileSync(path.join(repoRoot, 'examples', '.gitlab', 'agents', 'production-agent', 'environment_templates', 'default.yaml'), 'utf8');

/** A deterministic sequence of numbers in [0, 1) (the same mutations on every run). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** The text with a few characters deleted or inserted, as typing leaves it between keystrokes. */
function mutate(text: string, random: () => number): string {
  let out = text;
  for (let i = 0; i < 3; i++) {
    const at = Math.floor(random() * out.length);
    out = random() < 0.5 ? out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 4)) : out.slice(0, at) + ' -:${}"\'#|\n.'[Math.floor(random() * 14)] + out.slice(at);
  }
  return out;
}

type Complete = (text: string, parsed: ParsedYaml, offset: number) => { replace: readonly [number, number] }[];

function checkEveryPosition(text: string, complete: Complete): number {
  const parsed = parseYaml(text);
  let answers = 0;
  for (let offset = 0; offset <= text.length; offset += 2) {
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const nextBreak = text.indexOf('\n', offset);
    const lineEnd = nextBreak === -1 ? text.length : nextBreak;
    for (const candidate of complete(text, parsed, offset)) {
      const [start, end] = candidate.replace;
      assert.ok(lineStart <= start && start <= offset && offset <= end && end <= lineEnd, `edit [${start}, ${end}) at ${offset} leaves line [${lineStart}, ${lineEnd}) in:\n${text}`);
      answers++;
    }
  }
  return answers;
}

const agentConfig: Complete = (text, parsed, offset) =>
  completeAgentConfig({ text, index: parsed.index, doc: parsed.doc, value: parsed.value, offset, target: 'proposal', scenarioVariables: [{ name: 'X', scenarios: ['s'] }], environments: [{ name: 'review/a', scenarios: ['s'] }], knownIds: indexIds(new Map([['agent b', { projects: ['acme/x'], groups: ['acme'] }]])) });
const template: Complete = (text, parsed, offset) => completeEnvironmentTemplate(text, parsed.index, parsed.doc, offset);

test('agent config: edits stay on the cursor line, on the example and on 30 broken variants', () => {
  const random = seeded(42);
  let answers = checkEveryPosition(CONFIG, agentConfig);
  for (let i = 0; i < 30; i++) answers += checkEveryPosition(mutate(CONFIG, random), agentConfig);
  assert.ok(answers > 1000, `${answers} candidates checked`);
});

test('environment template: edits stay on the cursor line, on the example and on 30 broken variants', () => {
  const random = seeded(7);
  let answers = checkEveryPosition(TEMPLATE, template);
  for (let i = 0; i < 30; i++) answers += checkEveryPosition(mutate(TEMPLATE, random), template);
  assert.ok(answers > 500, `${answers} candidates checked`);
});
