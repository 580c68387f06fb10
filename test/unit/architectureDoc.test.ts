// ARCHITECTURE.md stays a map of the code as it is: its "Code map" names every folder at the levels
// it describes (read from the file system now, so a folder added or renamed shows up here), names no
// folder that is gone, and every test its "Invariants" say holds an invariant exists. The failure
// messages list what is missing, so a rename is followed in the document in one go.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const DOC = 'ARCHITECTURE.md';

/** The folders whose sub-folders the code map describes one by one ('' is the repository root). */
const LEVELS = ['', 'test', 'server/src', 'server/src/engine', 'server/src/cluster', 'server/src/lsp', 'server/src/cli', 'client/src'];

/** Directory patterns of a .gitignore (`dist/`, `test/cluster/bin/`), plus git's own folder. */
function ignoredDirectories(base: string): string[] {
  let text = '';
  try {
    text = readFileSync(path.join(base, '.gitignore'), 'utf8');
  } catch {
    // No .gitignore: only .git is left out.
  }
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('/') && !line.startsWith('#') && !line.startsWith('!') && !/[*?[]/.test(line))
    .map((line) => line.replace(/^\//, '').replace(/\/$/, ''));
  return ['.git', ...patterns];
}

/** Whether a path (relative, `/`-separated) is ignored: a pattern without `/` matches a folder of that name anywhere. */
function isIgnored(rel: string, ignored: readonly string[]): boolean {
  const segments = rel.split('/');
  return ignored.some((pattern) => (pattern.includes('/') ? rel === pattern || rel.startsWith(`${pattern}/`) : segments.includes(pattern)));
}

/** Whether a folder holds at least one file that is not ignored, at any depth. */
function holdsFile(base: string, rel: string, ignored: readonly string[]): boolean {
  for (const entry of readdirSync(path.join(base, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (isIgnored(child, ignored)) continue;
    if (entry.isDirectory() ? holdsFile(base, child, ignored) : entry.isFile()) return true;
  }
  return false;
}

/** The folders directly under each level that hold a file, as `a/b` paths from `base`. */
export function describedFolders(base: string, levels: readonly string[] = LEVELS): string[] {
  const ignored = ignoredDirectories(base);
  const folders: string[] = [];
  for (const level of levels) {
    let entries;
    try {
      entries = readdirSync(path.join(base, level), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const rel = level ? `${level}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !isIgnored(rel, ignored) && holdsFile(base, rel, ignored)) folders.push(rel);
    }
  }
  return folders.sort();
}

/** The text of a `## heading` section, up to the next `## ` heading. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Folders not named in the code map: a folder is named when `path/` appears as inline code. */
export function unnamedFolders(codeMap: string, folders: readonly string[]): string[] {
  return folders.filter((folder) => !codeMap.includes(`\`${folder}/\``));
}

/** Folders the code map names by a path from the root (`server/src/engine/api/`) that do not hold a file. */
export function vanishedFolders(base: string, codeMap: string): string[] {
  const ignored = ignoredDirectories(base);
  const topLevel = new Set(describedFolders(base, ['']));
  const named = [...codeMap.matchAll(/`([.\w-]+(?:\/[.\w-]+)+)\/`/g)].map((m) => m[1]);
  const gone = named.filter((folder) => {
    if (!topLevel.has(folder.split('/')[0]) || isIgnored(folder, ignored)) return false;
    try {
      return !holdsFile(base, folder, ignored);
    } catch {
      return true;
    }
  });
  return [...new Set(gone)].sort();
}

/** The files an Invariants section names as holding an invariant (tests and the lint config), and the invariants that name no test. */
export function invariantReferences(invariants: string): { files: string[]; withoutTest: string[] } {
  const files = [...new Set([...invariants.matchAll(/`((?:test\/[\w./-]+\.ts)|(?:eslint\.config\.[a-z]+))`/g)].map((m) => m[1]))];
  const withoutTest = invariants
    .split(/^### /m)
    .slice(1)
    .filter((part) => !/`test\/[\w./-]+\.test\.ts`/.test(part))
    .map((part) => part.split('\n')[0].trim());
  return { files, withoutTest };
}

const doc = readFileSync(path.join(root, DOC), 'utf8');
const codeMap = section(doc, 'Code map');
const invariants = section(doc, 'Invariants');

test('ARCHITECTURE.md has a code map and invariants', () => {
  assert.ok(codeMap.trim(), `${DOC} has no "## Code map" section`);
  assert.ok(invariants.trim(), `${DOC} has no "## Invariants" section`);
});

test('every folder at the code map\'s levels is named in ARCHITECTURE.md\'s code map', () => {
  const missing = unnamedFolders(codeMap, describedFolders(root));
  assert.deepEqual(missing, [], `folders not named in the code map of ${DOC} (write each as \`path/\`): ${missing.join(', ')}`);
});

test('every folder the code map names by its path still exists', () => {
  const gone = vanishedFolders(root, codeMap);
  assert.deepEqual(gone, [], `folders named in the code map of ${DOC} that hold no file: ${gone.join(', ')}`);
});

test('every test named in the Invariants exists, and each invariant names one', () => {
  const { files, withoutTest } = invariantReferences(invariants);
  const absent = files.filter((file) => {
    try {
      readFileSync(path.join(root, file));
      return false;
    } catch {
      return true;
    }
  });
  assert.deepEqual(absent, [], `files named in the Invariants of ${DOC} that do not exist: ${absent.join(', ')}`);
  assert.deepEqual(withoutTest, [], `invariants in ${DOC} that name no test holding them: ${withoutTest.join(', ')}`);
  assert.ok(files.some((file) => file.startsWith('test/')), `the Invariants of ${DOC} name no test`);
});

test('the checks can fail: an unnamed folder, a vanished one and a missing test are each reported', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'architecture-doc-'));
  try {
    const write = (rel: string, text = '') => {
      mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
      writeFileSync(path.join(base, rel), text);
    };
    write('.gitignore', 'dist/\nnested/skip/\n');
    write('named/a.ts');
    write('unnamed/deep/b.txt');
    write('dist/bundle.js');
    write('nested/skip/c.ts');
    write('nested/kept/d.ts');
    mkdirSync(path.join(base, 'empty'));
    assert.deepEqual(describedFolders(base, ['', 'nested']), ['named', 'nested', 'nested/kept', 'unnamed']);
    const map = '`named/` and `nested/` hold sources; `nested/kept/` too; `nested/gone/` and `named/old/` moved; `elsewhere/x/` is not ours.';
    assert.deepEqual(unnamedFolders(map, describedFolders(base, ['', 'nested'])), ['unnamed']);
    assert.deepEqual(vanishedFolders(base, map), ['named/old', 'nested/gone']);
    const refs = invariantReferences('### Held\nby `test/unit/a.test.ts` and `eslint.config.mjs`.\n### Unheld\nnothing.\n');
    assert.deepEqual(refs.files, ['test/unit/a.test.ts', 'eslint.config.mjs']);
    assert.deepEqual(refs.withoutTest, ['Unheld']);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
