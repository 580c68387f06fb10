// Benchmark (not a test): the access diff of two 5,000-entry configurations over 20
// scenarios — a one-line change, and a change to every entry — parsing of both versions included.
// The target is under 1 s. Run: node --import tsx bench/accessDiff.ts
import os from 'node:os';
import type { JobScenario } from '../server/src/engine/access/scenarios';
import { presetScenarios } from '../server/src/engine/access/scenarios';
import { parseYaml } from '../server/src/engine/yaml/yamlDocument';
import { accessDiff } from '../server/src/engine/diff';
import { DEFAULT_PROJECT_SETTINGS } from '../server/src/engine/api';
import { clearEngineCaches } from '../server/src/engine/cache';
import { generateAgentConfig } from '../test/support/generateConfig';
import { median } from './lib/stats';

const ENTRIES = 5000;
const SCENARIOS = 20;

const scenarios: JobScenario[] = [...presetScenarios('main')];
for (let i = scenarios.length; i < SCENARIOS; i++) {
  scenarios.push({ name: `scenario ${i}`, ref: i % 3 ? `feature/${i}` : 'main', protectedRef: i % 3 === 0, ...(i % 4 ? { environmentName: i % 2 ? 'production' : `review/topic-${i}` } : {}) });
}
const settings = { ...DEFAULT_PROJECT_SETTINGS, configProjectPath: 'acme/infra/agents' };
const before = generateAgentConfig(ENTRIES);
const cases = {
  'one entry changed': before.replace('namespace: service-7-$CI', 'namespace: svc-7-$CI'),
  'every entry changed': before.replaceAll('namespace: service-', 'namespace: svc-'),
};

console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}`);
for (const [name, after] of Object.entries(cases)) {
  clearEngineCaches(); // each case from cold caches, as its own process would be
  const run = () => accessDiff({ before: { configs: { bench: { text: before } } }, after: { configs: { bench: { text: after } } }, settings, scenarios });
  run(); // warm-up
  const times: number[] = [];
  let changes = 0;
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    changes = run().length;
    times.push(performance.now() - start);
  }
  const parseStart = performance.now();
  const parsed = { before: parseYaml(before), after: parseYaml(after) };
  const parseMs = performance.now() - parseStart;
  // As the editor calls it: both versions already parsed.
  const preparsed: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    accessDiff({ before: { configs: { bench: { text: before, parsed: parsed.before } } }, after: { configs: { bench: { text: after, parsed: parsed.after } } }, settings, scenarios });
    preparsed.push(performance.now() - start);
  }
  console.log(`access diff, ${ENTRIES} entries × ${SCENARIOS} scenarios, ${name}: median ${median(times).toFixed(0)} ms (${changes} changes; GitLab reads the first 500 entries), of which parsing both versions ~${parseMs.toFixed(0)} ms; with both already parsed: median ${median(preparsed).toFixed(0)} ms`);
}
