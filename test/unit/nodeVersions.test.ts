// agentcfg and the language server on the Node releases their users run: 22, 24 and 26 (the
// official binaries, from the npm registry: scripts/lib/node-versions.mjs), beside the Node that
// builds and tests the project. The same answers as under that Node; agentcfg's own code cache
// (Node's module compile cache holds only the bundle's top level and was 50-80 ms slower per run:
// server/src/cli/entry.ts); and nothing printed before a cluster command's own message (Node 24
// warns about the url.parse() of the bundled node-fetch: server/src/cluster/kube/urlParseWarning.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test, type TestContext } from 'node:test';
import { agentConfigUri, LspTestClient, repoRoot } from '../support/lspClient';
import { writeUnreachableKubeconfig } from '../support/unreachableKubeconfig';

interface NodeVersionsLib {
  NODE_VERSIONS: readonly string[];
  ensureNode(version: string): { ok: true; bin: string } | { ok: false; reason: string };
}
const importLib = async () => (await import(pathToFileURL(path.join(repoRoot, 'scripts/lib/node-versions.mjs')).href)) as NodeVersionsLib;

const cli = path.join(repoRoot, 'dist', 'cli.js');
const examples = path.join(repoRoot, 'examples');
const work = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-node-versions-'));
after(() => rmSync(work, { recursive: true, force: true }));
const kubeconfig = writeUnreachableKubeconfig(work);

/** dist/cli.js under `node`, its code cache in `cacheHome` (none: turned off). */
function agentcfg(node: string, cacheHome: string | null, ...args: string[]) {
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome ?? '', NODE_DISABLE_COMPILE_CACHE: cacheHome === null ? '1' : '' };
  const run = spawnSync(node, [cli, ...args], { cwd: examples, env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The Node binary of `version`, or the test skipped with the reason it could not be had. */
function nodeOrSkip(lib: NodeVersionsLib, t: TestContext, version: string): string | null {
  const node = lib.ensureNode(version);
  if (node.ok) return node.bin;
  t.skip(`Node ${version} could not be installed: ${node.reason}`);
  return null;
}

const validateArgs = ['validate', '.gitlab/agents', '--format', 'json'];
const here = agentcfg(process.execPath, null, ...validateArgs);

const uri = agentConfigUri('broken-agent');
const text = readFileSync(path.join(examples, '.gitlab', 'agents', 'broken-agent', 'config.yaml'), 'utf8');

/** The diagnostics the server under `node` publishes for the broken example. */
async function diagnosticsOn(node: string) {
  const client = await LspTestClient.start({ node });
  try {
    return (await client.open(uri, text)).diagnostics;
  } finally {
    await client.stop();
  }
}

/** Under the Node running the tests: asked by the first version's test, shared by the others. */
let diagnosticsHere: ReturnType<typeof diagnosticsOn> | undefined;

describe('on the Node releases users run', async () => {
  const lib = await importLib();
  for (const version of lib.NODE_VERSIONS) describe(`Node ${version}`, () => {
    test('agentcfg validate gives the same report and exit status, with nothing on stderr', { timeout: 600_000 }, (t) => {
      const node = nodeOrSkip(lib, t, version);
      if (!node) return;
      assert.equal(here.status, 1, 'the examples hold a broken agent');
      assert.equal(here.stderr, '');
      assert.deepEqual(agentcfg(node, null, ...validateArgs), here);
    });

    test("agentcfg writes its own code cache, and answers the same with it", { timeout: 600_000 }, (t) => {
      const node = nodeOrSkip(lib, t, version);
      if (!node) return;
      const cacheHome = mkdtempSync(path.join(work, `cache-${version}-`));
      assert.deepEqual(agentcfg(node, cacheHome, ...validateArgs), here);
      assert.match(readdirSync(path.join(cacheHome, 'agentcfg')).join(' '), /^cliMain-[0-9a-f]{20}\.v8cache$/, "one cache file of agentcfg's, no directory of Node's module cache");
      assert.deepEqual(agentcfg(node, cacheHome, ...validateArgs), here);
    });

    test("a cluster command's first words are its own: an unreachable cluster, named", { timeout: 600_000 }, (t) => {
      const node = nodeOrSkip(lib, t, version);
      if (!node) return;
      const run = agentcfg(node, null, 'workspace', 'list', '--kubeconfig', kubeconfig);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^Cannot reach the cluster: .*Check the context's server address/);
    });

    test('the language server publishes the same diagnostics', { timeout: 600_000 }, async (t) => {
      const node = nodeOrSkip(lib, t, version);
      if (!node) return;
      const expected = await (diagnosticsHere ??= diagnosticsOn(process.execPath));
      assert.ok(expected.length > 0, 'the broken example has problems to report');
      assert.deepEqual(await diagnosticsOn(node), expected);
    });
  });
});
