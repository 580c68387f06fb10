// `agentcfg validate` of many files in one process: the files are read ahead
// while others are checked, siblings come from what the batch has read, the git remote is looked up
// once per directory. None of it may change an answer: a directory checked in one run gives, file
// for file and in the listing's order, what each file checked on its own gives.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateCommand } from '../../server/src/cli/commands/validate';
import type { CliIo } from '../../server/src/cli/io';
import { repoRoot } from '../support/lspClient';
import { generateAgentConfig, generateVariedAgentConfig } from '../support/generateConfig';

async function validate(cwd: string, ...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  // stderr carries the text report's summary line and nothing else.
  const err = (t: string) => void (/^\n✖ \d+ problems? \([^)]*\) in \d+ files?\n$/.test(t) || assert.fail(`stderr: ${t}`));
  const io: CliIo = { cwd, out: (t) => void (out += t), err, readStdin: async () => '' };
  const code = await validateCommand.run(argv, io);
  return { code, out };
}

const examples = path.join(repoRoot, 'examples', '.gitlab', 'agents');
const production = readFileSync(path.join(examples, 'production-agent', 'config.yaml'), 'utf8');
const broken = readFileSync(path.join(examples, 'broken-agent', 'config.yaml'), 'utf8');
const template = readFileSync(path.join(examples, 'production-agent', 'environment_templates', 'default.yaml'), 'utf8');

