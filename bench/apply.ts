// Benchmark (not a test): applying and deleting environments of 5, 50 and 200 objects on the test
// control plane, our engine (plan = server-side dry-run + diff, then execute = server-side apply,
// inventory, readiness waits) side by side with `kubectl apply --server-side` and `kubectl delete` on
// the same rendered objects, with the API requests each sent (ours: the session's counter;
// kubectl's: its `-v=6` "Response" log lines). Run: npm run bench apply
// (or node --import tsx bench/apply.ts with the control plane running).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { prepareEnvironment, type PreparedEnvironment } from '../server/src/cluster/apply/environment';
import { executeApply } from '../server/src/cluster/apply/execute';
import { isNoop, planApply } from '../server/src/cluster/apply/plan';
import { executeDestroy } from '../server/src/cluster/destroy/execute';
import { planDestroy } from '../server/src/cluster/destroy/plan';
import { describeOutcome, type ClusterOutcome } from '../server/src/cluster/kube/outcome';
import type { RequestCounts } from '../server/src/cluster/kube/requests';
import { openSession, type ClusterSession } from '../server/src/cluster/kube/session';

const SIZES = [5, 50, 200];
const REPETITIONS = Number(process.env.BENCH_APPLY_REPETITIONS ?? 3);
const root = path.resolve(import.meta.dirname, '..');

interface ClusterCoordinates {
  kubeconfig: string;
  context: string;
  kubectl: string;
  stop: () => Promise<void>;
}

/** The running control plane (started, and stopped afterwards, if it was not running). */
async function cluster(): Promise<ClusterCoordinates> {
  const suite = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'cluster-suite.mjs')).href)) as {
    beforeClusterSuite(): Promise<Record<string, string>>;
    afterClusterSuite(): Promise<void>;
  };
  const env = await suite.beforeClusterSuite();
  if (env.AGENTCFG_TEST_CLUSTER_ERROR) throw new Error(`the control plane is not available: ${env.AGENTCFG_TEST_CLUSTER_ERROR}`);
  return { kubeconfig: env.AGENTCFG_TEST_KUBECONFIG, context: env.AGENTCFG_TEST_ADMIN_CONTEXT, kubectl: process.env.AGENTCFG_KUBECTL ?? env.AGENTCFG_KUBECTL, stop: () => suite.afterClusterSuite() };
}

/** An environment template rendering `count` objects: a Namespace, then ServiceAccounts and RoleBindings in turn. */
function template(count: number): string {
  const ns = '"{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"';
  const lines = ['objects:', '  - apiVersion: v1', '    kind: Namespace', '    metadata:', `      name: ${ns}`];
  for (let i = 1; i < count; i++) {
    if (i % 2) {
      lines.push('  - apiVersion: v1', '    kind: ServiceAccount', '    metadata:', `      name: deployer-${i}`, `      namespace: ${ns}`, '    automountServiceAccountToken: false');
    } else {
      lines.push(
        '  - apiVersion: rbac.authorization.k8s.io/v1',
        '    kind: RoleBinding',
        '    metadata:',
        `      name: bind-${i}`,
        `      namespace: ${ns}`,
        '    subjects:',
        '      - kind: ServiceAccount',
        `        name: deployer-${i - 1}`,
        `        namespace: ${ns}`,
        '    roleRef:',
        '      apiGroup: rbac.authorization.k8s.io',
        '      kind: ClusterRole',
        '      name: view',
      );
    }
  }
  lines.push('delete_resources: on_stop');
  return lines.join('\n') + '\n';
}

let runCounter = 0;
function prepare(count: number, agentNamespace: string): PreparedEnvironment {
  const result = prepareEnvironment({
    templateText: template(count),
    scenario: { projectPath: 'acme/bench', projectId: 42, environmentName: `review/bench-${count}-${Date.now().toString(36)}-${runCounter++}`, ref: 'main', defaultBranch: 'main' },
    ids: { agentId: 7, agentName: 'bench', environmentId: 1, userId: 1 },
    agentNamespace,
  });
  if (!result.ok) throw new Error(`template did not render: ${JSON.stringify(result)}`);
  if (result.environment.objects.length !== count) throw new Error(`expected ${count} objects, rendered ${result.environment.objects.length}`);
  return result.environment;
}

