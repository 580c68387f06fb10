/**
 * Inputs nested past this tool's bounds get one positioned diagnostic instead of recursing
 * (engine/yaml/boundedYaml.ts, engine/template/render/limits.ts). Before the bounds, a 2 KB
 * template of 1,000 nested lists aborted `agentcfg validate` (V8: out of memory in the regexp
 * compiler, reached near the end of the stack), and a template rendering `{{range 100000000}}` ran
 * out of memory.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { MAX_YAML_DEPTH } from '../../../server/src/engine/yaml/boundedYaml';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { templateCrossFileDiagnostics } from '../../../server/src/engine/crossFile/agentFiles';
import { MAX_TEMPLATE_NESTING } from '../../../server/src/engine/template/render/index';
import { repoRoot } from '../../support/lspClient';
import { AgentDir, assertInside, validateInProcess } from './harness';
import { nestedBlock, nestedFlow } from './mutations';

/** 1-based `line:column` of a diagnostic, as `agentcfg validate` prints it. */
const at = (d: { range: { start: { line: number; character: number } } }) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;

const TEMPLATE = 'environment_templates/default.yaml';

// Where the 65th level opens: the depth counts every list and mapping, the document's own included.
const DEEP_YAML: { name: string; file: 'config.yaml' | typeof TEMPLATE; text: string; at: string }[] = [
  { name: 'template: 1,000 nested flow lists (2 KB)', file: TEMPLATE, text: nestedFlow(1000, 'seq', true) + '\n', at: `1:${MAX_YAML_DEPTH + 1}` },
  // `objects:` is level 1; `{a: ` number k (from 1) is level k + 1 and starts at column 10 + 4 (k - 1).
  { name: 'template: 1,000 nested flow mappings under objects', file: TEMPLATE, text: `objects: ${nestedFlow(1000, 'map', true)}\n`, at: `1:${10 + 4 * (MAX_YAML_DEPTH - 1)}` },
  { name: 'template: 1,000 nested block lists, one per line', file: TEMPLATE, text: nestedBlock(1000, true), at: `${MAX_YAML_DEPTH + 1}:${MAX_YAML_DEPTH + 1}` },
  { name: 'config: 1,000 nested block mappings', file: 'config.yaml', text: nestedBlock(1000, false), at: `${MAX_YAML_DEPTH + 1}:${MAX_YAML_DEPTH + 1}` },
  { name: 'config: 1,000 compact nested lists on one line', file: 'config.yaml', text: '- '.repeat(1000) + 'x\n', at: `1:${2 * MAX_YAML_DEPTH + 1}` },
  // The root, `{projects`, `[` and `{id` are levels 1 to 4; `{a: ` number k is level k + 4, at column 35 + 4 (k - 1).
  { name: 'config: unclosed nested flow mappings in an entry', file: 'config.yaml', text: `ci_access: {projects: [{id: a, x: ${nestedFlow(1000, 'map', false)}\n`, at: `1:${35 + 4 * (MAX_YAML_DEPTH - 4)}` },
];

describe('YAML nested past the bound: one diagnostic where it goes past, nothing recursive', () => {
  for (const c of DEEP_YAML) {
    test(c.name, async () => {
      const dir = new AgentDir();
      const run = await validateInProcess(dir.write(c.file, c.text));
      const deep = run.diagnostics.filter((d) => d.code === 'yaml.tooDeep');
      assert.equal(deep.length, 1, JSON.stringify(run.diagnostics));
      assert.equal(at(deep[0]), c.at);
      assert.match(deep[0].message, /nested more than 64 levels deep: this tool stops reading the file here/);
      assert.equal(run.code, 1);
      assertInside(c.text, run.diagnostics.map((d) => d.range), c.name);
    });
  }

  test('aliases that make the data deeper than the text are stopped before conversion', () => {
    // Each anchor nests the previous one 40 levels deeper: 4 of them make 160 levels of data.
    const lines = Array.from({ length: 4 }, (_, i) => `a${i}: &a${i} ${'['.repeat(40)}${i ? `*a${i - 1}` : 'x'}${']'.repeat(40)}`);
    const parsed = parseYaml(lines.join('\n') + '\n');
    assert.deepEqual(
      parsed.diagnostics.map((d) => d.code),
      ['yaml.tooDeep'],
    );
    assert.equal(parsed.value, null);
  });

  test('the real CLI process reports the 1,000-deep template and exits 1 (it aborted with 134)', () => {
    const dir = new AgentDir();
    const file = dir.write(TEMPLATE, nestedFlow(1000, 'seq', true) + '\n');
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'validate', file], { encoding: 'utf8' });
    assert.equal(result.signal, null);
    assert.equal(result.status, 1, result.stderr.slice(0, 500));
    // Nothing on stderr but the report's summary: no crash, no stack.
    assert.equal(result.stderr, '\n✖ 1 problem (1 error) in 1 file\n');
    assert.match(result.stdout, new RegExp(`default\\.yaml:1:${MAX_YAML_DEPTH + 1}: error: .*\\[yaml\\.tooDeep\\]`));
  });
});