/** 60 agents: clean, broken and generated configs, templates beside a third of them (some broken), an agent with a template only, unreadable files, a nested repository. */
function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-batch-'));
  const git = (at: string, project: string) => {
    mkdirSync(path.join(at, '.git'), { recursive: true });
    writeFileSync(path.join(at, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = git@gitlab.com:${project}.git\n`);
  };
  git(dir, 'acme/agents');
  for (let i = 0; i < 60; i++) {
    const agent = path.join(dir, '.gitlab', 'agents', `agent-${String(i).padStart(2, '0')}`);
    mkdirSync(agent, { recursive: true });
    const config = [production, broken, generateAgentConfig(1 + (i % 5)), generateVariedAgentConfig(2 + (i % 4), i + 1)][i % 4]!;
    if (i === 17) symlinkSync(path.join(agent, 'missing.yaml'), path.join(agent, 'config.yaml')); // listed, cannot be read
    else if (i !== 23) writeFileSync(path.join(agent, 'config.yaml'), config); // agent 23 has a template only
    if (i % 3 === 0 || i === 23) {
      mkdirSync(path.join(agent, 'environment_templates'), { recursive: true });
      // Every other template names a variable the config cannot give, or is broken YAML.
      const text = i % 6 === 0 ? template : i % 9 === 3 ? 'objects:\n  - kind: [\n' : template.replace('{{ .project.id }}', '{{ .project.nope }}');
      writeFileSync(path.join(agent, 'environment_templates', 'default.yaml'), text);
    }
    if (i === 41) git(agent, 'acme/nested'); // a repository inside the agent directory: its own remote
  }
  return dir;
}

describe('agentcfg validate, a batch', () => {
  test('a directory in one run = each file on its own, in the listing order (text and JSON)', async () => {
    const dir = workspace();
    const listed = await validate(dir, '.', '--format', 'json');
    const problems = JSON.parse(listed.out) as Array<{ file: string }>;
    const files = [...new Set(problems.map((p) => p.file))];
    assert.ok(files.length > 50, `most files have something to say (${files.length})`);
    assert.ok(files.includes(path.join('.gitlab', 'agents', 'agent-17', 'config.yaml')), 'the unreadable file is reported');

    // The listing's order, from the text report (one line per problem, files in order).
    const text = await validate(dir, '.');
    const order = [...new Set(text.out.split('\n').filter(Boolean).map((line) => line.slice(0, line.indexOf(':'))))];
    assert.deepEqual(order, [...order].sort(), 'files in sorted order');

    const one: unknown[] = [];
    let anyError = false;
    for (const file of order) {
      const alone = await validate(dir, file, '--format', 'json');
      one.push(...(JSON.parse(alone.out) as unknown[]));
      anyError ||= alone.code === 1;
    }
    assert.deepEqual(problems, one);
    assert.equal(listed.code, anyError ? 1 : 0);
    assert.equal(text.code, listed.code);
  });

  test('files named one by one, several times, in any order: reported in that order', async () => {
    const dir = workspace();
    const names = ['.gitlab/agents/agent-05/config.yaml', '.gitlab/agents/agent-03/environment_templates/default.yaml', '.gitlab/agents/agent-01/config.yaml', '.gitlab/agents/agent-03/config.yaml', '.gitlab/agents/agent-05/config.yaml'];
    const all = await validate(dir, ...names, '--format', 'json');
    const expected: unknown[] = [];
    for (const name of names) expected.push(...(JSON.parse((await validate(dir, name, '--format', 'json')).out) as unknown[]));
    assert.deepEqual(JSON.parse(all.out), expected);
  });

  test('a repository nested in a listed directory gives its own files its remote (the listing, not the disk, says where .git is)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-nested-'));
    const git = (at: string, project: string) => {
      mkdirSync(path.join(at, '.git'), { recursive: true });
      writeFileSync(path.join(at, '.git', 'config'), `[remote "origin"]\n\turl = git@gitlab.com:${project}.git\n`);
    };
    // The same entry of the partners group: outside acme's top-level group, inside partners'.
    const config = 'ci_access:\n  groups:\n    - id: partners/team\n      access_as:\n        ci_job: {}\n';
    for (const [at, project] of [[dir, 'acme/agents'], [path.join(dir, 'nested'), 'partners/agents']] as const) {
      git(at, project);
      mkdirSync(path.join(at, '.gitlab', 'agents', 'a'), { recursive: true });
      writeFileSync(path.join(at, '.gitlab', 'agents', 'a', 'config.yaml'), config);
    }
    const found = JSON.parse((await validate(dir, '.', '--format', 'json', '--gitlab-version', '18.0')).out) as { file: string; code: string }[];
    assert.deepEqual(
      found.filter((d) => d.code === 'authorization.crossTopLevel').map((d) => d.file),
      [path.join('.gitlab', 'agents', 'a', 'config.yaml')],
    );
  });

  test('a file found in a listed directory is named as path.join(the directory as written, its path inside)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-names-'));
    mkdirSync(path.join(dir, 'repo', '.gitlab', 'agents', 'a'), { recursive: true });
    writeFileSync(path.join(dir, 'repo', '.gitlab', 'agents', 'a', 'config.yaml'), broken);
    const inside = path.join('.gitlab', 'agents', 'a', 'config.yaml');
    for (const [cwd, input] of [[dir, 'repo'], [dir, './repo/'], [dir, 'repo/../repo'], [dir, 'repo//.gitlab/'], [path.join(dir, 'repo'), '.'], [path.join(dir, 'repo'), './'], [path.join(dir, 'repo', '.gitlab'), '..']]) {
      const found = JSON.parse((await validate(cwd, input, '--format', 'json')).out) as { file: string }[];
      const expected = input.endsWith('.gitlab/') ? path.join(input, 'agents', 'a', 'config.yaml') : path.join(input, inside);
      assert.deepEqual([...new Set(found.map((d) => d.file))], [expected], `${input} from ${cwd}`);
    }
  });

  test('a listed directory is not searched under node_modules or .git (the .git beside is still the repository)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentcfg-skipped-'));
    for (const at of ['', 'node_modules/pkg', '.git/modules/sub', 'deep/node_modules']) {
      mkdirSync(path.join(dir, at, '.gitlab', 'agents', 'a'), { recursive: true });
      writeFileSync(path.join(dir, at, '.gitlab', 'agents', 'a', 'config.yaml'), broken);
    }
    writeFileSync(path.join(dir, '.git', 'config'), '[remote "origin"]\n\turl = git@gitlab.com:acme/agents.git\n');
    const found = JSON.parse((await validate(dir, '.', '--format', 'json')).out) as { file: string }[];
    assert.deepEqual([...new Set(found.map((d) => d.file))], [path.join('.gitlab', 'agents', 'a', 'config.yaml')]);
    // Named on the command line, such a file is checked.
    const named = path.join('node_modules', 'pkg', '.gitlab', 'agents', 'a', 'config.yaml');
    assert.ok((JSON.parse((await validate(dir, named, '--format', 'json')).out) as unknown[]).length > 0);
  });
});
