// `npm test`: installs what is missing, builds, type-checks, lints, then runs every suite with
// node's test runner and ends with one summary line `N passed, N failed, N skipped`.
// `node scripts/test.mjs <suite...>` runs only the named suites (unit, lsp, cluster, e2e, electron).
import { readdirSync, readFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { root, run, ensureNodeModules, step } from './lib/proc.mjs';

const SUITES = ['unit', 'lsp', 'cluster', 'e2e', 'electron'];
const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const suites = requested.length ? requested : SUITES;
for (const s of suites) if (!SUITES.includes(s)) throw new Error(`unknown suite ${s}; known: ${SUITES.join(', ')}`);

function testFiles(dir) {
  const abs = path.join(root, 'test', dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules'))
    .sort()
    .map((f) => path.join('test', dir, f));
}

async function main() {
  await ensureNodeModules();
  const checks = [];
  step('build');
  checks.push(['build', await run('node', ['scripts/build.mjs'])]);
  if (!requested.length) {
    step('typecheck (tsc --noEmit)');
    checks.push(['typecheck', await run('npx', ['tsc', '-p', '.', '--noEmit'])]);
    step('lint (eslint, zero warnings)');
    checks.push(['lint', await run('npx', ['eslint', '--max-warnings', '0', '.'])]);
  }

  const outDir = path.join(root, 'test-output');
  mkdirSync(outDir, { recursive: true });
  const totals = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const suite of suites) {
    const files = testFiles(suite);
    step(`suite ${suite} (${files.length} files)`);
    if (!files.length) continue;
    const countsFile = path.join(outDir, `counts-${suite}.json`);
    // The cluster suite shares one real control plane across its files: start it before, stop it after.
    // The e2e suite needs it too ("Apply Environment" against the test cluster).
    const hooks = suite === 'cluster' || suite === 'e2e' ? await import('./lib/cluster-suite.mjs') : null;
    const env = hooks ? { ...process.env, ...(await hooks.beforeClusterSuite()) } : process.env;
    const code = await run('node', [
      '--import', 'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/lib/count-reporter.mjs', `--test-reporter-destination=${countsFile}`,
      ...files,
    ], { env: { ...env, AGENTCFG_TEST_SUITE: suite } });
    if (hooks) await hooks.afterClusterSuite();
    const counts = existsSync(countsFile) ? JSON.parse(readFileSync(countsFile, 'utf8') || '{}') : {};
    for (const k of Object.keys(totals)) totals[k] += counts[k] ?? 0;
    if (code !== 0 && !(counts.failed > 0)) checks.push([`suite ${suite}`, code]);
  }

  const failedChecks = checks.filter(([, code]) => code !== 0);
  for (const [name, code] of failedChecks) console.log(`check failed: ${name} (exit ${code})`);
  console.log(`\n${totals.passed} passed, ${totals.failed + failedChecks.length} failed, ${totals.skipped} skipped`);
  process.exit(totals.failed + failedChecks.length > 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
});
