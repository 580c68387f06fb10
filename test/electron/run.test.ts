// The in-editor suite (./suite) under @vscode/test-electron, for machines that have a VS Code
// binary: set VSCODE_PATH to its executable. @vscode/test-electron cannot download VS Code where
// only the npm registry is reachable, so without VSCODE_PATH the run reports itself skipped (never
// passed); the e2e suite (test/e2e) covers the same scenarios in code-server.
import assert from 'node:assert/strict';
import { accessSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const suiteBundle = path.join(repoRoot, 'test-output', 'electron', 'suite.js');

/** VSCODE_PATH when it names an executable file, else null. */
function vscodeBinary(): string | null {
  const candidate = process.env.VSCODE_PATH;
  if (!candidate) return null;
  try {
    accessSync(candidate, constants.X_OK);
    return statSync(candidate).isFile() ? candidate : null;
  } catch {
    return null;
  }
}

/** VS Code `require`s the suite: bundle it as CommonJS with `vscode` left to the extension host. */
async function bundleSuite(): Promise<string> {
  mkdirSync(path.dirname(suiteBundle), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'test', 'electron', 'suite', 'index.ts')],
    outfile: suiteBundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return suiteBundle;
}

test('the in-editor suite bundles into a CommonJS module with vscode external', async () => {
  const bundle = await bundleSuite();
  const source = readFileSync(bundle, 'utf8');
  assert.match(source, /require\("vscode"\)/, 'vscode is left to the extension host');
  assert.match(source, /module\.exports = __toCommonJS/, 'CommonJS exports');
  assert.match(source, /\brun: \(\) => run\b/, 'exports run()');
});

/**
 * A throwaway extension that, once VS Code has started, requires the suite bundle, runs it in the
 * extension host and writes the outcome to `resultFile`; packed with vsce into a .vsix.
 */
async function packRunnerExtension(dir: string, suite: string, resultFile: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'in-editor-suite-runner',
    publisher: 'agentcfg-tests',
    version: '0.0.1',
    engines: { vscode: '^1.91.0' },
    main: './main.js',
    activationEvents: ['onStartupFinished'],
    // What the .vsix holds; without it vsce warns that nothing says so.
    files: ['main.js'],
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(
    path.join(dir, 'main.js'),
    `const fs = require('fs');
const write = (result) => { fs.writeFileSync(${JSON.stringify(`${resultFile}.tmp`)}, JSON.stringify(result)); fs.renameSync(${JSON.stringify(`${resultFile}.tmp`)}, ${JSON.stringify(resultFile)}); };
exports.activate = () => {
  require(${JSON.stringify(suite)}).run().then(
    (report) => write({ ok: true, report }),
    (err) => write({ ok: false, error: String((err && err.stack) || err) }),
  );
};
`,
  );
  const vsix = path.join(dir, '..', 'runner.vsix');
  const { mustRun } = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'lib', 'proc.mjs')).href)) as {
    mustRun(command: string, args: string[], options?: object): Promise<void>;
  };
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  await mustRun(process.execPath, [vsce, 'package', '--allow-missing-repository', '--skip-license', '--no-dependencies', '--out', vsix], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return vsix;
}

// The same suite, in the extension host of code-server (VS Code 1.100.3 in the browser): proves the
// in-editor suite itself works on machines without a VS Code desktop binary.
test("in-editor suite in code-server's extension host", async (t) => {
  const suite = await bundleSuite();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-runner-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const resultFile = path.join(tmp, 'result.json');
  const vsix = await packRunnerExtension(path.join(tmp, 'runner'), suite, resultFile);

  const { launchWorkbench } = await import('../e2e/harness');
  const wb = await launchWorkbench({ workspaceFolder: path.join(repoRoot, 'examples'), extraVsix: [vsix] });
  t.after(() => wb.close());
  // The runner writes its result once (renamed into place): wait for the file to appear.
  const deadline = Date.now() + 120_000;
  while (!existsSync(resultFile)) {
    assert.ok(Date.now() < deadline, 'the in-editor suite reported no result within 120 s');
    await delay(100);
  }
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { ok: boolean; report?: string[]; error?: string };
  assert.ok(result.ok, result.error);
  assert.ok(result.report?.at(-1)?.match(/^(\d+) passed, 0 failed$/), `report: ${result.report?.join('\n')}`);
  assert.ok(!result.report?.at(-1)?.startsWith('0 passed'), 'cases ran');
  await wb.screenshot('electron-suite-in-code-server');
});

test('in-editor suite in VS Code (@vscode/test-electron)', async (t) => {
  const vscodePath = vscodeBinary();
  if (!vscodePath) {
    t.skip('no VS Code binary: set VSCODE_PATH to run the in-editor suite');
    return;
  }
  // The extension runs from dist/ (extensionDevelopmentPath is the repository): build when stale.
  const pkg = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'package.mjs')).href)) as {
    bundlesStale(): boolean;
    build(): Promise<void>;
  };
  if (pkg.bundlesStale()) await pkg.build();
  const suite = await bundleSuite();

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-electron-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const workspace = path.join(tmp, 'examples');
  cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });

  const resultFile = path.join(tmp, 'result.json');
  const { runTests } = await import('@vscode/test-electron');
  const code = await runTests({
    vscodeExecutablePath: vscodePath,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: suite,
    extensionTestsEnv: { AGENTCFG_SUITE_RESULT: resultFile },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--skip-welcome',
      '--skip-release-notes',
      '--disable-workspace-trust',
      '--disable-gpu',
      `--user-data-dir=${path.join(tmp, 'user-data')}`,
      `--extensions-dir=${path.join(tmp, 'extensions')}`,
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
  });
  assert.equal(code, 0);
  assert.ok(existsSync(resultFile), `${vscodePath} exited 0 but the in-editor suite never ran`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { ok: boolean; report: string[] };
  assert.ok(result.ok && /^[1-9]\d* passed, 0 failed$/.test(result.report.at(-1) ?? ''), result.report.join('\n'));
});
