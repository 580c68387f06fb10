// End-to-end harness: a real VS Code (code-server 4.100.3) with the freshly packed .vsix installed,
// driven by playwright-core in Debian's Chromium. Every wait is on a DOM signal (a widget appears,
// the status bar shows the cursor position, a Problems row appears or goes away), never a sleep.
// Network: the browser may reach only 127.0.0.1; anything else is aborted and recorded.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const e2eOutputDir = path.join(repoRoot, 'test-output', 'e2e');

/** The parts of scripts/lib/code-server.mjs and scripts/package.mjs this harness uses. */
interface CodeServerLib {
  CHROMIUM_PATH: string;
  ensureCodeServer(): Promise<string>;
  ensureChromium(): Promise<string>;
  installVsix(vsixPath: string, extensionsDir: string, userDataDir: string): Promise<void>;
  startCodeServer(options: {
    folder: string;
    userDataDir: string;
    extensionsDir: string;
    settings?: Record<string, unknown>;
    logFile?: string;
    port?: number;
  }): Promise<{ url: string; port: number; stop(): Promise<void> }>;
}
interface PackageLib {
  ensureVsix(options?: { out?: string; build?: boolean | 'ifStale' }): Promise<string>;
}

async function importScript<T>(relPath: string): Promise<T> {
  return (await import(pathToFileURL(path.join(repoRoot, relPath)).href)) as T;
}

/** One problem row of the Problems panel. Lines and columns are 1-based, as the panel shows them. */
export interface Problem {
  severity: 'error' | 'warning' | 'info' | 'unknown';
  message: string;
  source?: string;
  code?: string;
  line?: number;
  column?: number;
  /** The file's name and folder as the panel groups them, e.g. "config.yaml .gitlab/agents/x". */
  resource?: string;
}

export interface LaunchOptions {
  /** Folder copied into a temporary workspace (the original is never modified). */
  workspaceFolder: string;
  /** User settings on top of the harness's quiet defaults. */
  settings?: Record<string, unknown>;
  viewport?: { width: number; height: number };
  /** More .vsix files to install beside the extension (e.g. a test runner extension). */
  extraVsix?: string[];
}

