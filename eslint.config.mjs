// Flat config: typescript-eslint's recommended rules over all TypeScript sources, zero warnings allowed
// (`npm run lint` passes --max-warnings 0).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
      // The legacy URL parser (DEP0169): the cluster bundles drop Node 24's warning about it because
      // only their bundled node-fetch calls it (server/src/cluster/kube/urlParseWarning.ts).
      'no-restricted-imports': ['error', { paths: ['url', 'node:url'].map((name) => ({ name, importNames: ['parse'], message: 'url.parse() is deprecated (DEP0169): use new URL().' })) }],
      'no-restricted-properties': ['error', { object: 'url', property: 'parse', message: 'url.parse() is deprecated (DEP0169): use new URL().' }],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' },
    },
  },
);
