// Benchmark (not a test): simulations per second — 5,000 ci_access project entries (with rules) × 20
// scenarios through the full engine (authorization order, filters, rules, expansion, namespace
// checks, identity). Run: node --import tsx bench/simulate.ts
import os from 'node:os';
import { readCiAccess } from '../server/src/engine/access/model';
import { presetScenarios, scenarioForEntry, type JobScenario } from '../server/src/engine/access/scenarios';
import { simulateAccess } from '../server/src/engine/access/simulate';
import { parseYaml } from '../server/src/engine/yaml/yamlDocument';
import { generateAgentConfig } from '../test/support/generateConfig';

const ENTRIES = 5000;
const SCENARIOS = 20;

const text = generateAgentConfig(ENTRIES);
let t = performance.now();
const model = readCiAccess(parseYaml(text).value);
const parseMs = performance.now() - t;

// 20 scenarios: the 4 presets plus branches/environments that exercise every rule path.
const scenarios: JobScenario[] = [...presetScenarios('main')];
for (let i = scenarios.length; i < SCENARIOS; i++) {
  scenarios.push({ name: `scenario ${i}`, ref: i % 3 ? `feature/${i}` : 'main', protectedRef: i % 3 === 0, ...(i % 4 ? { environmentName: i % 2 ? 'production' : `review/topic-${i}` } : {}) });
}
const agent = { configProjectPath: 'acme/infra/agents', name: 'bench' };

// Warm-up, then the timed run.
for (const entry of model.projects.slice(0, 200)) for (const s of scenarios) simulateAccess(model, agent, scenarioForEntry(s, entry, 'main'));
t = performance.now();
let authorized = 0;
let runs = 0;
// Only the first 500 entries are honoured by GitLab (docs/gitlab-behaviour.md#top-level-keys-and-list-limits): simulate every generated project path,
// the ones past the limit are (correctly) denied and cost the same lookup.
for (let i = 0; i < ENTRIES; i++) {
  const projectPath = `acme/team-${i % 97}/service-${i}`;
  for (const s of scenarios) {
    const outcome = simulateAccess(model, agent, { ...scenarioForEntry(s, null, 'main'), projectPath });
    if (outcome.authorized) authorized++;
    runs++;
  }
}
const ms = performance.now() - t;
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
console.log(`parse ${ENTRIES} entries (${(text.length / 1024).toFixed(0)} KiB): ${parseMs.toFixed(0)} ms`);
console.log(`simulations: ${runs.toLocaleString('en-US')} (${ENTRIES} projects × ${SCENARIOS} scenarios) in ${ms.toFixed(0)} ms = ${Math.round((runs / ms) * 1000).toLocaleString('en-US')} simulations/s (${authorized} authorized)`);
