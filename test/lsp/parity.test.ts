/**
 * One engine, one front door: for the same files and settings, `agentcfg validate --format json`
 * prints exactly the diagnostics the language server publishes (range, severity, code, message,
 * order), and `agentcfg simulate --json` prints exactly the table the simulate request returns.
 * The corpus: the example configurations and templates, the template fixtures, hand-made variants
 * with the mistakes the checks are about (broken `if:`, bare variable names, invalid namespaces,
 * unknown keys, template errors, cross-file problems) and seeded random mutations of them; each
 * under three settings (the defaults, a customised set given as nested keys, the `gitlab` target
 * given as flat keys). Configs reach the server through an incremental edit as well, so its cached
 * per-entry checks are compared with the CLI's whole-file run too.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { seededRandom } from '../support/generateConfig';
import { agentcfgAsync } from '../support/cliAsync';
import { LspTestClient } from '../support/lspClient';
import { BINDING_TEMPLATE } from '../support/templates';
import { mutate, seedConfigs, seedTemplates } from '../unit/robustness/mutations';

interface Item {
  readonly agent: string;
  readonly file: 'config.yaml' | 'environment_templates/default.yaml' | 'environment_templates/other.yaml';
  readonly text: string;
  /** The sibling written to disk (not opened): the server and the CLI both read it there. */
  readonly sibling?: { file: string; text: string };
}

/** A config that turns resource management on, so a template next to it is rendered for every scenario. */
const MANAGED_CONFIG = 'ci_access:\n  projects:\n    - id: acme/app\n      access_as: {ci_job: {}}\n      resource_management: {enabled: true}\n';

const entry = (body: string) => `ci_access:\n  projects:\n    - id: acme/web\n${body}`;
/** The mistakes the rules design and the checks are about, one per config. */
const HAND_MADE_CONFIGS = [
  // The merge request variables GitLab sets in every merge request pipeline (the IID names the namespace).
  entry('      rules:\n        - if: $CI_MERGE_REQUEST_ID && $CI_MERGE_REQUEST_SOURCE_PROJECT_PATH == $CI_PROJECT_PATH\n          namespace: review-mr-$CI_MERGE_REQUEST_IID\n'),
  entry('      rules:\n        - if: $A ==\n'),
  entry('      rules:\n        - if: $CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH\n'),
  entry('      default_namespace: My_Namespace\n'),
  entry('      defualt_namespace: web\n'),
  entry('      environments: production\n'),
  entry('      rules:\n        - when: never\n        - if: $CI_COMMIT_TAG\n          namespace: web-$CI_COMMIT_TAG\n'),
  entry('      rules:\n        - if: ${CI_COMMIT_BRANCH} == "main"\n'),
  entry('      rules:\n        - if: $CI_COMIT_BRANCH == "main"\n          namespace: web\n'),
  entry(`      rules:\n        - if: $CI_ENVIRONMENT_NAME\n          namespace: ${'x'.repeat(50)}-$CI_ENVIRONMENT_SLUG\n`),
  entry('      rules:\n        - if: $CI_COMMIT_REF_NAME =~ /(a+)+$/\n          namespace: web\n'),
  entry('      rules:\n        - if: $DEPLOY == "yes"\n          namespace: web-$DEPLOY\n'),
  entry('      access_as:\n        agent: {}\n      resource_management:\n        enabled: true\n'),
  entry('      protected_branches_only: yes please\n'),
  entry('      default_namespace: "web\n'),
  'ci_access:\n  projects:\n    - id: acme/web\n    - id: acme/web\n  groups:\n    - id: acme\n      environments: ["review/*", production]\n',
  'ci_access:\n  instance:\n    default_namespace: shared\n',
  '# only a comment\n',
  '',
  'gitops:\n  manifest_projects:\n    - id: acme/manifests\n',
];

/** Template mistakes: syntax, unknown fields, names Kubernetes refuses, shapes GitLab refuses. */
const HAND_MADE_TEMPLATES = [
  BINDING_TEMPLATE,
  BINDING_TEMPLATE.replace('{{ .project.slug }}-{{ .environment.slug }}"\n  - apiVersion', '{{ .project.slug }-{{ .environment.slug }}"\n  - apiVersion'),
  BINDING_TEMPLATE.replace('.environment.slug }}"\n  - apiVersion', '.environment.nope }}"\n  - apiVersion'),
  BINDING_TEMPLATE.replace('name: "{{ .project.slug }}-{{ .environment.slug }}"\n  - apiVersion', 'name: "{{ .project.path }}_{{ .environment.name }}"\n  - apiVersion'),
  'objects: {}\n',
  'not_objects: []\n',
];

