// Benchmark (not a test): the CLI's speed goals, side by side with ajv-cli 5 (a devDependency,
// validating the same data as JSON against the same schema) in one run.
// - `agentcfg validate` of one file, process start included, vs `ajv validate` of that file's JSON;
// - a batch of 1,000 real-shaped configs (the examples varied, generated configs; 250 templates
//   beside them, each its own text) in one process each, ms per config;
// - `agentcfg expr --batch`: peak RSS and time at 100k and 1M NDJSON lines (no peer).
// Runs alternate between the two tools; figures are medians of the runs. Ratio = ajv-cli ÷ agentcfg
// (above 1: agentcfg is faster).
// Run: node --import tsx bench/cli.ts   (needs `npm run build` first: it runs dist/cli.js)
// CLI_RUNS=<n> sets the number of one-file runs (default 21; batches: a quarter of it, at least 5).
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { writeCorpus } from "./lib/cliCorpus";
import { machinePaceLine } from "./lib/machinePace";
import { formatRow, median } from "./lib/stats";

const root = path.resolve(import.meta.dirname, "..");
const work = path.join(root, "test-output", "bench-cli");
const cli = path.join(root, "dist", "cli.js");
const ajv = path.join(root, "node_modules", "ajv-cli", "dist", "index.js");
const schema = path.join(root, "schemas", "agent-config.schema.json");
const ONE_RUNS = Number(process.env.CLI_RUNS ?? 21);
const BATCH_RUNS = Math.max(5, Math.round(ONE_RUNS / 4));
const BATCH_SIZE = 1000;

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

const gnuTime = existsSync("/usr/bin/time");

interface Timed {
  /** Wall time, start to exit. */
  readonly ms: number;
  /** User + system CPU time of the process (NaN without /usr/bin/time): steadier than wall time on a loaded machine. */
  readonly cpuMs: number;
  readonly status: number | null;
}

/** One process, start to exit. */
function timed(command: string, args: readonly string[], cwd: string): Timed {
  const report = path.join(work, "cpu.txt");
  const [cmd, argv] = gnuTime ? ["/usr/bin/time", ["-f", "%U %S", "-o", report, command, ...args]] : [command, args];
  const started = performance.now();
  const result = spawnSync(cmd, argv, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 2 ** 20 });
  const ms = performance.now() - started;
  if (result.error) throw result.error;
  const cpu = gnuTime ? readFileSync(report, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number) : [NaN, NaN];
  return { ms, cpuMs: (cpu[0]! + cpu[1]!) * 1000, status: result.status };
}

/** Runs the two commands alternately `runs` times (after one warm-up each); the medians. */
function sideBySide(runs: number, ours: () => Timed, peer: () => Timed) {
  ours();
  peer();
  const a: number[] = [];
  const b: number[] = [];
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  const status = { ours: new Set<number | null>(), peer: new Set<number | null>() };
  for (let i = 0; i < runs; i++) {
    const x = ours();
    const y = peer();
    if (process.env.CLI_BENCH_DEBUG) console.log(`run ${i}: ${x.ms.toFixed(0)} ms (exit ${x.status}), ${y.ms.toFixed(0)} ms (exit ${y.status})`);
    a.push(x.ms);
    b.push(y.ms);
    cpuA.push(x.cpuMs);
    cpuB.push(y.cpuMs);
    status.ours.add(x.status);
    status.peer.add(y.status);
  }
  return { ours: median(a), peer: median(b), oursMin: Math.min(...a), peerMin: Math.min(...b), oursCpu: median(cpuA), peerCpu: median(cpuB), status };
}

