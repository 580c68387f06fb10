// Bundles the entry points with esbuild: the VS Code client (vscode external), the language
// server and the agentcfg CLI. Run by `npm run build`, by `prepare` after install, and by the test and
// start scripts. `--watch` rebuilds on change.
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { importEsbuild } from './lib/esbuild-import.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const esbuild = await importEsbuild(root);
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  // @kubernetes/client-node is ESM and reads import.meta.url in a few places; keep it defined in CJS output.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow; its ES build bundles.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

/**
 * The server loads its cluster commands (and @kubernetes/client-node under them) with `import()` on
 * the first cluster command. Built as a bundle of their own beside dist/server.js, an editor that
 * never runs one does not even read that code (several MB of source V8 would otherwise hold).
 */
const clusterCommandsExternal = {
  name: 'cluster-commands-bundle',
  setup(build) {
    build.onResolve({ filter: /^\.\/commandGroups$/ }, () => ({ path: './clusterCommands.js', external: true }));
  },
};

const entries = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  { entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js', plugins: [clusterCommandsExternal] },
  { entryPoints: ['server/src/lsp/cluster/commandGroups.ts'], outfile: 'dist/clusterCommands.js' },
  {
    entryPoints: ['server/src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: "#!/usr/bin/env node\nconst importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  },
];

if (watch) {
  for (const entry of entries) {
    const ctx = await esbuild.context({ ...common, ...entry });
    await ctx.watch();
  }
  console.log('esbuild: watching client, server and cli');
} else {
  await Promise.all(entries.map((entry) => esbuild.build({ ...common, ...entry })));
  chmodSync(path.join(root, 'dist/cli.js'), 0o755);
}