function expectOk<T>(outcome: ClusterOutcome<T>): T {
  if (outcome.type !== 'ok') throw new Error(describeOutcome(outcome));
  return outcome.value;
}

interface Measure {
  ms: number;
  requests: number;
}

/** Our apply: plan (dry-run, diff) and execute, each in a fresh session as the language server would open one. */
async function oursApply(c: ClusterCoordinates, env: PreparedEnvironment): Promise<Measure & { planMs: number; counts: RequestCounts }> {
  const session = expectOk(openSession({ kubeconfigPath: c.kubeconfig, context: c.context }));
  try {
    const start = performance.now();
    const plan = expectOk(await planApply(session, env));
    const planned = performance.now();
    // As the CLI and the editor do: an unchanged environment is not applied again.
    if (!isNoop(plan)) expectOk(await executeApply(session, plan));
    const counts = session.requests.snapshot();
    return { ms: performance.now() - start, planMs: planned - start, requests: counts.total, counts };
  } finally {
    session.close();
  }
}

async function oursDelete(c: ClusterCoordinates, env: PreparedEnvironment): Promise<Measure & { counts: RequestCounts }> {
  const session: ClusterSession = expectOk(openSession({ kubeconfigPath: c.kubeconfig, context: c.context }));
  try {
    const start = performance.now();
    const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
    expectOk(await executeDestroy(session, plan));
    const counts = session.requests.snapshot();
    return { ms: performance.now() - start, requests: counts.total, counts };
  } finally {
    session.close();
  }
}

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, ms: performance.now() - start });
    });
  });
}

/** kubectl's API requests: one `"Response" verb=…` line per request at -v=6. */
function kubectlRequests(log: string): number {
  return log.split('\n').filter((l) => l.includes('"Response" verb=')).length;
}