function corpus(): Item[] {
  const items: Item[] = [];
  const add = (file: Item['file'], text: string, sibling?: Item['sibling']) => items.push({ agent: `p${items.length}`, file, text, ...(sibling ? { sibling } : {}) });
  const random = seededRandom(42);
  const configs = [...seedConfigs(), ...HAND_MADE_CONFIGS];
  const templates = [...seedTemplates(), ...HAND_MADE_TEMPLATES];
  for (const text of configs) add('config.yaml', text);
  // With a template beside it: the config's cross-file checks read it from disk.
  for (const text of configs.slice(0, 6)) add('config.yaml', text, { file: 'environment_templates/default.yaml', text: BINDING_TEMPLATE });
  for (const text of templates) add('environment_templates/default.yaml', text, { file: 'config.yaml', text: MANAGED_CONFIG });
  add('environment_templates/other.yaml', BINDING_TEMPLATE, { file: 'config.yaml', text: MANAGED_CONFIG });
  add('environment_templates/default.yaml', BINDING_TEMPLATE); // no config: GitLab's empty configuration
  for (let i = 0; i < 40; i++) add('config.yaml', mutate(configs[i % configs.length], random));
  for (let i = 0; i < 20; i++) add('environment_templates/default.yaml', mutate(templates[i % templates.length], random), { file: 'config.yaml', text: MANAGED_CONFIG });
  return items;
}

const SETTINGS_SETS: { name: string; settings: Record<string, unknown>; file: 'nested' | 'flat' }[] = [
  { name: 'defaults', settings: {}, file: 'nested' },
  {
    name: 'customised',
    file: 'nested',
    settings: {
      defaultBranch: 'trunk',
      usePresetScenarios: true,
      scenarios: [{ name: 'hotfix to staging', ref: 'hotfix/1', protectedRef: true, environmentName: 'staging', environmentTier: 'staging', variables: { DEPLOY: 'yes' } }],
      noRuleMatch: 'allow',
      overlongNamespace: 'truncate',
      configProjectPath: 'acme/infra/agents',
      // An older GitLab (docs/gitlab-behaviour.md#gitlab-versions): gitops a warning, instance and ! unknown.
      gitlabVersion: '17.10',
      disabledLints: ['security.agentIdentityShared'],
    },
  },
  { name: 'gitlab target, no presets', file: 'flat', settings: { target: 'gitlab', gitlabVersion: '18.0', usePresetScenarios: false, scenarios: [{ name: 'main to production', ref: 'main', protectedRef: true, environmentName: 'production' }] } },
];

