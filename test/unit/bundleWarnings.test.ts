// Loading the cluster bundles prints nothing: Node 21 and later (VS Code's extension host, where the
// output channel shows the server's stderr) warn at run time about the built-in `punycode` that
// whatwg-url requires; scripts/build.mjs bundles the userland package instead. Node 20 raises those
// warnings only with --pending-deprecation, so the bundles are loaded with it.
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
