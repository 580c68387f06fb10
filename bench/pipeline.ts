// Benchmark (not a test): the pipeline access map — a .gitlab-ci.yml of 500 jobs (extends,
// rules, environments, kubectl contexts) × 5 pipeline situations × 3 agents, built from scratch, and
// again after an edit of one job (the editor re-maps on every edit). Prints figures, asserts none.
// Run: node --import tsx bench/pipeline.ts
import os from 'node:os';
import { readCiAccess } from '../server/src/engine/access/model';
import { parseYaml } from '../server/src/engine/yaml/yamlDocument';
import { DEFAULT_PROJECT_SETTINGS, pipelineAccess } from '../server/src/engine/api';

const JOBS = 500;
const AGENTS = 3;
const REPEAT = 15;
/** Edits are cheap: more of them keep the median steady on a loaded machine. */
const EDITS = 45;

function pipeline(jobs: number, edited = -1, prefix = 'job'): string {
  const lines = ['variables:', '  AGENT: acme/agents:agent-0', '', 'workflow:', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', '    - if: $CI_COMMIT_BRANCH', '    - if: $CI_COMMIT_TAG', '', '.deploy:', '  image: bitnami/kubectl', '  before_script:', '    - kubectl config use-context $AGENT', ''];
  for (let i = 0; i < jobs; i++) {
    const review = i % 3 === 0;
    lines.push(
      `${prefix}-${i}:`,
      '  extends: .deploy',
      `  stage: ${review ? 'review' : 'deploy'}`,
      '  script:',
      `    - kubectl --context acme/agents:agent-${i % AGENTS} apply -f k8s/${i}${i === edited ? '-edited' : ''}/`,
      '  environment:',
      `    name: ${review ? 'review/$CI_COMMIT_REF_SLUG' : i % 3 === 1 ? 'production' : 'staging'}`,
      '    kubernetes:',
      `      agent: acme/agents:agent-${i % AGENTS}`,
      '  rules:',
      review ? '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"' : '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
      ...(review ? [] : ['      when: manual']),
      '',
    );
  }
  return lines.join('\n');
}

function agentConfig(index: number): string {
  const entries = Array.from({ length: 50 }, (_, i) => `    - id: acme/team-${i}/service\n      default_namespace: ns-${i}\n      environments: [production, "review/*"]\n`);
  return `ci_access:\n  projects:\n    - id: acme/shop\n      default_namespace: shop-${index}\n      access_as:\n        ci_job: {}\n      environments: [production, staging, "review/*"]\n${entries.join('')}  groups:\n    - id: acme/platform\n`;
}

const agents = Array.from({ length: AGENTS }, (_, i) => ({ agent: { configProjectPath: 'acme/agents', name: `agent-${i}` }, ciAccess: readCiAccess(parseYaml(agentConfig(i)).value) }));
const base = { file: '.gitlab-ci.yml', read: () => null, projectPath: 'acme/shop', settings: DEFAULT_PROJECT_SETTINGS, agents };

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const text = pipeline(JOBS);
for (let i = 0; i < 3; i++) pipelineAccess({ ...base, text }); // warm-up
const full: number[] = [];
let rows = 0;
for (let i = 0; i < REPEAT; i++) {
  // Every job named anew each time: nothing read or mapped before can help.
  const fresh = pipeline(JOBS, -1, `run${i}`);
  const t = performance.now();
  rows = pipelineAccess({ ...base, text: fresh }).map.length;
  full.push(performance.now() - t);
}
// The editor's path: the previous version was mapped just before and is passed as `previous`
// (the reader keeps each unchanged top-level entry's parse; the map keeps each unchanged job's rows).
const previous = pipelineAccess({ ...base, text });
// A few edits first, as an editor has had by then (the edit path's code is compiled, not the first call's).
for (let i = 0; i < 3; i++) pipelineAccess({ ...base, text: pipeline(JOBS, JOBS - 1 - i), previous });
const edit: number[] = [];
for (let i = 0; i < EDITS; i++) {
  const edited = pipeline(JOBS, (i * 37) % JOBS);
  const t = performance.now();
  pipelineAccess({ ...base, text: edited, previous });
  edit.push(performance.now() - t);
}
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}`);
console.log(`pipeline of ${JOBS} jobs (${(text.length / 1024).toFixed(0)} KiB) × 5 situations × ${AGENTS} agents = ${rows} job rows`);
console.log(`  access map from scratch: median ${median(full).toFixed(1)} ms (goal < 100 ms)`);
console.log(`  after an edit of one job: median ${median(edit).toFixed(1)} ms (goal < 20 ms)`);
