// The imports show the layering (issue "One front door"): the VS Code client reaches the server only
// through the protocol module, and the protocol itself imports nothing of the engine or the cluster
// code — so the editor cannot grow a second copy of the engine's decisions.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

/**
 * Every module specifier a file imports, re-exports, loads for its side effects (`import 'x'`), or
 * loads at run time (`import('x')`, `require('x')`): each is a way for a layer to reach another.
 */
const IMPORT_FORMS = [/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm, /^\s*import\s+['"]([^'"]+)['"]/gm, /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g];
function importsOf(text: string): string[] {
  return IMPORT_FORMS.flatMap((form) => [...text.matchAll(form)].map((m) => m[1]));
}
const importsOfFile = (file: string) => importsOf(readFileSync(path.join(root, file), 'utf8'));

test('importsOf sees every form of import', () => {
  const text = [
    "import { a } from './a';",
    "import type {\n  B,\n} from '../b';",
    "export * from './c';",
    "import './d';",
    "const e = await import('./e');",
    "const f = require('node:fs');",
    "// a comment about imports, then code: x.importance('no')",
  ].join('\n');
  assert.deepEqual(importsOf(text).sort(), ['../b', './a', './c', './d', './e', 'node:fs']);
});

test('the client imports only vscode libraries, node built-ins, its own modules and the protocol', () => {
  const allowedPackages = /^(vscode|vscode-languageclient(\/.*)?|node:.*)$/;
  const protocol = new Set(['server/src/protocol.ts', 'server/src/lsp/cluster/protocol.ts']);
  const offending: string[] = [];
  for (const file of sources('client/src')) {
    for (const spec of importsOfFile(file)) {
      if (allowedPackages.test(spec)) continue;
      const target = path.relative(root, path.resolve(root, path.dirname(file), spec)).replaceAll(path.sep, '/');
      if (target.startsWith('client/src/') || protocol.has(`${target}.ts`)) continue;
      offending.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offending, []);
});

test('the protocol modules import nothing (so the client cannot reach the engine through them)', () => {
  for (const file of ['server/src/protocol.ts', 'server/src/lsp/cluster/protocol.ts']) {
    assert.deepEqual(importsOfFile(file).filter((spec) => !spec.startsWith('./lsp/cluster/protocol')), [], file);
  }
});

test('the engine imports only itself and its parsing libraries: no editor, CLI, cluster or file-system code', () => {
  // node:crypto computes GitLab's hash suffixes; the JSON schemas in schemas/ are data. Reading files is
  // the faces' job (engine/project siblings).
  const allowedPackages = new Set(['yaml', 'ajv', 're2js', 'node:crypto']);
  const offending: string[] = [];
  for (const file of sources('server/src/engine')) {
    for (const spec of importsOfFile(file)) {
      if (allowedPackages.has(spec)) continue;
      const target = path.relative(root, path.resolve(root, path.dirname(file), spec)).replaceAll(path.sep, '/');
      if (spec.startsWith('.') && (target.startsWith('server/src/engine/') || /^schemas\/[\w-]+\.schema\.json$/.test(target))) continue;
      offending.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offending, []);
});

test('the language server and the CLI check files only through the front door (engine/project)', () => {
  // Assembling checks in a face is how the CLI once missed the rule checks the editor ran.
  const assembling = /from '[./]*engine\/(config\/validateAgentConfig|crossFile\/agentFiles|access\/ruleDiagnostics|template\/diagnostics\/validateEnvironmentTemplate)'/;
  const offending = [...sources('server/src/lsp'), ...sources('server/src/cli')].filter((file) => readFileSync(path.join(root, file), 'utf8').split('\n').some((line) => assembling.test(line) && !/import type/.test(line)));
  assert.deepEqual(offending, []);
});
