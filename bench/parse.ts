// Benchmark (not a test): parsing an agent configuration, the library's path and the
// fast block-YAML reader side by side in one run, on the generated configuration at several sizes.
// `compose` is composeYaml alone; `parseYaml` adds conversion to data, duplicate-key and depth
// checks and the line index, as every caller gets it. Medians of several runs, interleaved.
// Run: node --import tsx bench/parse.ts  (add --heap to also print peak heap at 50,000 entries)
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { composeYaml, composeYamlWithLibrary } from '../server/src/engine/yaml/boundedYaml';
import { useFastBlockYaml } from '../server/src/engine/yaml/fastBlockYaml';
import { GITLAB_YAML, parseComposedYaml, parseYaml } from '../server/src/engine/yaml/yamlDocument';
import { generateAgentConfig } from '../test/support/generateConfig';
import { median } from './lib/stats';

const SIZES = [100, 1000, 5000, 20000];
const HEAP_ENTRIES = 50_000;

// A child process of this script: parse HEAP_ENTRIES entries once, with or without the fast reader,
// and print the peak resident set and the heap still used while the result is held.
if (process.argv[2] === '--heap-child') {
  useFastBlockYaml(process.argv[3] === 'fast');
  const text = generateAgentConfig(HEAP_ENTRIES);
  const parsed = parseYaml(text);
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, heapUsed: heap, ok: parsed.doc !== null }));
  process.exit(0);
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('entries   size      compose: library   fast   ratio   parseYaml: library   fast   ratio');
for (const entries of SIZES) {
  const text = generateAgentConfig(entries);
  const runs = entries >= 20000 ? 5 : entries >= 5000 ? 9 : 21;
  const lib: number[] = [];
  const fast: number[] = [];
  const libParse: number[] = [];
  const fastParse: number[] = [];
  for (let r = -2; r < runs; r++) {
    // Interleaved (the machine is shared): each pair of figures sees the same load.
    const a = time(() => composeYamlWithLibrary(text, GITLAB_YAML));
    const b = time(() => composeYaml(text, GITLAB_YAML));
    const c = time(() => parseComposedYaml(text, composeYamlWithLibrary(text, GITLAB_YAML)));
    const d = time(() => parseComposedYaml(text, composeYaml(text, GITLAB_YAML)));
    if (r < 0) continue; // warm-up
    lib.push(a);
    fast.push(b);
    libParse.push(c);
    fastParse.push(d);
  }
  const row = [
    String(entries).padStart(7),
    `${(text.length / 1024).toFixed(0)} KiB`.padStart(9),
    `${median(lib).toFixed(1)} ms`.padStart(19),
    `${median(fast).toFixed(1)} ms`.padStart(9),
    `${(median(lib) / median(fast)).toFixed(1)}×`.padStart(7),
    `${median(libParse).toFixed(1)} ms`.padStart(21),
    `${median(fastParse).toFixed(1)} ms`.padStart(9),
    `${(median(libParse) / median(fastParse)).toFixed(1)}×`.padStart(7),
  ];
  console.log(row.join(' '));
}
console.log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

if (process.argv.includes('--heap')) {
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  for (const mode of ['library', 'fast']) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, '--heap-child', mode], { encoding: 'utf8' });
    const { maxRssKiB, heapUsed } = JSON.parse(out.trim().split('\n').pop()!) as { maxRssKiB: number; heapUsed: number };
    console.log(`parseYaml of ${HEAP_ENTRIES} entries, ${mode}: peak RSS ${mib(maxRssKiB * 1024)}, heap held after GC ${mib(heapUsed)}`);
  }
}
