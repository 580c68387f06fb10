import { spawnSync } from "node:child_process";

/**
 * The same work on every machine, timed in a fresh Node process: a CPU loop (integer arithmetic, then
 * 300,000 small objects made and read) and the first touch of 64 MiB of new memory, one byte per
 * 4 KiB page. Printed beside the benchmarks' figures because the machines they run on are virtual
 * and shared: on one of them a fixed C loop took twice as long a minute later, and a page of new
 * memory cost three to ten times what it usually costs on bare metal. Goals given in milliseconds
 * (≤ 1 ms per config, ≤ 25 ms per edit) are read against this line; ratios to the peer
 * are measured side by side and need it less.
 */
const PACE_SCRIPT = `
const started = performance.now();
let x = 1;
for (let i = 0; i < 5e7; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
const objects = [];
for (let i = 0; i < 3e5; i++) objects.push({ id: "p" + i, n: i & 255 });
let sum = 0;
for (const o of objects) sum += o.n + o.id.length;
const cpuMs = performance.now() - started;
const pages = 16384;
const memory = Buffer.allocUnsafeSlow(pages * 4096);
const touched = performance.now();
for (let i = 0; i < memory.length; i += 4096) memory[i] = 1;
const pageUs = ((performance.now() - touched) * 1000) / pages;
// The checksum keeps the loops from being optimized away.
console.log(JSON.stringify({ cpuMs, pageUs, checksum: x + sum }));
`;

export interface MachinePace {
  /** The CPU loop, ms: lower is faster. */
  readonly cpuMs: number;
  /** The first touch of a 4 KiB page of new memory, µs. */
  readonly pageUs: number;
}

export function machinePace(): MachinePace {
  const run = spawnSync(process.execPath, ["-e", PACE_SCRIPT], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`the machine pace script failed: ${run.stderr}`);
  const { cpuMs, pageUs } = JSON.parse(run.stdout) as MachinePace;
  return { cpuMs, pageUs };
}

/** One line for a benchmark's output: `when` says at which point of the run it was taken. */
export function machinePaceLine(when: string): string {
  const pace = machinePace();
  return `machine pace ${when}: CPU loop ${pace.cpuMs.toFixed(0)} ms, new memory ${pace.pageUs.toFixed(1)} µs per 4 KiB page (the same work on every machine, lower is faster: bench/lib/machinePace.ts)`;
}
