/**
 * What the CLI used to pass over or print as noise: bytes that are not UTF-8 (read as U+FFFD, no
 * problem reported, although GitLab's YAML reader rejects the file), and mapping keys that are lists
 * or mappings (the yaml library's "Keys with collection values will be stringified" warning on
 * stderr, no problem reported, although GitLab rejects those too). Both are now positioned errors,
 * and nothing reaches stderr.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../../support/lspClient';
import { AgentDir, validateInProcess } from './harness';

/** 1-based `line:column` of a diagnostic, as `agentcfg validate` prints it. */
const at = (d: { range: { start: { line: number; character: number } } }) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;

function cli(...args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), ...args], { encoding: 'utf8' });
}

describe('invalid UTF-8: an error at the first invalid byte', () => {
  const cases = [
    { name: 'a lone 0xFF after a multi-byte character', bytes: Buffer.concat([Buffer.from('ci_access:\n  projects:\n    - id: café/'), Buffer.from([0xff]), Buffer.from('x\n')]), at: '3:16', byte: '0xFF at offset 39' },
    { name: 'a sequence cut short', bytes: Buffer.concat([Buffer.from('observability:\n  logging:\n    level: '), Buffer.from([0xe2, 0x82]), Buffer.from('\n')]), at: '3:12', byte: '0xE2 at offset 37' },
    { name: 'an encoded surrogate (CESU-8)', bytes: Buffer.concat([Buffer.from('# '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\nci_access: {}\n')]), at: '1:3', byte: '0xED at offset 2' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const run = await validateInProcess(new AgentDir().write('config.yaml', c.bytes));
      const invalid = run.diagnostics.filter((d) => d.code === 'file.invalidUtf8');
      assert.equal(invalid.length, 1, JSON.stringify(run.diagnostics));
      assert.equal(at(invalid[0]), c.at);
      assert.match(invalid[0].message, new RegExp(`not valid UTF-8 \\(byte ${c.byte}\\)`));
      assert.equal(run.code, 1);
    });
  }

  test('in an environment template too, and valid UTF-8 (with a byte order mark) passes', async () => {
    const dir = new AgentDir();
    const template = await validateInProcess(dir.write('environment_templates/default.yaml', Buffer.concat([Buffer.from('objects: []\n# '), Buffer.from([0xc0, 0xaf]), Buffer.from('\n')])));
    assert.deepEqual(
      template.diagnostics.filter((d) => d.code === 'file.invalidUtf8').map(at),
      ['2:3'],
    );
    const valid = await validateInProcess(dir.write('config.yaml', Buffer.from('\ufeffci_access:\n  projects:\n    - id: café/😀\n')));
    assert.deepEqual(
      valid.diagnostics.filter((d) => d.code === 'file.invalidUtf8'),
      [],
    );
  });
});

describe('mapping keys that are lists or mappings: an error on the key, nothing on stderr', () => {
  const cases = [
    { name: 'a flow mapping with a list as key', file: 'config.yaml' as const, text: 'ci_access: {[a]: b}\n', at: ['1:13'] },
    { name: 'an explicit key that is a list', file: 'config.yaml' as const, text: 'observability:\n  ? [a, b]\n  : c\n', at: ['2:5'] },
    { name: 'keys nested in keys (reported once, outermost)', file: 'config.yaml' as const, text: '{{{a: b}: c}: d}: e\n', at: ['1:1'] },
    { name: 'in an environment template', file: 'environment_templates/default.yaml' as const, text: 'objects:\n  - ? {kind: x}\n    : y\n', at: ['2:7'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const file = new AgentDir().write(c.file, c.text);
      const result = cli('validate', file, '--format', 'json');
      assert.equal(result.stderr, '');
      assert.equal(result.status, 1);
      const diagnostics = JSON.parse(result.stdout) as { code: string; range: { start: { line: number; character: number } } }[];
      assert.deepEqual(
        diagnostics.filter((d) => d.code === 'yaml.collectionKey').map(at),
        c.at,
      );
    });
  }
});
