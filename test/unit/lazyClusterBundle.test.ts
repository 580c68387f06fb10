// The cluster client (@kubernetes/client-node, ~600 KB of its own code and more of its dependencies)
// is in the bundles loaded on the first cluster command only (dist/clusterCommands.js,
// dist/cliClusterCommands.js): a language server or `agentcfg validate` (dist/cli.js, which loads
// dist/cliMain.js) that never talks to a cluster does not load it. One static import of a module that imports it (the 403 advice, once
// in kube/session.ts) put it back into dist/server.js: +1.7 MB and +16 MiB resident at 10 entries.
// The bundles' source maps list what each bundle holds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const sourcesOf = (bundle: string): string[] => (JSON.parse(readFileSync(path.join(root, `${bundle}.map`), 'utf8')) as { sources: string[] }).sources;

for (const bundle of ['dist/server.js', 'dist/cli.js', 'dist/cliMain.js']) {
  test(`${bundle} holds no cluster client: it is loaded with the first cluster command`, () => {
    const client = sourcesOf(bundle).filter((source) => source.includes('node_modules/@kubernetes/'));
    assert.deepEqual(client, []);
  });
}

test('the cluster commands bundle does hold the cluster client (the source maps are read right)', () => {
  assert.ok(sourcesOf('dist/clusterCommands.js').some((source) => source.includes('node_modules/@kubernetes/client-node')));
});
