// Benchmark (not a test): `rules:if` evaluation throughput and RE2 (re2js) vs JavaScript RegExp, including the
// catastrophic `/(a+)+$/` case that motivates RE2 (docs/gitlab-behaviour.md#expression-regular-expressions). Run: node --import tsx bench/regex.ts
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { evaluate, parseExpression, UntrustedRegexp } from '../server/src/engine/expr/index';

const MIN_MS = 500;

/** Runs `fn` repeatedly for at least MIN_MS and returns calls per second. */
function rate(fn: () => unknown): number {
  for (let i = 0; i < 20_000; i++) fn(); // warm-up: let the JIT settle before timing
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_MS) {
    for (let i = 0; i < 100; i++) fn();
    calls += 100;
    elapsed = performance.now() - start;
  }
  return (calls / elapsed) * 1000;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);

/** Runs a JavaScript RegExp test in a worker so a runaway backtracking match can be stopped. */
function jsRegexWithTimeout(pattern: string, text: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const t = performance.now();
       const r = new RegExp(workerData.pattern).test(workerData.text);
       parentPort.postMessage(r + ' in ' + (performance.now() - t).toFixed(1) + ' ms');`,
      { eval: true, workerData: { pattern, text } },
    );
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(`did not finish in ${timeoutMs} ms (terminated)`);
    }, timeoutMs);
    worker.once('message', (m: string) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
  });
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}, ${os.platform()}`);

  console.log('\n== rules:if evaluations per second (parse cached, as in a simulation) ==');
  const vars = { CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main', CI_ENVIRONMENT_SLUG: 'review-feature-x-bjrazc', CI_PIPELINE_SOURCE: 'push' };
  const expressions = [
    '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    '$CI_ENVIRONMENT_SLUG == "production" || $CI_ENVIRONMENT_SLUG == "staging"',
    '$CI_ENVIRONMENT_SLUG =~ /^review/',
    '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && ($CI_PIPELINE_SOURCE != "schedule" || $CI_ENVIRONMENT_SLUG =~ /^prod/i)',
  ];
  for (const e of expressions) console.log(`${fmt(rate(() => evaluate(e, vars)))} /s  ${e}`);
  const complex = expressions[3]!;
  console.log(`${fmt(rate(() => parseExpression(complex)))} /s  parse only (uncached) of the last one`);

  console.log('\n== regex matches per second on safe patterns: re2js vs JavaScript RegExp ==');
  const safe: Array<[string, string]> = [
    ['^review/', 'review/feature-x'],
    ['^(main|master|release-\\d+\\.\\d+)$', 'release-17.10'],
    ['feature', 'x'.repeat(1000) + 'feature'],
  ];
  for (const [pattern, text] of safe) {
    const re2 = UntrustedRegexp.compile(pattern, '');
    if (!re2.ok) throw new Error(re2.message);
    const js = new RegExp(pattern);
    const r2 = rate(() => re2.regexp.matches(text));
    const rj = rate(() => js.test(text));
    console.log(`re2js ${fmt(r2)} /s   RegExp ${fmt(rj)} /s   (RegExp ${(rj / r2).toFixed(1)}× faster)  /${pattern}/ on ${text.length} chars`);
  }

  console.log('\n== catastrophic /(a+)+$/ against "a"×n + "b" ==');
  const evil = UntrustedRegexp.compile('(a+)+$', '');
  if (!evil.ok) throw new Error(evil.message);
  for (const n of [25, 1_000, 10_000, 100_000, 1_000_000]) {
    const text = 'a'.repeat(n) + 'b';
    const t = performance.now();
    const result = evil.regexp.matches(text);
    console.log(`re2js  n=${String(n).padStart(9)}: ${result} in ${(performance.now() - t).toFixed(1)} ms`);
  }
  for (const n of [20, 23, 26, 100_000]) {
    console.log(`RegExp n=${String(n).padStart(9)}: ${await jsRegexWithTimeout('(a+)+$', 'a'.repeat(n) + 'b', 5000)}`);
  }
}

void main();
