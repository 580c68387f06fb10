// agentcfg usage errors, every command: an unknown option, an option without its value or given
// twice, a flag given a value, a bad number, enum, duration, URL or name is exit status 2, with a
// message naming the option and the expected form and the command's usage, before anything else
// happens. The cluster commands get a kubeconfig whose server is a closed port: had the command
// reached the cluster it would have exited 1 ("Cannot reach the cluster").
// Kubernetes name rules: test/unit/cluster/names.test.ts (k8s.io/apimachinery validation.go).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { repoRoot } from '../support/lspClient';
import { writeUnreachableKubeconfig } from '../support/unreachableKubeconfig';

const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-usage-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KUBECONFIG = writeUnreachableKubeconfig(dir);
const SCENARIOS = path.join(dir, 'scenarios.json');
writeFileSync(SCENARIOS, JSON.stringify([{ projectPath: 'a/b', ref: 'main' }]));
const WORKSPACE = path.join(dir, 'config_to_apply.yaml');
writeFileSync(WORKSPACE, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');

const CONFIG = 'examples/.gitlab/agents/production-agent/config.yaml';
const TEMPLATE = 'test/fixtures/templates/namespace-sa-rolebinding.yaml';
const IDS = ['--project', 'acme/shop', '--project-id', '42', '--environment', 'review/x', '--agent', 'prod', '--agent-id', '7'];
const K = ['--kubeconfig', KUBECONFIG];
const FLUX = ['flux', 'wait', '--name', 'app', '--namespace', 'flux-system', '--revision', 'main@sha1:0123456789abcdef0123456789abcdef01234567', ...K];
const TERMINATE = ['workspace', 'terminate', '--name', 'ws-1', ...K];

/** [argv, what stderr must say]. Each exits 2 and prints the usage. */
const CASES: ReadonlyArray<readonly [readonly string[], RegExp]> = [
  // agentcfg itself
  [[], /^usage: agentcfg <command> \[options\]/],
  [['explode'], /^agentcfg: unknown command "explode"/],
  // validate
  [['validate'], /name at least one file or directory/],
  [['validate', CONFIG, '--bogus'], /unknown option --bogus/],
  [['validate', CONFIG, '--format', 'yaml'], /--format must be text, json, sarif or codequality, got "yaml"/],
  [['validate', CONFIG, '--target'], /--target needs a value/],
  [['validate', CONFIG, '--target', '--format', 'json'], /--target needs a value/],
  // simulate
  [['simulate'], /name exactly one config\.yaml/],
  [['simulate', CONFIG, '--tier', 'production'], /--tier describes one job: --project is required with it/],
  [['simulate', CONFIG, '--expect', 'authorized'], /--expect checks the results of --project or --scenarios/],
  [['simulate', CONFIG, '--project', 'a/b', '--expect', 'yes'], /--expect must be "authorized", "denied": got "yes"/],
  [['simulate', CONFIG, '--settings', 'no/such/settings.json'], /cannot read --settings no\/such\/settings\.json: ENOENT/],
  [['validate', CONFIG, '--default-branch', ' '], /--default-branch needs a branch name/],
  [['simulate', CONFIG, '--project', '--json'], /--project needs a value/],
  [['simulate', CONFIG, '--project', 'a/b', '--project', 'c/d'], /--project is given twice \("a\/b" and "c\/d"\)/],
  [['simulate', CONFIG, '--project', 'a/b', '--json=yes'], /--json takes no value/],
  [['simulate', CONFIG, '--project', 'a/b', '--tier', 'prod'], /--tier must be production, staging, testing, development or other, got "prod"/],
  [['simulate', CONFIG, '--project', 'a/b', '--target', 'latest'], /--target must be proposal or gitlab/],
  [['simulate', CONFIG, '--project', 'a/b', '--no-rule-match', 'maybe'], /--no-rule-match must be deny or allow/],
  [['simulate', CONFIG, '--project', 'a/b', '--overlong-namespace', 'cut'], /--overlong-namespace must be error or truncate/],
  [['simulate', CONFIG, '--project', 'a/b', '--project-id', '4x2'], /--project-id must be a non-negative integer, got "4x2"/],
  [['simulate', CONFIG, '--project', 'a/b', '--var', 'NOVALUE'], /--var needs KEY=VALUE, got "NOVALUE"/],
  [['simulate', CONFIG, '--project', 'a/b', '--environment', 'review/'], /--environment must be a GitLab environment name .*"review\/" must not start or end with '\/'/],
  [['simulate', CONFIG, '--project', 'a/b', '--environment', 'review#1'], /--environment must be a GitLab environment name .* may contain only/],
  [['simulate', CONFIG, '--project', 'a/b', '--agent', 'Prod'], /--agent must be a DNS-1123 label .*"Prod" must consist of lower case/],
  [['simulate', CONFIG, '--scenarios', SCENARIOS, '--project', 'a/b'], /--scenarios takes every scenario from its file; leave out --project/],
  // expr
  [['expr'], /give exactly one expression/],
  [['expr', '$A', '$B'], /give exactly one expression/],
  [['expr', '$A', '--var', 'A'], /--var needs KEY=VALUE, got "A"/],
  [['expr', '--batch', '$A'], /--batch takes its expressions and variables from stdin only/],
  // slug
  [['slug'], /say which slug: environment, ref or project/],
  [['slug', 'branch', 'main'], /say which slug/],
  [['slug', 'ref'], /give exactly one name/],
  // render (the environment options, shared with apply and destroy)
  [['render', TEMPLATE], /--agent <name> is required/],
  [['render', TEMPLATE, '--agent', 'prod'], /--project <full\/path> is required/],
  [['render', TEMPLATE, TEMPLATE, ...IDS], /name at most one template file/],
  [['render', TEMPLATE, ...IDS, '--tier', 'prod'], /--tier must be production, staging, testing, development or other, got "prod"/],
  [['render', TEMPLATE, ...IDS.slice(0, 2), '--project-id', '-1', ...IDS.slice(4)], /--project-id must be a non-negative integer, got "-1"/],
  [['render', TEMPLATE, ...IDS.slice(0, -2), '--agent-id', '7.5'], /--agent-id must be a non-negative integer, got "7\.5"/],
  [['render', TEMPLATE, ...IDS, '--job-id', '99999999999999999999'], /--job-id must be a non-negative integer/],
  [['render', TEMPLATE, ...IDS, '--agent-namespace', 'Agents'], /--agent-namespace must be a namespace name .*"Agents" must consist of lower case/],
  [['render', TEMPLATE, ...IDS, '--gitlab-url', 'gitlab.example.com'], /--gitlab-url must be an http\(s\) URL/],
  [['render', TEMPLATE, ...IDS, '--environment-url', 'ftp://x'], /--environment-url must be an http\(s\) URL/],
  [['render', TEMPLATE, ...IDS, '--format', 'yaml'], /--format must be text or json, got "yaml"/],
  [['render', TEMPLATE, '--project', 'acme/shop', '--project-id', '42', '--environment', '/x', '--agent', 'prod', '--agent-id', '7'], /--environment must be a GitLab environment name/],
  // apply
  [['apply', TEMPLATE, ...IDS, ...K, '--timeout', '0'], /--timeout needs a duration such as 90s, 5m or 1500ms, got "0"/],
  [['apply', TEMPLATE, ...IDS, ...K, '--timeout', '25h'], /--timeout must be at most 24h, got "25h"/],
  [['apply', TEMPLATE, ...IDS, ...K, '--timeout', '5 minutes'], /--timeout needs a duration/],
  [['apply', TEMPLATE, ...IDS, '--kubeconfig'], /--kubeconfig needs a value/],
  [['apply', TEMPLATE, ...IDS, ...K, '--context', '--yes'], /--context needs a value/],
  [['apply', TEMPLATE, ...IDS, ...K, '--yes=true'], /--yes takes no value \(got "--yes=true"\)/],
  [['apply', TEMPLATE, ...IDS, ...K, '--force'], /unknown option --force/],
  [['apply', TEMPLATE, ...IDS, ...K, '--agent-namespace', '../kube-system'], /--agent-namespace must be a namespace name .*"\.\.\/kube-system" may not contain '\/'/],
  [['apply', TEMPLATE, ...IDS, ...K, '--format', 'yaml'], /--format must be text or json/],
  // destroy
  [['destroy', '--inventory', '../kube-system', ...K], /--inventory must be an object name \(DNS-1123 subdomain.*"\.\.\/kube-system" may not contain '\/'/],
  [['destroy', '--inventory', 'Inventory', ...K], /--inventory must be an object name .*must consist of lower case/],
  [['destroy', '--inventory', '..', ...K], /--inventory must be an object name .*"\.\." may not be '\.' or '\.\.'/],
  [['destroy', '--inventory', 'inv', TEMPLATE, ...K], /--inventory names the environment already; leave out the template/],
  [['destroy', '--inventory', 'inv', '--agent-namespace', 'a/b', ...K], /--agent-namespace must be a namespace name .*may not contain '\/'/],
  [['destroy', '--inventory', 'a', '--inventory', 'b', ...K], /--inventory is given twice/],
  [['destroy', TEMPLATE, ...IDS, ...K, '--tier', 'live'], /--tier must be/],
  // workspace
  [['workspace'], /say what to do: apply, terminate or list/],
  [['workspace', 'explode'], /unknown sub-command "explode"; say what to do: apply, terminate or list/],
  [['workspace', 'apply', ...K], /--config <file> is required/],
  [['workspace', 'apply', '--config', WORKSPACE, '--name', 'ws', ...K], /unknown option --name/],
  [['workspace', 'apply', '--config', WORKSPACE, '--shared-namespace', 'Shared', ...K], /--shared-namespace must be a namespace name/],
  [['workspace', 'apply', '--config', WORKSPACE, 'extra', ...K], /unexpected argument extra/],
  [['workspace', 'terminate', ...K], /--name <workspace> is required/],
  [['workspace', 'terminate', '--name', '../kube-system', ...K], /--name must be a DNS-1123 label .*"\.\.\/kube-system" may not contain '\/'/],
  [['workspace', 'terminate', '--name', '..', ...K], /--name must be a DNS-1123 label .*may not be '\.' or '\.\.'/],
  [['workspace', 'terminate', '--name', 'Ws-1', ...K], /--name must be a DNS-1123 label/],
  [['workspace', 'terminate', '--name', 'a'.repeat(60), ...K], /--name must be a namespace name .*"gl-rd-ns-a{60}" must be no more than 63 characters \(is 69\)/],
  [[...TERMINATE, '--namespace', 'kube-system/x'], /--namespace must be a namespace name .*may not contain '\/'/],
  [[...TERMINATE, '--shared-namespace', '.'], /--shared-namespace must be a namespace name .*may not be '\.' or '\.\.'/],
  [[...TERMINATE, '--actual-state', 'Gone'], /--actual-state must be CreationRequested, Starting, Running, Stopping, Stopped, Terminating, Terminated, Failed, Error or Unknown, got "Gone"/],
  [[...TERMINATE, '--timeout', 'soon'], /--timeout needs a duration such as 90s/],
  [[...TERMINATE, '--agent-id', '7'], /unknown option --agent-id/],
  [['workspace', 'list', '--agent-id', '7,x=y', ...K], /--agent-id must be the agent's numeric id, got "7,x=y"/],
  [['workspace', 'list', '--yes', ...K], /unknown option --yes/],
  [['workspace', 'list', '--format', 'yaml', ...K], /--format must be text or json/],
  // flux
  [['flux'], /no sub-command: the only sub-command is wait/],
  [['flux', 'watch'], /unknown sub-command "watch": the only sub-command is wait/],
  [['flux', 'wait', ...K], /--name, --namespace and --revision are required/],
  [['flux', 'wait', '--name', 'app', '--namespace', 'flux-system', '--revision', 'sha256:abc', ...K], /--revision: "sha256:abc" is not a Flux revision: give a git commit .* or an OCI digest/],
  [['flux', 'wait', '--name', 'app', '--namespace', 'flux-system', '--revision', 'v1.2.3', ...K], /--revision: "v1\.2\.3" is not a Flux revision/],
  [[...FLUX, '--kind', 'HelmRelease'], /--kind must be Kustomization or OCIRepository, got "HelmRelease"/],
  [['flux', 'wait', '--name', 'App', '--namespace', 'flux-system', '--revision', 'abcdef1', ...K], /--name must be an object name \(DNS-1123 subdomain/],
  [['flux', 'wait', '--name', 'app', '--namespace', 'flux.system', '--revision', 'abcdef1', ...K], /--namespace must be a namespace name .*"flux\.system" must consist of lower case/],
  [[...FLUX, '--timeout', '-5s'], /--timeout needs a duration/],
  [[...FLUX, 'extra'], /unexpected argument extra/],
];

function run(argv: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), ...argv], { cwd: repoRoot, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

describe('usage errors exit 2 before anything happens', { concurrency: 8 }, () => {
  for (const [argv, expected] of CASES) {
    test(`agentcfg ${argv.map((a) => (a === KUBECONFIG ? '<kubeconfig>' : a)).join(' ')}`, async () => {
      const r = await run(argv);
      assert.equal(r.code, 2, `exit ${r.code}\n${r.stderr}`);
      assert.match(r.stderr, expected);
      assert.match(r.stderr, /^usage: /m, 'the usage follows the message');
      assert.equal(r.stdout, '', 'nothing on stdout');
      assert.doesNotMatch(r.stderr, /Cannot reach|: internal error/);
    });
  }
});

test('help is not an error: agentcfg help, --help and <command> --help exit 0 on stdout', async () => {
  for (const argv of [['help'], ['--help'], ['apply', '--help'], ['workspace', 'terminate', '-h']]) {
    const r = await run(argv);
    assert.equal(r.code, 0, argv.join(' '));
    assert.match(r.stdout, /^usage: agentcfg/);
  }
});
