// Flat config: typescript-eslint's recommended rules over all TypeScript sources, zero warnings allowed
// (`npm run lint` passes --max-warnings 0), and the import rules that keep the layers apart
// (ARCHITECTURE.md, "Invariants"; test/unit/importRules.test.ts shows each of them failing).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// The legacy URL parser (DEP0169): the cluster bundles drop Node 24's warning about it because
// only their bundled node-fetch calls it (server/src/cluster/kube/urlParseWarning.ts).
const NO_URL_PARSE = ['url', 'node:url'].map((name) => ({ name, importNames: ['parse'], message: 'url.parse() is deprecated (DEP0169): use new URL().' }));

/** Inside server/src/engine: the front door and the editor's services, which faces may import. */
const FRONT_DOOR = './api/index.ts';
const EDITOR_SERVICES = './api/editor.ts';

/**
 * Which engine modules each face may import (paths inside server/src/engine), and which other
 * faces it must not reach. Everything else of the engine is the engine's own business.
 */
const FACES = [
  { face: 'server/src/cli', engine: [FRONT_DOOR], notFaces: ['server/src/lsp'] },
  { face: 'server/src/lsp', engine: [FRONT_DOOR, EDITOR_SERVICES], notFaces: ['server/src/cli'] },
  { face: 'server/src/cluster', engine: [FRONT_DOOR], notFaces: ['server/src/cli', 'server/src/lsp'] },
  { face: 'server/src/repository', engine: [FRONT_DOOR], notFaces: ['server/src/cli', 'server/src/lsp', 'server/src/cluster'] },
  { face: 'server/src/server.ts', engine: [FRONT_DOOR], notFaces: ['server/src/cli'] },
  // The build precompiles the schema validators the engine loads: it reads the schemas and versions only.
  { face: 'server/src/build', engine: ['./config/agentConfigSchema.ts', './config/versionedSchema.ts', './gitlab', './template/diagnostics/templateSchema.ts'], notFaces: ['server/src/cli', 'server/src/lsp', 'server/src/cluster'] },
];

const layerZones = [
  // The engine is pure: no face, no client, no test code.
  { target: 'server/src/engine', from: 'server/src', except: ['./engine'], message: 'The engine imports no face: move the code into the engine, or pass what it needs as an argument.' },
  { target: 'server/src/engine', from: ['client', 'test', 'bench', 'scripts'], message: 'The engine imports no face.' },
  // The VS Code client reaches the server only through the typed protocol.
  { target: 'client/src', from: 'server', except: ['./src/protocol'], message: 'The client talks to the server through server/src/protocol only.' },
  ...FACES.flatMap(({ face, engine, notFaces }) => [
    {
      target: face,
      from: 'server/src/engine',
      except: engine,
      message: `${face} may import from the engine only ${engine.join(', ')} (eslint.config.mjs FACES): add what it needs there.`,
    },
    ...notFaces.map((other) => ({ target: face, from: other, message: `${face} does not import ${other}: share the code through the engine.` })),
  ]),
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'test-output/**', '.cache/**', 'test/cluster/**/*.go', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-restricted-imports': ['error', { paths: NO_URL_PARSE }],
      'no-restricted-properties': ['error', { object: 'url', property: 'parse', message: 'url.parse() is deprecated (DEP0169): use new URL().' }],
    },
  },
  {
    files: ['server/src/**/*.ts', 'client/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
      // A circle of run-time imports makes the order modules load in decide what they see.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // node:crypto computes GitLab's hash suffixes; the JSON schemas under schemas/ are data.
    files: ['server/src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: NO_URL_PARSE, patterns: [{ regex: '^(?!\\.{1,2}/|yaml$|ajv$|re2js$|node:crypto$)', message: 'The engine imports only its parsing libraries (yaml, ajv, re2js, node:crypto): no editor, Node or file-system module.' }] }],
    },
  },
  {
    // The protocol is types and constants both sides import: it imports nothing itself.
    files: ['server/src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./)', message: 'The protocol imports nothing but itself: the client must not reach the engine through it.' }] }],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' },
    },
  },
);
