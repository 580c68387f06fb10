// Bundles the entry points with esbuild: the VS Code client (vscode external), the language
// server and the agentcfg CLI. Run by `npm run build`, by `prepare` after install, and by the test and
// start scripts. `--watch` rebuilds on change.
import { chmodSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
  // whatwg-url (under @kubernetes/client-node) requires Node's `punycode`, which Node 21+ (VS Code's
  // extension host) deprecates with a warning in the output channel on the first cluster command:
  // the userland package of the same code is bundled instead.
  // yaml's ES build (its `default` export condition: the same code as its CommonJS `node` build
  // without `process`, its rare warnings going to console.warn instead of process.emitWarning)
  // bundles as direct references: the CommonJS build is reached through a getter per property read
  // (esbuild's __toESM), paid at every isMap/isScalar of every check, and its Parser reads
  // process.env once per lexeme.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js', punycode: './node_modules/punycode/punycode.js', yaml: './node_modules/yaml/browser/index.js' },
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

/**
 * The same for the CLI: `agentcfg apply|destroy|workspace|flux` import dist/cliClusterCommands.js
 * when chosen, so `agentcfg validate` does not load the cluster code and @kubernetes/client-node.
 */
const cliClusterCommandsExternal = {
  name: 'cli-cluster-commands-bundle',
  setup(build) {
    build.onResolve({ filter: /^\.\/clusterCommands$/ }, () => ({ path: './cliClusterCommands.js', external: true }));
  },
};

/**
 * The agent-config schema validators compiled ahead of time (ajv standalone code): the
 * generator (server/src/build/standaloneValidators.ts) is bundled and run here, and its
 * output replaces precompiledValidators.ts (empty in the sources) in every bundle. A process then
 * loads the validator instead of compiling the schema at start.
 */
async function standaloneValidators() {
  const generator = await esbuild.build({ ...common, entryPoints: ['server/src/build/standaloneValidators.ts'], write: false, sourcemap: false, banner: {}, define: {}, logLevel: 'error' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', '__filename', generator.outputFiles[0].text)(module, module.exports, createRequire(path.join(root, 'package.json')), path.join(root, 'generator.js'));
  return module.exports.standaloneValidatorsModule();
}
const precompiled = await standaloneValidators();
const precompiledValidators = {
  name: 'precompiled-validators',
  setup(build) {
    build.onLoad({ filter: /engine[\\/]config[\\/]precompiledValidators\.ts$/ }, () => ({ contents: precompiled, loader: 'js', resolveDir: root }));
  },
};

/**
 * `yaml` (2.x) reads `process.env.LOG_TOKENS` for every token its parser takes and
 * `process.env.LOG_STREAM` for every token its composer takes: each read asks the C++ side for the
 * environment (405,000 reads for a file of 5,000 entries, a noticeable part of the parse). In the bundles both
 * are read once, when the module loads, as upstream could do; the build fails if the code it
 * rewrites is not found, so an upgrade of `yaml` is looked at again.
 */
const yamlEnvironmentOnce = {
  name: 'yaml-environment-once',
  setup(build) {
    build.onLoad({ filter: /node_modules[\\/]yaml[\\/]dist[\\/](parse[\\/]parser|compose[\\/]composer)\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const variable = args.path.includes('parser') ? 'LOG_TOKENS' : 'LOG_STREAM';
      const read = `node_process.env.${variable}`;
      if (!source.includes(read)) throw new Error(`${args.path}: no ${read} to read once (yaml changed: check scripts/build.mjs)`);
      const once = `const ${variable}_ONCE = ${read};\n`;
      return { contents: source.replaceAll(read, `${variable}_ONCE`).replace("var node_process = require('process');\n", (line) => line + once), loader: 'js' };
    });
  },
};

/**
 * Every bundle in ASCII. esbuild escapes non-ASCII characters in strings and regular expressions
 * but keeps them in the comments it preserves (class members, object properties: `→`, `—`), and
 * Node holds a script with a single non-ASCII character as a two-byte string: twice the memory of
 * the source on the heap, and more resident memory from the start. `\\uXXXX` reads as the same
 * character in a comment, a string, a template, a regular expression and an identifier, so the
 * rewrite changes no meaning; and those comments end their lines, so no code moves and the source
 * maps stay right.
 */
const asciiOutput = {
  name: 'ascii-output',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length) return;
      const file = path.join(root, build.initialOptions.outfile);
      const source = await readFile(file, 'utf8');
      if (!/[\u0080-\uffff]/.test(source)) return;
      const escaped = source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      await writeFile(file, escaped);
    });
  },
};

const entries = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  { entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js', plugins: [clusterCommandsExternal] },
  { entryPoints: ['server/src/lsp/cluster/commandGroups.ts'], outfile: 'dist/clusterCommands.js' },
  { entryPoints: ['server/src/cli/commands/clusterCommands.ts'], outfile: 'dist/cliClusterCommands.js' },
  // `import()` becomes `require()`: the bundle runs as a vm.Script there, where Node 20 has no import().
  { entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cliMain.js', plugins: [cliClusterCommandsExternal], supported: { 'dynamic-import': false } },
  // The `agentcfg` executable: loads dist/cliMain.js with V8's code cache (server/src/cli/entry.ts).
  { entryPoints: ['server/src/cli/entry.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];

if (watch) {
  for (const entry of entries) {
    const ctx = await esbuild.context({ ...common, ...entry, plugins: [...(entry.plugins ?? []), precompiledValidators, yamlEnvironmentOnce, asciiOutput] });
    await ctx.watch();
  }
  console.log('esbuild: watching client, server and cli');
} else {
  await Promise.all(entries.map((entry) => esbuild.build({ ...common, ...entry, plugins: [...(entry.plugins ?? []), precompiledValidators, yamlEnvironmentOnce, asciiOutput] })));
  chmodSync(path.join(root, 'dist/cli.js'), 0o755);
}
