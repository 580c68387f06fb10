// What `agentcfg validate` of one file loads at start (one file must be no slower than ajv-cli,
// process start included). node:child_process (3-10 ms to load) is for `agentcfg diff`, which runs
// git: that command is imported when chosen. Node's own list of the built-in modules it loaded
// (process.moduleLoadList) says what the bundle pulled in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const config = path.join(root, 'examples', '.gitlab', 'agents', 'production-agent', 'config.yaml');
/** Prints the built-in modules loaded, when the process exits. */
const REPORT = "process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'))";

function loadedBy(...argv: string[]): string[] {
  const result = spawnSync(process.execPath, ['--import', 'data:text/javascript,' + encodeURIComponent(REPORT), path.join(root, 'dist', 'cli.js'), ...argv], { encoding: 'utf8' });
  const line = result.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  assert.ok(line, `no module list: ${result.stderr}`);
  return JSON.parse(line.slice('LOADED '.length)) as string[];
}

test('agentcfg validate of one file does not load node:child_process', () => {
  assert.ok(!loadedBy('validate', config).some((m) => /\bchild_process$/.test(m)));
});

test('agentcfg diff does load it (the module list is read right)', () => {
  assert.ok(loadedBy('diff', config, config).some((m) => /\bchild_process$/.test(m)));
});
