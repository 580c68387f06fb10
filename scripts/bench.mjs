// `npm run bench`: every benchmark, one after the other, printing figures (never asserting them).
// Benchmarks that need the cluster or the peer tools set them up themselves and say so when they cannot.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureNodeModules, root, run, step } from './lib/proc.mjs';

await ensureNodeModules();
await run('node', ['scripts/build.mjs']);
const only = process.argv.slice(2);
const benches = readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
// kubectl built from the same Kubernetes release as the test control plane, for the
// benchmarks that compare with `kubectl apply --server-side`.
const { ensureBuilt } = await import('./lib/cluster-control.mjs');
const built = await ensureBuilt();
process.env.AGENTCFG_KUBECTL = built.kubectl;
console.log(`kubectl for the benchmarks: ${built.kubectl}`);

let failed = 0;
for (const file of benches) {
  step(`bench/${file}`);
  if ((await run('node', ['--import', 'tsx', path.join('bench', file)])) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
