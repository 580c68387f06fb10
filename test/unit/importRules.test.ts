// The import rules of eslint.config.mjs that keep the layers apart (ARCHITECTURE.md, "Invariants"),
// shown failing: each scratch file below breaks one rule and must be reported by exactly that rule,
// and the allowed forms beside them must pass. `npm test` lints the real tree with the same rules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The rules a text breaks, as if it were the file at `file` (which need not exist). */
async function rulesBroken(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return [...new Set(result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`))].sort();
}

const RESTRICTED_PATHS = 'import-x/no-restricted-paths';
const RESTRICTED_IMPORTS = 'no-restricted-imports';

const violations: { rule: string; file: string; text: string; broken: string[] }[] = [
  { rule: 'the CLI imports the engine only through the front door', file: 'server/src/cli/scratch.ts', text: "import { readCiAccess } from '../engine/access/model';\nexport const read = readCiAccess;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'the CLI does not use the editor services', file: 'server/src/cli/scratch.ts', text: "import { outline } from '../engine/api/editor';\nexport const o = outline;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'the language server imports the engine only through its two modules', file: 'server/src/lsp/scratch.ts', text: "import { validateAgentConfig } from '../engine/config/validateAgentConfig';\nexport const v = validateAgentConfig;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'the cluster code imports the engine only through the front door', file: 'server/src/cluster/scratch.ts', text: "import { renderEnvironmentTemplate } from '../engine/template/renderTemplate';\nexport const r = renderEnvironmentTemplate;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'a face does not import another face', file: 'server/src/cli/scratch.ts', text: "import { toLspDiagnostic } from '../lsp/convert';\nexport const c = toLspDiagnostic;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'the engine imports no face', file: 'server/src/engine/access/scratch.ts', text: "import { settingsForFile } from '../../cli/projectSettings';\nexport const s = settingsForFile;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'the engine imports no Node or editor module', file: 'server/src/engine/access/scratch.ts', text: "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", broken: [RESTRICTED_IMPORTS] },
  { rule: 'the client reaches the server only through the protocol', file: 'client/src/scratch.ts', text: "import { checkAgentFile } from '../../server/src/engine/api';\nexport const c = checkAgentFile;\n", broken: [RESTRICTED_PATHS] },
  { rule: 'the protocol imports nothing', file: 'server/src/protocol/scratch.ts', text: "import type { EngineDiagnostic } from '../engine/api';\nexport type D = EngineDiagnostic;\n", broken: [RESTRICTED_IMPORTS] },
];

for (const v of violations) {
  test(`a scratch violation fails: ${v.rule}`, async () => {
    assert.deepEqual(await rulesBroken(v.file, v.text), v.broken);
  });
}

test('a circle of imports fails: access/model importing the front door, which imports it', async () => {
  const file = 'server/src/engine/access/model.ts';
  const text = readFileSync(path.join(root, file), 'utf8') + "\nimport { checkAgentFile } from '../api/checks';\nexport const check = checkAgentFile;\n";
  assert.deepEqual(await rulesBroken(file, text), ['import-x/no-cycle']);
});

test('the allowed forms pass (so the rules above do not simply refuse every import)', async () => {
  const allowed = [
    { file: 'server/src/cli/scratch.ts', text: "import { checkAgentFile } from '../engine/api';\nexport const c = checkAgentFile;\n" },
    { file: 'server/src/lsp/scratch.ts', text: "import { outline } from '../engine/api/editor';\nimport { checkAgentFile } from '../engine/api';\nexport const o = [outline, checkAgentFile];\n" },
    { file: 'server/src/engine/access/scratch.ts', text: "import { parse } from 'yaml';\nimport { readCiAccess } from './model';\nexport const r = [parse, readCiAccess];\n" },
    { file: 'client/src/scratch.ts', text: "import { DEFAULT_SETTINGS } from '../../server/src/protocol';\nexport const d = DEFAULT_SETTINGS;\n" },
    { file: 'server/src/engine/access/model.ts', text: readFileSync(path.join(root, 'server/src/engine/access/model.ts'), 'utf8') },
  ];
  for (const { file, text } of allowed) assert.deepEqual(await rulesBroken(file, text), [], file);
});
