// Benchmark (not a test): the plan's unified diff (server/src/cluster/apply/diff.ts, jsdiff underneath)
// on ConfigMap manifests of 1,000, 10,000 and 100,000 lines with a few changed lines, one line in 20
// changed, and every line changed. Each case runs in a fresh process so its peak memory is its own:
// the median time of a few runs after the first, and the resident memory the first run added.
// Run: node --import tsx bench/diff.ts
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { MAX_EDIT_LINES, unifiedDiff } from '../server/src/cluster/apply/diff';
import { formatRow, median } from './lib/stats';

/** A ConfigMap of `lines` lines whose data line `i` reads differently when `changed(i)`. */
function manifest(lines: number, changed: (i: number) => boolean): string {
  const out = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: big', '  namespace: demo', 'data:'];
  for (let i = 0; out.length < lines; i++) out.push(`  key-${String(i).padStart(6, '0')}: ${changed(i) ? 'changed' : 'value'}-${i}`);
  return out.join('\n') + '\n';
}

/** Runs one case in this process and prints its figures as JSON. */
function runCase(lines: number, every: number): void {
  const live = manifest(lines, () => false);
  const proposed = manifest(lines, (i) => (i + 1) % every === 0);
  const labels = { old: 'ConfigMap demo/big (live)', new: 'ConfigMap demo/big (proposed)' };
  const rssBefore = process.resourceUsage().maxRSS;
  let diff = unifiedDiff(live, proposed, labels);
  const addedMiB = (process.resourceUsage().maxRSS - rssBefore) / 1024;
  const times: number[] = [];
  for (let r = 0; r < (lines > 10_000 ? 3 : 10); r++) {
    const start = performance.now();
    diff = unifiedDiff(live, proposed, labels);
    times.push(performance.now() - start);
  }
  const outputLines = diff.split('\n').length - 1;
  console.log(JSON.stringify({ ms: median(times), addedMiB, outputLines, replacedBlock: diff.startsWith('(') }));
}

const CASES = [1_000, 10_000, 100_000].flatMap((lines) => [
  { lines, label: 'a few lines changed', every: Math.floor(lines / 5) },
  { lines, label: '1 line in 20 changed', every: 20 },
  { lines, label: 'every line changed', every: 1 },
]);

if (process.argv[2] === 'case') {
  runCase(Number(process.argv[3]), Number(process.argv[4]));
} else {
  console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}; bound: ${MAX_EDIT_LINES} lines`);
  console.log(formatRow(['manifest', 'median ms', 'output lines', 'peak +MiB']));
  for (const c of CASES) {
    const out = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, 'case', String(c.lines), String(c.every)], { encoding: 'utf8' });
    const r = JSON.parse(out) as { ms: number; addedMiB: number; outputLines: number; replacedBlock: boolean };
    const shape = r.replacedBlock ? `${r.outputLines} (one block)` : String(r.outputLines);
    console.log(formatRow([`${c.lines.toLocaleString('en-US')} lines, ${c.label}`, r.ms.toFixed(1), shape, r.addedMiB.toFixed(0)]));
  }
}