const template = (name: string) => `objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "${name}"\n`;

describe('Go templates past the bounds: a limit of this tool, not a Go syntax error', () => {
  const cases = [
    { name: '1,000 nested parentheses', action: '{{ ' + '('.repeat(1000) + '.project.slug' + ')'.repeat(1000) + ' }}', opener: '(' },
    { name: '1,000 nested {{if}} blocks', action: '{{ if true }}'.repeat(1000) + 'x' + '{{ end }}'.repeat(1000), opener: 'if' },
    { name: '1,000 {{else if}} (each nests)', action: '{{ if false }}' + '{{ else if false }}'.repeat(1000) + '{{ end }}', opener: 'if' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const text = template(c.action);
      const run = await validateInProcess(new AgentDir().write(TEMPLATE, text));
      const limit = run.diagnostics.filter((d) => d.code === 'template.limit');
      assert.equal(limit.length, 1, JSON.stringify(run.diagnostics.map((d) => d.code)));
      assert.match(limit[0].message, new RegExp(`nested more than ${MAX_TEMPLATE_NESTING} levels deep: this tool stops`));
      // On the item that opens level 101 (line 5 is the `name:` line).
      const line = text.split('\n')[limit[0].range.start.line];
      assert.equal(limit[0].range.start.line, 4);
      assert.ok(line.startsWith(c.opener, limit[0].range.start.character), `at ${line.slice(limit[0].range.start.character, limit[0].range.start.character + 10)}`);
      assert.ok(!run.diagnostics.some((d) => d.code === 'template.syntax'));
    });
  }
});

describe('rendering that would never end stops at the budget: an error once, as `agentcfg render` fails on it', () => {
  const config = parseYaml('ci_access:\n  projects:\n    - id: a/b\n      access_as: {ci_job: {}}\n      resource_management: {enabled: true}\n');
  // The action in a YAML comment: GitLab renders the raw text, comments included.
  const render = (action: string) =>
    templateCrossFileDiagnostics({ config, templateText: `# ${action}\n${template('x')}`, agentName: 'a', scenarios: presetScenarios('main'), defaultBranch: 'main' });
  const cases = [
    { name: 'a loop of 100,000,000 iterations', action: '{{ range $i := 100000000 }}x{{ end }}', cause: /more than 1,000,000 steps/ },
    { name: 'chained replaces that multiply the length', action: '{{ .project.slug' + ' | replace "" "aaaaaaaaaa"'.repeat(10) + ' }}', cause: /more than 1,000,000 characters/ },
    { name: 'a template that calls itself', action: '{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}', cause: /more than 200 levels deep while rendering/ },
    { name: 'a width of 99,999,999', action: '{{ printf "%99999999d" 1 }}', cause: /more than 1,000,000 characters/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const diagnostics = render(c.action);
      const failed = diagnostics.filter((d) => d.code === 'crossFile.renderFailed');
      assert.equal(failed.length, 1, JSON.stringify(diagnostics.map((d) => d.code)));
      assert.equal(failed[0].severity, 'error');
      assert.match(failed[0].message, c.cause);
      assert.equal(failed[0].range.start.line, 0);
      assert.ok(!diagnostics.some((d) => d.code === 'crossFile.renderStopped'));
    });
  }

  test('a budget spent by many renderings together, each fine alone, is a warning: the rest is not checked', () => {
    const projects = Array.from({ length: 20 }, (_, i) => `    - id: g/p${i}\n      access_as: {ci_job: {}}\n      resource_management: {enabled: true}\n`).join('');
    const many = parseYaml(`ci_access:\n  projects:\n${projects}`);
    const diagnostics = templateCrossFileDiagnostics({ config: many, templateText: `# {{ range $i := 40000 }}x{{ end }}\n${template('x')}`, agentName: 'a', scenarios: presetScenarios('main'), defaultBranch: 'main' });
    const stopped = diagnostics.filter((d) => d.code === 'crossFile.renderStopped');
    assert.equal(stopped.length, 1, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.equal(stopped[0].severity, 'warning');
    assert.match(stopped[0].message, /^Not checked for every scenario: rendering takes more than 1,000,000 steps/);
    assert.ok(!diagnostics.some((d) => d.code === 'crossFile.renderFailed'));
  });
});
