// .pre-commit-hooks.yaml through the real pre-commit (PyPI, pinned in scripts/lib/pre-commit.mjs,
// installed into a cached virtual environment): a project whose .pre-commit-config.yaml names this
// repository gets `pre-commit run --all-files` failing on a broken agent config with agentcfg's
// message, and passing once it is fixed — what a user sees (https://pre-commit.com/#plugins).
//
// How the hook is installed: pre-commit clones the repository at `rev` and, for `language: node`,
// runs `npm install -g git+file://<clone>`; npm builds dist/cli.js through `prepare`
// (scripts/lib/esbuild-import.mjs says why that needs care) and packs what .npmignore lets through.
// npm takes the packages from its cache or the npm registry, as for any node hook; nothing else is
// downloaded (node itself is the system's, pre-commit's `language_version: system`).
// The repository is this work tree: HEAD when it is clean (CI), otherwise a temporary clone with
// the changes and new files committed on top (as `pre-commit try-repo` does, which leaves new files out).
// pre-commit's own store is a temporary folder, so both runs share one install and nothing stays.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { classifyPath } from '../../server/src/engine/files';
import { repoRoot } from '../support/lspClient';

interface PreCommitLib {
  PRE_COMMIT_VERSION: string;
  ensurePreCommit(): { ok: true; bin: string } | { ok: false; reason: string };
}
const importLib = async () => (await import(pathToFileURL(path.join(repoRoot, 'scripts/lib/pre-commit.mjs')).href)) as PreCommitLib;

interface Hook {
  id: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames?: boolean;
}
const hooks = parse(readFileSync(path.join(repoRoot, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const hook = hooks.find((h) => h.id === 'agentcfg-validate');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-precommit-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=agentcfg test', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

/** This work tree (what git does not ignore) as a repository and revision pre-commit can clone. */
function hookRepository(): { repo: string; rev: string } {
  const head = git(repoRoot, 'rev-parse', 'HEAD');
  const diff = spawnSync('git', ['diff', '--binary', 'HEAD'], { cwd: repoRoot, maxBuffer: 512 * 1024 * 1024 }).stdout;
  const untracked = git(repoRoot, 'ls-files', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean);
  if (!diff.length && !untracked.length) return { repo: repoRoot, rev: head };
  const shadow = path.join(tmp, 'hook-repository');
  git(tmp, 'clone', '--quiet', '--no-checkout', repoRoot, shadow);
  git(shadow, 'checkout', '--quiet', head);
  const applied = spawnSync('git', ['apply', '--index', '--binary'], { cwd: shadow, input: diff });
  if (applied.status !== 0) throw new Error(`git apply: ${applied.stderr}`);
  for (const file of untracked) cpSync(path.join(repoRoot, file), path.join(shadow, file));
  git(shadow, 'add', '--all');
  git(shadow, 'commit', '--quiet', '--no-verify', '--allow-empty', '-m', 'work tree under test');
  return { repo: shadow, rev: git(shadow, 'rev-parse', 'HEAD') };
}

const BROKEN = 'ci_access:\n  projects:\n    - id: acme/app\n      defualt_namespace: apps\n';
const FIXED = 'ci_access:\n  projects:\n    - id: acme/app\n      default_namespace: apps\n';

describe('pre-commit hook agentcfg-validate', () => {
  test('the manifest: a node hook running `agentcfg validate` (a bin of package.json) on the files it is given', () => {
    assert.ok(hook, '.pre-commit-hooks.yaml declares agentcfg-validate');
    const { bin } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.equal(hook.language, 'node');
    assert.equal(hook.entry, 'agentcfg validate');
    assert.ok(bin.agentcfg);
    assert.equal(hook.pass_filenames, true);
  });

  test('package.json has no runtime dependencies (esbuild bundles them; with them the hook install races, see .pre-commit-hooks.yaml)', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
  });

  test('its files pattern selects exactly the files the engine calls agent files', () => {
    assert.ok(hook);
    // pre-commit matches `files` with Python's re.search on paths with `/`; this pattern is the same in JS.
    const pattern = new RegExp(hook.files);
    const cases: [string, boolean][] = [
      ['.gitlab/agents/a/config.yaml', true],
      ['.gitlab/agents/prod-1/config.yml', true],
      ['infra/.gitlab/agents/a/config.yaml', true],
      ['.gitlab/agents/a/environment_templates/default.yaml', true],
      ['.gitlab/agents/a/environment_templates/review.yml', true],
      ['.gitlab/agents/a/values.yaml', false],
      ['.gitlab/agents/config.yaml', false],
      ['.gitlab/agents/a/b/config.yaml', false],
      ['.gitlab/agents/a/environment_templates/sub/x.yaml', false],
      ['x.gitlab/agents/a/config.yaml', false],
      ['.gitlab/agents/a/config.yaml.orig', false],
      ['.gitlab-ci.yml', false],
    ];
    for (const [file, expected] of cases) {
      assert.equal(pattern.test(file), expected, `pattern on ${file}`);
      assert.equal(classifyPath(file).kind !== 'other', expected, `classifyPath on ${file}`);
    }
  });

  test('pre-commit run --all-files fails on a broken config with agentcfg\'s message, then passes after the fix', { timeout: 600_000 }, async (t) => {
    const lib = await importLib();
    const preCommit = lib.ensurePreCommit();
    if (!preCommit.ok) {
      // Reported as skipped, with the reason, never as passed.
      t.skip(`pre-commit ${lib.PRE_COMMIT_VERSION} could not be installed: ${preCommit.reason}`);
      return;
    }
    const { repo, rev } = hookRepository();
    const project = path.join(tmp, 'project');
    mkdirSync(path.join(project, '.gitlab/agents/a'), { recursive: true });
    git(project, 'init', '--quiet');
    writeFileSync(path.join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${repo}\n    rev: ${rev}\n    hooks:\n      - id: agentcfg-validate\n`);
    const config = path.join(project, '.gitlab/agents/a/config.yaml');
    const run = (text: string) => {
      writeFileSync(config, text);
      git(project, 'add', '.');
      const result = spawnSync(preCommit.bin, ['run', '--all-files', '--color', 'never'], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, PRE_COMMIT_HOME: path.join(tmp, 'pre-commit-home') },
      });
      return { code: result.status, output: `${result.stdout}${result.stderr}` };
    };

    const broken = run(BROKEN);
    assert.equal(broken.code, 1, broken.output);
    assert.match(broken.output, /agentcfg validate\.+Failed/);
    assert.match(broken.output, /- exit code: 1/);
    assert.match(broken.output, /^\.gitlab\/agents\/a\/config\.yaml:4:7: error: Unknown key "defualt_namespace" .*\[schema\.unknownKey\]$/m);

    const fixed = run(FIXED);
    assert.equal(fixed.code, 0, fixed.output);
    assert.match(fixed.output, /agentcfg validate\.+Passed/);
  });
});
