// `agentcfg --version` (and -V, commander's spelling) prints `agentcfg <version>` with the version
// of package.json and exits 0: from the bundle a pipeline runs (dist/cli.js, where esbuild inlined
// the version) and from the sources (tsx), which read package.json at run time.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentcfg } from '../support/cli';
import { repoRoot } from '../support/lspClient';

const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

describe('agentcfg --version', () => {
  test('dist/cli.js --version and -V', () => {
    assert.match(version, /^\d+\.\d+\.\d+/);
    for (const flag of ['--version', '-V']) assert.deepEqual(agentcfg(flag), { code: 0, stdout: `agentcfg ${version}\n`, stderr: '' });
  });

  test('from the sources', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/cli/main.ts'), '--version'], { cwd: repoRoot, encoding: 'utf8' });
    assert.deepEqual({ code: run.status, stdout: run.stdout }, { code: 0, stdout: `agentcfg ${version}\n` });
  });

  test('--help mentions it', () => {
    assert.match(agentcfg('--help').stdout, /agentcfg --version \(-V\) prints the version/);
  });
});