/** `run` on each item, at most `size` at a time; the promises in the items' order. */
function inBatches<T, R>(list: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R>[] {
  const started: Promise<R>[] = [];
  for (const [i, item] of list.entries()) started.push(i < size ? run(item) : started[i - size].then(() => run(item)));
  return started;
}

const SEVERITY = ['', 'error', 'warning', 'information', 'hint'];
/** What both faces must agree on, per diagnostic. */
const comparable = (d: { range: Diagnostic['range']; severity: string; code?: unknown; message: string }) => ({ range: d.range, severity: d.severity, code: d.code, message: d.message });

for (const set of SETTINGS_SETS) {
  describe(`editor and CLI agree, settings: ${set.name}`, () => {
    const items = corpus();
    let workspace: string;
    let settingsFile: string;
    let client: LspTestClient;
    const fileOf = (item: Item) => path.join(workspace, '.gitlab', 'agents', item.agent, item.file);

    before(async () => {
      workspace = mkdtempSync(path.join(tmpdir(), 'agentcfg-parity-'));
      for (const item of items) {
        mkdirSync(path.dirname(fileOf(item)), { recursive: true });
        writeFileSync(fileOf(item), item.text);
        if (item.sibling) {
          const sibling = path.join(workspace, '.gitlab', 'agents', item.agent, item.sibling.file);
          mkdirSync(path.dirname(sibling), { recursive: true });
          writeFileSync(sibling, item.sibling.text);
        }
      }
      settingsFile = path.join(workspace, '.vscode', 'settings.json');
      mkdirSync(path.dirname(settingsFile), { recursive: true });
      const flat = Object.fromEntries(Object.entries(set.settings).map(([k, v]) => [`gitlabAgentConfig.${k}`, v]));
      // VS Code's settings files are JSON with comments: the CLI reads them as the editor does.
      writeFileSync(settingsFile, `// workspace settings\n${JSON.stringify(set.file === 'flat' ? flat : { gitlabAgentConfig: set.settings }, null, 2)}\n`);
      client = await LspTestClient.start({ settings: set.settings, workspaceFolder: workspace });
    });
    after(async () => {
      await client.stop();
      rmSync(workspace, { recursive: true, force: true });
    });

    test(`validate --format json = published diagnostics, ${items.length} files`, async () => {
      const cli = await agentcfgAsync('validate', '--format', 'json', '--settings', settingsFile, workspace);
      assert.ok(cli.code === 0 || cli.code === 1, `exit ${cli.code}: ${cli.stderr}`);
      const printed = JSON.parse(cli.stdout) as { file: string; range: Diagnostic['range']; severity: string; code: string; message: string }[];
      let compared = 0;
      for (const item of items) {
        const uri = pathToFileURL(fileOf(item)).href;
        const published = await client.open(uri, item.text);
        client.close(uri);
        const fromEditor = published.diagnostics.map((d) => comparable({ ...d, severity: SEVERITY[d.severity ?? 1] }));
        const fromCli = printed.filter((d) => path.resolve(d.file) === fileOf(item)).map(comparable);
        assert.deepEqual(fromCli, fromEditor, `${item.agent}/${item.file}:\n${item.text.slice(0, 400)}`);
        compared += fromEditor.length;
      }
      // Not a vacuous comparison: the corpus is full of problems.
      assert.ok(compared > items.length, `only ${compared} diagnostics compared`);
    });

    test('after an incremental edit, the editor still publishes what the CLI prints', async () => {
      const configs = items.filter((i) => i.file === 'config.yaml' && i.text.includes('\n    - id:')).slice(0, 12);
      assert.ok(configs.length >= 8);
      for (const item of configs) {
        const uri = pathToFileURL(fileOf(item)).href;
        // Opened with an extra entry; deleting it leaves the file's text, checked from cached entries.
        const extra = '    - id: extra/entry\n';
        const at = item.text.indexOf('    - id:');
        await client.open(uri, item.text.slice(0, at) + extra + item.text.slice(at));
        const line = item.text.slice(0, at).split('\n').length - 1;
        const published = await client.edit(uri, { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, '');
        client.close(uri);
        const cli = await agentcfgAsync('validate', '--format', 'json', '--settings', settingsFile, fileOf(item));
        assert.ok(cli.code === 0 || cli.code === 1, `exit ${cli.code}: ${cli.stderr}`);
        const fromCli = (JSON.parse(cli.stdout) as Parameters<typeof comparable>[0][]).map(comparable);
        assert.deepEqual(fromCli, published.diagnostics.map((d) => comparable({ ...d, severity: SEVERITY[d.severity ?? 1] })), `${item.agent}`);
      }
    });

    test('simulate --json = the simulate request, every config', async () => {
      const configs = items.filter((i) => i.file === 'config.yaml');
      // One CLI process per config, four at a time, while the server answers one request after another.
      const cliRuns = inBatches(configs, 4, (item) => agentcfgAsync('simulate', fileOf(item), '--json', '--settings', settingsFile));
      let rows = 0;
      for (const [i, item] of configs.entries()) {
        const uri = pathToFileURL(fileOf(item)).href;
        await client.open(uri, item.text);
        const fromEditor = await client.request<{ rows: Record<string, unknown>[] } & Record<string, unknown>>('gitlabAgentConfig/simulate', { uri });
        client.close(uri);
        const cli = await cliRuns[i];
        assert.equal(cli.code, 0, cli.stderr);
        // Only the editor has a cluster connection: where the view's RBAC check would ask, and
        // which cluster. Everything the engine decides is compared field by field.
        const { contextSource: _source, cluster: _cluster, ...table } = fromEditor;
        const engineRows = table.rows.map(({ accessKey: _key, ...row }) => row);
        assert.ok(table.rows.every((row) => 'accessKey' in row && 'decidedLine' in row));
        assert.deepEqual(JSON.parse(cli.stdout), { ...table, rows: engineRows }, `${item.agent}`);
        rows += fromEditor.rows.length;
      }
      assert.ok(rows > 100, `only ${rows} rows compared`);
    });
  });
}
