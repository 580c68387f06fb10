// `npm start`: a real VS Code in the browser on examples/, with this extension installed from the
// freshly built .vsix. Installs what is missing (npm dependencies, code-server 4.100.3, Chromium;
// cached under ~/.cache/gitlab-agent-config/), prints the URL and runs until Ctrl-C.
//
//   npm start                                  serve on http://127.0.0.1:8080 (PORT=... to change)
//   npm start -- --screenshot out.png          also open the broken example config in headless
//                                              Chromium, wait for its diagnostics, save a screenshot
//   npm start -- --screenshot out.png --exit-after-screenshot
//                                              ... then stop (proves that `npm start` works)
//   npm start -- --no-cluster                  without the local Kubernetes control plane
// By default it also starts the project's control plane (test/cluster: cached build, 127.0.0.1 only;
// left alone if it already runs), points the examples workspace at its kubeconfig and gives it the
// ids and scenario Apply Environment needs (scripts/lib/example-workspace.mjs; workspace settings in
// examples/.vscode/settings.json, git-ignored, undone on exit), and stops it on exit when it started it.
// The screenshot options can also come from SCREENSHOT=<file> and EXIT_AFTER_SCREENSHOT=1.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { root, ensureNodeModules, step } from './lib/proc.mjs';
import { exampleWorkspaceSettings, writeWorkspaceSettings } from './lib/example-workspace.mjs';

const BROKEN_CONFIG = '.gitlab/agents/broken-agent/config.yaml';

function parseArgs(argv) {
  const options = {
    port: Number(process.env.PORT ?? 8080),
    screenshot: process.env.SCREENSHOT || null,
    exitAfterScreenshot: process.env.EXIT_AFTER_SCREENSHOT === '1',
    cluster: true,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--screenshot') options.screenshot = argv[++i];
    else if (arg.startsWith('--screenshot=')) options.screenshot = arg.slice('--screenshot='.length);
    else if (arg === '--exit-after-screenshot') options.exitAfterScreenshot = true;
    else if (arg === '--no-cluster') options.cluster = false;
    else if (arg === '--port') options.port = Number(argv[++i]);
    else throw new Error(`unknown option ${arg}; see the comment at the top of scripts/start.mjs`);
  }
  if (!Number.isInteger(options.port) || options.port <= 0) throw new Error(`invalid port ${options.port}`);
  if (options.exitAfterScreenshot && !options.screenshot) throw new Error('--exit-after-screenshot needs --screenshot <file>');
  if (options.screenshot) options.screenshot = path.resolve(options.screenshot);
  return options;
}

/**
 * Opens the workbench in headless Chromium, opens the broken example config with Quick Open, waits
 * until the Problems panel lists the extension's diagnostics, and saves a screenshot.
 */
async function takeScreenshot(url, file, chromiumPath) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Only the code-server on loopback (and in-page blob/data URLs) may be reached.
    await context.route(
      (u) => !['blob:', 'data:'].includes(u.protocol) && u.hostname !== '127.0.0.1',
      (r) => r.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });

    const quickInput = page.locator('.quick-input-widget');
    await page.keyboard.press('Control+P');
    await quickInput.locator('input').waitFor({ state: 'visible' });
    await page.keyboard.insertText(BROKEN_CONFIG);
    const label = `${path.posix.basename(BROKEN_CONFIG)} ${path.posix.dirname(BROKEN_CONFIG)},`;
    const row = quickInput.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await quickInput.waitFor({ state: 'hidden' });
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor();

    await page.keyboard.press('Control+Shift+M');
    // A problem row from this extension ("gitlab-agent" source) means it activated and validated.
    await page.locator('.markers-panel .monaco-list-row .marker-icon').first().waitFor({ timeout: 60_000 });
    // Put the cursor back in the editor so the squiggles and the panel both show.
    await page.locator('.editor-group-container.active .monaco-editor textarea.inputarea').first().focus();
    const messages = await page.locator('.markers-panel .marker-message').allTextContents();
    mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    console.log(`[start] screenshot: ${file}\n[start] the Problems panel lists ${messages.length} problem(s):`);
    for (const m of messages) console.log(`  - ${m}`);
  } finally {
    await browser.close();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  await ensureNodeModules();
  // Imported after ensureNodeModules: package.mjs and code-server.mjs need only node:, but
  // playwright-core (above) comes from node_modules.
  const { ensureVsix } = await import('./package.mjs');
  const { cacheRoot, ensureCodeServer, ensureChromium, installVsix, startCodeServer } = await import('./lib/code-server.mjs');

  step('build and package the extension');
  const vsix = await ensureVsix({ build: true });
  console.log(`[start] ${path.relative(root, vsix)}`);

  step('code-server 4.100.3 (cached after the first run)');
  await ensureCodeServer();
  const chromiumPath = options.screenshot ? await ensureChromium() : null;

  const home = path.join(cacheRoot, 'start');
  const extensionsDir = path.join(home, 'extensions');
  const userDataDir = path.join(home, 'user-data');
  rmSync(extensionsDir, { recursive: true, force: true });
  step('install the .vsix into a fresh extensions folder');
  await installVsix(vsix, extensionsDir, userDataDir);

  const folder = path.join(root, 'examples');
  let cluster = null;
  let undoSettings = () => {};
  const stopCluster = async () => {
    undoSettings();
    if (cluster?.started) {
      console.log('[start] stopping the local control plane');
      await cluster.control.down();
    }
  };
  if (options.cluster) {
    step('local Kubernetes control plane (cached build; --no-cluster skips it)');
    const control = await import('./lib/cluster-control.mjs');
    const { started, state } = await control.up();
    cluster = { control, started, state };
    undoSettings = writeWorkspaceSettings(folder, exampleWorkspaceSettings(state.kubeconfig), (m) => console.log(`[start] ${m}`));
    console.log(`[start] ${started ? 'started' : 'already running (left running on exit)'}: ${state.server}, kubeconfig ${state.kubeconfig}`);
  }

  step('start code-server');
  let server;
  try {
    server = await startCodeServer({ folder, port: options.port, userDataDir, extensionsDir });
  } catch (err) {
    await stopCluster();
    throw err;
  }
  let stopping = false;
  const shutdown = async (code = 0) => {
    stopping = true;
    await server.stop();
    await stopCluster();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  server.exited.then((exit) => {
    if (stopping) return;
    console.error(`[start] code-server exited (${exit.signal ?? `exit ${exit.code}`})`);
    void stopCluster().finally(() => process.exit(1));
  });

  console.log(`
  ┌──────────────────────────────────────────────────────────────────────────
  │ VS Code (code-server) with GitLab Agent Config is running on examples/:
  │
  │   ${server.url}
  │
  │ Open ${BROKEN_CONFIG} to see the diagnostics. Ctrl-C stops it.
  │ ${cluster ? `Cluster: context ${cluster.state.adminContext} of ${cluster.state.kubeconfig} (workspace setting);\n  │ open production-agent's config.yaml and run "GitLab Agent: Apply Environment".` : 'No cluster (--no-cluster): set gitlabAgentConfig.cluster.kubeconfig to use one.'}
  └──────────────────────────────────────────────────────────────────────────
`);

  if (options.screenshot) {
    try {
      await takeScreenshot(server.url, options.screenshot, chromiumPath);
    } catch (err) {
      console.error(`[start] screenshot failed: ${err.message}`);
      await shutdown(1);
    }
    if (options.exitAfterScreenshot) await shutdown(0);
  }
}

main().catch((err) => {
  console.error(`[start] ${err.stack ?? err}`);
  process.exit(1);
});