async function kubectl(c: ClusterCoordinates, cacheDir: string, args: string[]): Promise<Measure> {
  const result = await run(c.kubectl, ['--kubeconfig', c.kubeconfig, '--context', c.context, '--cache-dir', cacheDir, '-v=6', ...args]);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${result.stderr.split('\n').filter((l) => !l.startsWith('I')).join('\n')}`);
  return { ms: result.ms, requests: kubectlRequests(result.stderr) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function pad(text: string | number, width: number): string {
  return String(text).padStart(width);
}

async function main(): Promise<void> {
  const c = await cluster();
  const kc = new KubeConfig();
  kc.loadFromFile(c.kubeconfig);
  kc.setCurrentContext(c.context);
  const core = kc.makeApiClient(CoreV1Api);
  const agentNamespace = `bench-agent-${Date.now().toString(36)}`;
  await core.createNamespace({ body: { metadata: { name: agentNamespace, labels: { 'agentcfg.test/ephemeral': 'true' } } } });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-bench-apply-'));
  const cacheDir = path.join(dir, 'kubectl-cache');
  try {
    // kubectl's discovery cache is warmed once, as on a machine where kubectl has been used before.
    await kubectl(c, cacheDir, ['api-resources', '-o', 'name']);
    const startup = median(await Promise.all([1, 2, 3].map(async () => (await run(c.kubectl, ['version', '--client'])).ms)));
    console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}; kubectl process start ≈ ${startup.toFixed(0)} ms (included in its figures)`);
    console.log(`median of ${REPETITIONS} runs per size; ours = plan (server-side dry-run + diff) + execute (apply, inventory, readiness by watch); delete = plan + delete in reverse order + wait until gone`);
    console.log('');
    console.log(`${'objects'.padStart(7)} | ${'ours apply'.padStart(10)} ${'(plan)'.padStart(8)} | ${'kubectl SSA'.padStart(11)} | ${'ratio'.padStart(5)} ${'exec ratio'.padStart(10)} | ${'req ours'.padStart(8)} ${'req kubectl'.padStart(11)} || ${'ours delete'.padStart(11)} | ${'kubectl delete'.padStart(14)} | ${'ratio'.padStart(5)} | ${'req ours'.padStart(8)} ${'req kubectl'.padStart(11)}`);
    for (const count of SIZES) {
      const rows = { oursApply: [] as number[], plan: [] as number[], kApply: [] as number[], oursDelete: [] as number[], kDelete: [] as number[], oursAgain: [] as number[], kAgain: [] as number[], rqOA: 0, rqKA: 0, rqOD: 0, rqKD: 0, rqOR: 0, rqKR: 0, detailApply: '', detailDelete: '', detailAgain: '' };
      for (let i = 0; i < REPETITIONS; i++) {
        const ours = prepare(count, agentNamespace);
        const a = await oursApply(c, ours);
        const again = await oursApply(c, ours);
        const d = await oursDelete(c, ours);
        rows.oursAgain.push(again.ms);
        rows.rqOR = again.requests;
        rows.detailAgain = `reads ${again.counts.reads}, dry-runs ${again.counts.dryRuns}, writes ${again.counts.writes}`;
        rows.oursApply.push(a.ms);
        rows.plan.push(a.planMs);
        rows.oursDelete.push(d.ms);
        rows.rqOA = a.requests;
        rows.rqOD = d.requests;
        rows.detailApply = `reads ${a.counts.reads}, dry-runs ${a.counts.dryRuns}, writes ${a.counts.writes}, watches ${a.counts.watches}`;
        rows.detailDelete = `reads ${d.counts.reads}, writes ${d.counts.writes}, watches ${d.counts.watches}`;

        // kubectl gets the very objects ours applied (GitLab labels and annotations included), for
        // another environment so that the two never share an object.
        const theirs = prepare(count, agentNamespace);
        const applyFile = path.join(dir, `apply-${count}-${i}.yaml`);
        const deleteFile = path.join(dir, `delete-${count}-${i}.yaml`);
        writeFileSync(applyFile, theirs.objects.map((o) => `---\n${stringify(o.manifest)}`).join(''));
        // Same order as ours deletes: namespace last.
        writeFileSync(deleteFile, [...theirs.objects].reverse().map((o) => `---\n${stringify(o.manifest)}`).join(''));
        const ka = await kubectl(c, cacheDir, ['apply', '--server-side', '--field-manager=bench-kubectl', '-f', applyFile]);
        const kr = await kubectl(c, cacheDir, ['apply', '--server-side', '--field-manager=bench-kubectl', '-f', applyFile]);
        const kd = await kubectl(c, cacheDir, ['delete', '--wait=true', '-f', deleteFile]);
        rows.kAgain.push(kr.ms);
        rows.rqKR = kr.requests;
        rows.kApply.push(ka.ms);
        rows.kDelete.push(kd.ms);
        rows.rqKA = ka.requests;
        rows.rqKD = kd.requests;
      }
      const [oa, pl, ka, od, kd] = [rows.oursApply, rows.plan, rows.kApply, rows.oursDelete, rows.kDelete].map(median);
      console.log(
        `${pad(count, 7)} | ${pad(`${oa.toFixed(0)} ms`, 10)} ${pad(`(${pl.toFixed(0)})`, 8)} | ${pad(`${ka.toFixed(0)} ms`, 11)} | ${pad(`${(oa / ka).toFixed(2)}×`, 5)} ${pad(`${((oa - pl) / ka).toFixed(2)}×`, 10)} | ${pad(rows.rqOA, 8)} ${pad(rows.rqKA, 11)} || ${pad(`${od.toFixed(0)} ms`, 11)} | ${pad(`${kd.toFixed(0)} ms`, 14)} | ${pad(`${(od / kd).toFixed(2)}×`, 5)} | ${pad(rows.rqOD, 8)} ${pad(rows.rqKD, 11)}`,
      );
      const [or, kr] = [rows.oursAgain, rows.kAgain].map(median);
      console.log(`        re-apply unchanged: ours ${or.toFixed(0)} ms vs kubectl ${kr.toFixed(0)} ms (${(or / kr).toFixed(2)}×), requests ${rows.rqOR} vs ${rows.rqKR}`);
      console.log(`        ours requests: apply ${rows.detailApply}; re-apply ${rows.detailAgain}; delete ${rows.detailDelete}`);
    }
    console.log('');
    console.log('ratio = ours / kubectl (below 1 = ours faster); exec ratio = ours without the plan step / kubectl.');
    console.log('kubectl apply does not dry-run, diff, keep an inventory or wait for readiness; ours does all four (the plan is what the user confirms).');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await core.deleteNamespace({ name: agentNamespace }).catch(() => undefined);
    await c.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