function exitCodes(s: Set<number | null>): string {
  return [...s].join("/");
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first");
  if (!existsSync(ajv)) throw new Error("node_modules/ajv-cli is missing: run `npm ci` (ajv-cli is a devDependency)");
  const ajvVersion = (JSON.parse(readFileSync(path.join(root, "node_modules", "ajv-cli", "package.json"), "utf8")) as { version: string }).version;
  const ajvLib = (JSON.parse(readFileSync(path.join(root, "node_modules", "ajv", "package.json"), "utf8")) as { version: string }).version;
  console.log(
    `machine: ${os.cpus()[0]?.model ?? "unknown CPU"} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${load()}`,
  );
  console.log(
    `peer: ajv-cli ${ajvVersion} (ajv ${ajvLib}) \`ajv validate -s schemas/agent-config.schema.json -d <json> --strict=false\` (strict mode off: the schema carries markdownDescription); ratio = ajv-cli ÷ agentcfg (above 1: agentcfg is faster)`,
  );
  console.log(machinePaceLine("at the start"));
  mkdirSync(work, { recursive: true });

  // --- one file, process start included
  const one = path.join(work, "one");
  const agentDir = path.join(one, ".gitlab", "agents", "production-agent");
  mkdirSync(agentDir, { recursive: true });
  const configText = readFileSync(path.join(root, "examples", ".gitlab", "agents", "production-agent", "config.yaml"), "utf8");
  writeFileSync(path.join(agentDir, "config.yaml"), configText);
  writeFileSync(path.join(one, "config.json"), JSON.stringify(parse(configText)));
  const single = sideBySide(
    ONE_RUNS,
    () => timed(process.execPath, [cli, "validate", ".gitlab/agents/production-agent/config.yaml"], one),
    () => timed(process.execPath, [ajv, "validate", "-s", schema, "-d", "config.json", "--strict=false"], one),
  );

  // --- a batch of 1,000 configs in one process
  const corpus = writeCorpus(path.join(work, `corpus-${BATCH_SIZE}`), BATCH_SIZE);
  const batchCwd = path.dirname(corpus.yamlDir);
  const batch = sideBySide(
    BATCH_RUNS,
    () => timed(process.execPath, [cli, "validate", "yaml"], batchCwd),
    () => timed(process.execPath, [ajv, "validate", "-s", schema, "-d", "json/*.json", "--strict=false"], batchCwd),
  );

  console.log(`\n== agentcfg validate vs ajv-cli (load average ${load()}) ==`);
  console.log(formatRow(["figure", "agentcfg", "ajv-cli", "ratio"]));
  const row = (figure: string, a: number, b: number, unit = "ms", digits = 1) =>
    console.log(formatRow([figure, `${a.toFixed(digits)} ${unit}`, `${b.toFixed(digits)} ${unit}`, `${(b / a).toFixed(2)}×`]));
  row(`one file, process start included, median of ${ONE_RUNS}`, single.ours, single.peer);
  row("one file, fastest run", single.oursMin, single.peerMin);
  row("one file, CPU time (user + system), median", single.oursCpu, single.peerCpu);
  row(`${BATCH_SIZE} configs in one process, median of ${BATCH_RUNS}`, batch.ours, batch.peer);
  row(`${BATCH_SIZE} configs: ms per config (start included)`, batch.ours / BATCH_SIZE, batch.peer / BATCH_SIZE, "ms", 2);
  row(`${BATCH_SIZE} configs: CPU ms per config (start included)`, batch.oursCpu / BATCH_SIZE, batch.peerCpu / BATCH_SIZE, "ms", 2);
  row(
    `${BATCH_SIZE} configs: CPU ms per config beyond one file`,
    (batch.oursCpu - single.oursCpu) / BATCH_SIZE,
    (batch.peerCpu - single.peerCpu) / BATCH_SIZE,
    "ms",
    2,
  );
  console.log(
    `notes: the batch is ${(corpus.bytes / 1024).toFixed(0)} KiB of YAML in ${BATCH_SIZE} configs; agentcfg also checks the 250 environment templates beside them and runs every check (rules, namespaces, security lints, config × template), ajv-cli only the JSON schema. Exit codes agentcfg ${exitCodes(single.status.ours)} / ${exitCodes(batch.status.ours)}, ajv-cli ${exitCodes(single.status.peer)} / ${exitCodes(batch.status.peer)} (one file / batch; 1 = problems found).`,
  );

  // --- expr --batch: memory flat in the number of lines
  console.log(`\n== agentcfg expr --batch, streaming (load average ${load()}) ==`);
  console.log(formatRow(["figure", "time", "peak RSS", "answers"]));
  for (const lines of process.env.CLI_BENCH_DEBUG ? [] : [100_000, 1_000_000]) {
    const input = await exprInput(lines);
    const r = await peakRss(process.execPath, [cli, "expr", "--batch"], input);
    console.log(
      formatRow([
        `${lines.toLocaleString("en")} lines (${(statSync(input).size / 2 ** 20).toFixed(0)} MiB NDJSON)`,
        `${(r.ms / 1000).toFixed(2)} s`,
        `${(r.peakRss / 2 ** 20).toFixed(1)} MiB`,
        `${r.lines}`,
      ]),
    );
  }
  console.log(`load average at the end: ${load()}`);
  console.log(machinePaceLine("at the end"));
}

/** NDJSON requests shaped like a pipeline's: `if:` expressions with the CI variables they read; written once per size. */
async function exprInput(lines: number): Promise<string> {
  const file = path.join(work, `expr-${lines}.ndjson`);
  if (existsSync(file)) return file;
  const exprs = ["$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH", "$CI_COMMIT_REF_NAME =~ /^review\\//", "$CI_COMMIT_TAG || $CI_MERGE_REQUEST_IID", "$CI_PIPELINE_SOURCE == \"push\" && $CI_COMMIT_BRANCH != \"main\""];
  const out = createWriteStream(file + ".part");
  let chunk = "";
  for (let i = 0; i < lines; i++) {
    chunk += JSON.stringify({ expr: exprs[i % exprs.length], vars: { CI_COMMIT_BRANCH: i % 3 ? "main" : `feature-${i}`, CI_DEFAULT_BRANCH: "main", CI_COMMIT_REF_NAME: `review/${i}`, CI_PIPELINE_SOURCE: i % 2 ? "push" : "merge_request_event" } }) + "\n";
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
  renameSync(file + ".part", file);
  return file;
}

/**
 * Runs the command with `input` on stdin and its output counted as it streams out; the peak RSS
 * from /usr/bin/time when there is one, else the child's last VmHWM seen in /proc (Linux).
 */
async function peakRss(command: string, args: readonly string[], input: string): Promise<{ ms: number; peakRss: number; lines: number }> {
  const report = path.join(work, "time.txt");
  const [cmd, argv] = gnuTime ? ["/usr/bin/time", ["-f", "%M", "-o", report, command, ...args]] : [command, args];
  const started = performance.now();
  const child = spawn(cmd, argv, { stdio: [openSync(input, "r"), "pipe", "inherit"] });
  let newlines = 0;
  let sampled = 0;
  const sampler = gnuTime
    ? null
    : setInterval(() => {
        try {
          sampled = Math.max(sampled, Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024);
        } catch {
          // gone
        }
      }, 20);
  child.stdout!.on("data", (chunk: Buffer) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
  });
  await once(child, "close");
  const ms = performance.now() - started;
  if (sampler) clearInterval(sampler);
  const peak = gnuTime ? Number(readFileSync(report, "utf8").trim().split("\n").at(-1)) * 1024 : sampled;
  return { ms, peakRss: peak, lines: newlines };
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
