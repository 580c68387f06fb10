// Loading the cluster bundles prints nothing: Node 21 and later (VS Code's extension host, where the
// output channel shows the server's stderr) warn at run time about the built-in `punycode` that
// whatwg-url requires; scripts/build.mjs bundles the userland package instead. Node 20 raises those
// warnings only with --pending-deprecation, so the bundles are loaded with it.
// Nor do their requests: node-fetch 2, under @kubernetes/client-node, parses each URL with
// `url.parse()`, which Node 24 warns about (DEP0169) outside node_modules, so before each
// `agentcfg` cluster command's output (server/src/cluster/kube/urlParseWarning.ts). Node 20 raises
// DEP0169 only with --pending-deprecation, so these runs have it too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');

for (const bundle of ['dist/clusterCommands.js', 'dist/cliClusterCommands.js']) {
  test(`loading ${bundle} prints no deprecation warning`, () => {
    const loaded = spawnSync(process.execPath, ['--pending-deprecation', '-e', `require(${JSON.stringify(path.join(root, bundle))})`], { encoding: 'utf8' });
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.equal(loaded.stderr, '');
  });
}

/** Node's own url.parse() warning, as node-fetch raises it; the same code in emitWarning's options form; another deprecation. */
const URL_PARSE = [
  `require('node:url').parse('https://127.0.0.1:6443/api');`,
  `process.emitWarning('url.parse, with options', { type: 'DeprecationWarning', code: 'DEP0169' });`,
  `process.emitWarning('another deprecation', 'DeprecationWarning', 'DEP0999');`,
].join(' ');

test('url.parse() is warned about without a cluster bundle (what the bundles drop)', () => {
  const run = spawnSync(process.execPath, ['--pending-deprecation', '-e', URL_PARSE], { encoding: 'utf8' });
  assert.match(run.stderr, /\[DEP0169\] DeprecationWarning: `url\.parse\(\)`/);
});

for (const bundle of ['dist/clusterCommands.js', 'dist/cliClusterCommands.js']) {
  test(`${bundle} drops the url.parse() warning of its Kubernetes client's requests, and only it`, () => {
    const run = spawnSync(process.execPath, ['--pending-deprecation', '-e', `require(${JSON.stringify(path.join(root, bundle))}); ${URL_PARSE}`], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /DEP0169/);
    assert.match(run.stderr, /\[DEP0999\] DeprecationWarning: another deprecation/);
  });
}