export interface Workbench {
  page: Page;
  browser: Browser;
  url: string;
  /** Absolute path of the temporary copy of the workspace. */
  workspace: string;
  /** code-server's user data folder: User/settings.json, and logs/ with every output channel's file. */
  userDataDir: string;
  /** Requests the browser attempted to non-loopback addresses (all aborted). */
  externalRequests: string[];
  openFile(relPath: string): Promise<void>;
  runCommand(title: string): Promise<void>;
  focusEditor(): Promise<void>;
  goTo(line: number, column: number): Promise<void>;
  typeAt(line: number, column: number, text: string): Promise<void>;
  replaceRange(line: number, column: number, endColumn: number, text: string): Promise<void>;
  replaceLine(line: number, text: string): Promise<void>;
  problems(): Promise<Problem[]>;
  waitForProblem(predicate: (p: Problem) => boolean, timeoutMs?: number): Promise<Problem>;
  waitForNoProblem(predicate: (p: Problem) => boolean, timeoutMs?: number): Promise<Problem[]>;
  hoverAt(line: number, column: number, timeoutMs?: number): Promise<string>;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Runs in the page: turns the Problems panel's rows into {@link Problem}s. Written as source text,
 * not a TypeScript function, because tsx compiles functions with name helpers (`__name`) that do
 * not exist in the page.
 */
const readProblemRows = new Function('rows', `
  const found = [];
  let resource;
  for (const row of rows) {
    const icon = row.querySelector('.marker-icon');
    if (!icon) {
      const name = row.querySelector('.label-name');
      const folder = row.querySelector('.label-description');
      resource = [name, folder].map((e) => e && e.textContent.trim()).filter(Boolean).join(' ') || undefined;
      continue;
    }
    const text = {};
    for (const part of ['message', 'source', 'code', 'line']) {
      const el = row.querySelector('.marker-' + part);
      text[part] = el && el.textContent.trim() || undefined;
    }
    const position = /Ln (\\d+), Col (\\d+)/.exec(text.line || '');
    found.push({
      severity: ['error', 'warning', 'info'].find((s) => icon.classList.contains(s)) || 'unknown',
      message: text.message || '',
      source: text.source,
      code: text.code,
      line: position ? Number(position[1]) : undefined,
      column: position ? Number(position[2]) : undefined,
      resource,
    });
  }
  return found;
`) as (rows: unknown[]) => Problem[];

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** True for URLs the browser may load: the code-server on loopback and in-page blob/data URLs. */
function isLocal(url: URL): boolean {
  return url.protocol === 'blob:' || url.protocol === 'data:' || url.hostname === '127.0.0.1' || url.hostname === 'localhost';
}

let extensionsTemplate: Promise<string> | undefined;

/**
 * Packs the .vsix (once per test run: reused while it is newer than the bundles) and installs it
 * into a template extensions folder (once per process); each workbench gets a copy.
 */
function preparedExtensions(lib: CodeServerLib): Promise<string> {
  extensionsTemplate ??= (async () => {
    const pkg = await importScript<PackageLib>('scripts/package.mjs');
    const vsix = await pkg.ensureVsix({ build: 'ifStale' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-e2e-extensions-'));
    await lib.installVsix(vsix, path.join(dir, 'extensions'), path.join(dir, 'user-data'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return path.join(dir, 'extensions');
  })();
  return extensionsTemplate;
}

/**
 * Starts code-server on a free loopback port with a copy of `workspaceFolder` open, the extension
 * installed from the .vsix, and a headless Chromium on the workbench; resolves once
 * `.monaco-workbench` and the explorer are rendered.
 */
export async function launchWorkbench(options: LaunchOptions): Promise<Workbench> {
  const lib = await importScript<CodeServerLib>('scripts/lib/code-server.mjs');
  await lib.ensureCodeServer();
  const chromiumPath = await lib.ensureChromium();
  const extensions = await preparedExtensions(lib);

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-e2e-'));
  const workspace = path.join(tmp, path.basename(path.resolve(options.workspaceFolder)));
  cpSync(options.workspaceFolder, workspace, { recursive: true });
  const extensionsDir = path.join(tmp, 'extensions');
  cpSync(extensions, extensionsDir, { recursive: true });
  mkdirSync(e2eOutputDir, { recursive: true });

  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(tmp, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (err) {
        console.error('[e2e] cleanup failed:', err);
      }
    }
  };

  try {
    for (const vsix of options.extraVsix ?? []) await lib.installVsix(vsix, extensionsDir, path.join(tmp, 'user-data'));
    const server = await lib.startCodeServer({
      folder: workspace,
      userDataDir: path.join(tmp, 'user-data'),
      extensionsDir,
      settings: options.settings ?? {},
      logFile: path.join(e2eOutputDir, 'code-server.log'),
    });
    cleanups.push(() => server.stop());

    const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    const externalRequests: string[] = [];
    await context.route(
      (url) => !isLocal(url),
      (route) => {
        externalRequests.push(route.request().url());
        return route.abort('blockedbyclient');
      },
    );
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    return makeWorkbench(page, browser, server.url, workspace, path.join(tmp, 'user-data'), externalRequests, close);
  } catch (err) {
    await close();
    throw err;
  }
}

function makeWorkbench(
  page: Page,
  browser: Browser,
  url: string,
  workspace: string,
  userDataDir: string,
  externalRequests: string[],
  close: () => Promise<void>,
): Workbench {
  const quickInput = page.locator('.quick-input-widget');
  const quickInputRows = quickInput.locator('.quick-input-list .monaco-list-row');
  const cursorStatus = page.locator('[id="status.editor.selection"]');
  const markersPanel = page.locator('.markers-panel');

  /** Opens quick input with `keys`, types `text`, and waits for its results to be listed. */
  async function quickPick(keys: string, text: string) {
    await page.keyboard.press(keys);
    await quickInput.locator('input').waitFor({ state: 'visible' });
    await page.keyboard.insertText(text);
  }

  async function openFile(relPath: string) {
    const base = path.posix.basename(relPath);
    const dir = path.posix.dirname(relPath);
    await quickPick('Control+P', relPath);
    // Rows are labelled "<name> <folder>, file results"; wait for the one that is this file.
    const label = dir === '.' ? `${base},` : `${base} ${dir},`;
    const row = quickInputRows.and(page.locator(`[aria-label^="${cssString(label)}"]`));
    await row.first().waitFor({ timeout: 30_000 });
    await row.first().click();
    await quickInput.waitFor({ state: 'hidden' });
    await page.locator(`.tab.active[aria-label^="${cssString(base)}"]`).first().waitFor();
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor();
    await focusEditor();
  }

  async function runCommand(title: string) {
    await quickPick('F1', title);
    const row = quickInputRows.and(page.locator(`[aria-label^="${cssString(title)}"]`)).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await quickInput.waitFor({ state: 'hidden' });
  }

  async function focusEditor() {
    const textarea = page.locator('.editor-group-container.active .monaco-editor textarea.inputarea').first();
    await textarea.focus();
  }

  async function goTo(line: number, column: number) {
    await focusEditor();
    await quickPick('Control+G', `${line}:${column}`);
    await page.keyboard.press('Enter');
    await quickInput.waitFor({ state: 'hidden' });
    await cursorStatus.filter({ hasText: new RegExp(`^\\s*Ln ${line}, Col ${column}\\b`) }).waitFor({ timeout: 10_000 });
  }

  /** Inserts `text` at the position as typed input (no auto-closing of quotes or brackets). */
  async function typeAt(line: number, column: number, text: string) {
    await goTo(line, column);
    await page.keyboard.insertText(text);
    await waitForCursorMoved(line, column, text);
  }

  async function replaceRange(line: number, column: number, endColumn: number, text: string) {
    await goTo(line, column);
    for (let c = column; c < endColumn; c += 1) await page.keyboard.press('Shift+ArrowRight');
    await cursorStatus.filter({ hasText: `(${endColumn - column} selected)` }).waitFor({ timeout: 10_000 });
    await page.keyboard.insertText(text);
    await waitForCursorMoved(line, column, text);
  }

  /** Replaces the whole text of a line (indentation included) with `text`. */
  async function replaceLine(line: number, text: string) {
    await goTo(line, 1);
    await page.keyboard.press('Shift+End');
    await cursorStatus.filter({ hasText: /selected/ }).waitFor({ timeout: 10_000 }).catch(() => {
      // an empty line selects nothing
    });
    await page.keyboard.insertText(text);
    await waitForCursorMoved(line, 1, text);
  }

  /** The status bar shows the cursor after the inserted text once the editor has applied it. */
  async function waitForCursorMoved(line: number, column: number, text: string) {
    const lines = text.split('\n');
    const endLine = line + lines.length - 1;
    const endColumn = (lines.length === 1 ? column : 1) + lines[lines.length - 1].length;
    await cursorStatus.filter({ hasText: new RegExp(`^\\s*Ln ${endLine}, Col ${endColumn}\\b`) }).waitFor({ timeout: 10_000 });
  }

  async function showProblems() {
    if (await markersPanel.isVisible()) return;
    await page.keyboard.press('Control+Shift+M');
    await markersPanel.waitFor({ state: 'visible' });
  }

  /** Reads the rendered rows of the Problems panel (opening it when hidden). */
  async function problems(): Promise<Problem[]> {
    await showProblems();
    return markersPanel.locator('.monaco-list-row').evaluateAll(readProblemRows);
  }

  /** Polls the Problems panel (a DOM read every 100 ms) until a row matches. */
  async function waitForProblem(predicate: (p: Problem) => boolean, timeoutMs = 30_000): Promise<Problem> {
    const deadline = Date.now() + timeoutMs;
    let last: Problem[] = [];
    for (;;) {
      last = await problems();
      const match = last.find(predicate);
      if (match) return match;
      if (Date.now() > deadline) throw new Error(`no matching problem within ${timeoutMs} ms; the panel shows:\n${formatProblems(last)}`);
      await page.waitForTimeout(100);
    }
  }

  /** Polls the Problems panel until no row matches; resolves with the rows then shown. */
  async function waitForNoProblem(predicate: (p: Problem) => boolean, timeoutMs = 30_000): Promise<Problem[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await problems();
      if (!current.some(predicate)) return current;
      if (Date.now() > deadline) throw new Error(`a matching problem is still listed after ${timeoutMs} ms:\n${formatProblems(current)}`);
      await page.waitForTimeout(100);
    }
  }

  /**
   * Shows the hover at a position (editor.action.showHover, Ctrl+K Ctrl+I) and returns its text
   * once loaded. A hover asked before the language server is ready shows nothing and nothing says
   * so: the command is asked again until `timeoutMs`.
   */
  async function hoverAt(line: number, column: number, timeoutMs = 30_000): Promise<string> {
    const hover = page.locator('.monaco-editor .monaco-hover:not(.hidden)').filter({ visible: true }).first();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await goTo(line, column);
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      try {
        await hover.waitFor({ state: 'visible', timeout: Math.min(3_000, Math.max(1, deadline - Date.now())) });
        break;
      } catch (err) {
        if (Date.now() >= deadline) throw err;
      }
    }
    await hover.filter({ hasNotText: 'Loading...' }).waitFor({ timeout: Math.max(1, deadline - Date.now()) });
    return (await hover.innerText()).trim();
  }

  async function screenshot(name: string): Promise<string> {
    const file = path.join(e2eOutputDir, `${name}.png`);
    mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    return file;
  }

  return {
    page,
    browser,
    url,
    workspace,
    userDataDir,
    externalRequests,
    openFile,
    runCommand,
    focusEditor,
    goTo,
    typeAt,
    replaceRange,
    replaceLine,
    problems,
    waitForProblem,
    waitForNoProblem,
    hoverAt,
    screenshot,
    close,
  };
}

export function formatProblems(problems: Problem[]): string {
  if (!problems.length) return '  (no problems)';
  return problems.map((p) => `  ${p.severity} [Ln ${p.line}, Col ${p.column}] ${p.message} (${p.code ?? '-'})`).join('\n');
}

/** Escapes a value for a double-quoted CSS attribute selector. */
function cssString(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}
