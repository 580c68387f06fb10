// agentcfg workspace / flux: argument and payload problems are reported before anything reaches a
// cluster (the kubeconfig here points at a port where nothing listens).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { agentcfg } from '../../support/cli';
import { writeUnreachableKubeconfig } from '../../support/unreachableKubeconfig';
import { workspaceConfigToApply } from '../../support/workspaceConfig';

const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-ws-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const kubeconfig = writeUnreachableKubeconfig(dir);
const file = (name: string, text: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('workspace apply: a payload error names its line, exit 1, before any request', () => {
  const bad = file('bad.yaml', '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nmetadata: {name: b}\n');
  const r = agentcfg('workspace', 'apply', '--config', bad, '--kubeconfig', kubeconfig, '--yes');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /config_to_apply:6: the object has no kind/);
});

// docs/gitlab-behaviour.md#inventories
test('workspace apply: "no inventory found" in JSON', () => {
  const noInventory = file('noinv.yaml', workspaceConfigToApply({ name: 'ws', agentId: 1, workspaceId: 2 }).replaceAll('cli-utils.sigs.k8s.io/inventory-id', 'x'));
  const r = agentcfg('workspace', 'apply', '--config', noInventory, '--kubeconfig', kubeconfig, '--yes', '--format', 'json');
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout).error.message, 'no inventory found');
});

test('workspace: usage errors exit 2', () => {
  assert.equal(agentcfg('workspace').code, 2);
  assert.match(agentcfg('workspace', 'explode').stderr, /apply, terminate or list/);
  assert.match(agentcfg('workspace', 'apply').stderr, /--config <file> is required/);
  assert.match(agentcfg('workspace', 'terminate', '--yes').stderr, /--name <workspace> is required/);
  const r = agentcfg('workspace', 'terminate', '--name', 'ws', '--timeout', 'soon', '--kubeconfig', kubeconfig);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--timeout needs a duration such as 90s/);
  assert.match(agentcfg('workspace', 'list', '--format', 'yaml').stderr, /--format must be text or json/);
  assert.match(agentcfg('workspace', 'list', '--agent-id', '7,x=y').stderr, /--agent-id must be the agent's numeric id/);
});

test('workspace: an unknown context is a clear failure naming the contexts', () => {
  const r = agentcfg('workspace', 'list', '--kubeconfig', kubeconfig, '--context', 'prod');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /The kubeconfig has no context "prod" \(contexts: nowhere\)/);
});

test('workspace list: an unreachable cluster is named with what to check', () => {
  const r = agentcfg('workspace', 'list', '--kubeconfig', kubeconfig);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^Cannot reach the cluster: .*Check the context's server address/);
});

test('flux wait: usage errors exit 2, a revision that is none included (before any request)', () => {
  assert.match(agentcfg('flux').stderr, /the only sub-command is wait/);
  assert.match(agentcfg('flux', 'wait', '--name', 'x').stderr, /--name, --namespace and --revision are required/);
  assert.match(agentcfg('flux', 'wait', '--kind', 'HelmRelease', '--name', 'x', '--namespace', 'y', '--revision', 'z').stderr, /--kind must be Kustomization or OCIRepository/);
  const r = agentcfg('flux', 'wait', '--name', 'x', '--namespace', 'y', '--revision', 'v1.2.3', '--kubeconfig', kubeconfig);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /"v1.2.3" is not a Flux revision/);
});
