// Pure parts of the session: which kubeconfig files are read, the request counter's classes, the
// destroy refusal of `delete_resources` values (docs/gitlab-behaviour.md#environment-template-file), the environment identity read back.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { deletionRefusal } from '../../../server/src/cluster/destroy/plan';
import { environmentIdentity } from '../../../server/src/cluster/environments';
import { RequestCounter } from '../../../server/src/cluster/kube/requests';
import { kubeconfigFiles, listContexts, openSession } from '../../../server/src/cluster/kube/session';
import { describeOutcome } from '../../../server/src/cluster/kube/outcome';

test('kubeconfig files: the option, else $KUBECONFIG (a list), else ~/.kube/config', () => {
  const saved = process.env.KUBECONFIG;
  try {
    process.env.KUBECONFIG = ['/a', '', '/b'].join(path.delimiter);
    assert.deepEqual(kubeconfigFiles(), ['/a', '/b']);
    assert.deepEqual(kubeconfigFiles('/explicit'), ['/explicit']);
    delete process.env.KUBECONFIG;
    assert.deepEqual(kubeconfigFiles(), [path.join(os.homedir(), '.kube', 'config')]);
  } finally {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  }
});

test('contexts of a kubeconfig; opening one sends no request', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-kc-'));
  const file = path.join(dir, 'config');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: b',
      'clusters: [{name: c1, cluster: {server: "https://10.0.0.1:6443"}}]',
      'users: [{name: u1, user: {token: t}}]',
      'contexts: [{name: a, context: {cluster: c1, user: u1}}, {name: b, context: {cluster: c1, user: u1, namespace: ns}}]',
    ].join('\n'),
  );
  const contexts = listContexts(file);
  assert.equal(contexts.type, 'ok');
  assert.ok(contexts.type === 'ok');
  assert.deepEqual(contexts.value, [
    { name: 'a', cluster: 'c1', user: 'u1', server: 'https://10.0.0.1:6443', current: false },
    { name: 'b', cluster: 'c1', user: 'u1', namespace: 'ns', server: 'https://10.0.0.1:6443', current: true },
  ]);
  const session = openSession({ kubeconfigPath: file, context: 'a' });
  assert.ok(session.type === 'ok');
  assert.equal(session.value.context, 'a');
  assert.equal(session.value.fieldManager, 'gitlab-agent-config');
  assert.deepEqual(session.value.requests.snapshot(), { total: 0, reads: 0, watches: 0, writes: 0, dryRuns: 0 });
  session.value.close();
  assert.match(describeOutcome(openSession({ kubeconfigPath: file, context: 'zzz' })), /no context "zzz" \(contexts: a, b\)/);
});

test('the request counter tells reads, watches, writes and dry-runs apart', () => {
  const c = new RequestCounter();
  const start = c.snapshot();
  c.record('GET', 'https://h/api/v1/namespaces/x');
  c.record('GET', 'https://h/api/v1/namespaces?watch=true&fieldSelector=x');
  c.record('PATCH', 'https://h/api/v1/namespaces/x?fieldManager=m&dryRun=All');
  c.record('PATCH', 'https://h/api/v1/namespaces/x?fieldManager=m');
  c.record('DELETE', 'https://h/api/v1/namespaces/x');
  assert.deepEqual(c.since(start), { total: 5, reads: 1, watches: 1, writes: 2, dryRuns: 1 });
});

// docs/gitlab-behaviour.md#environment-template-file
test('delete_resources never refuses, on_stop (or absent) allows, unknown values refuse', () => {
  assert.equal(deletionRefusal(undefined), undefined);
  assert.equal(deletionRefusal('on_stop'), undefined);
  assert.match(deletionRefusal('never') ?? '', /GitLab never deletes the resources of this environment/);
  assert.match(deletionRefusal('on_delete') ?? '', /not a value GitLab knows/);
});

// docs/gitlab-behaviour.md#managed-object-labels-and-annotation
test('the environment identity is read back from the annotation; other annotations are ignored', () => {
  const value = JSON.stringify({ environment_id: 3, environment_name: 'review/x', environment_slug: 'review-x-abc123', environment_tier: 'development', agent_id: 7, agent_name: 'prod', project_id: 42, project_path: 'acme/shop', template_name: 'default' });
  assert.deepEqual(environmentIdentity({ 'other/annotation': 'x', 'agent.gitlab.com/env-review-x-abc123-42-7': value }), {
    environmentName: 'review/x',
    environmentSlug: 'review-x-abc123',
    environmentTier: 'development',
    projectId: 42,
    projectPath: 'acme/shop',
    agentId: 7,
    agentName: 'prod',
    templateName: 'default',
  });
  assert.equal(environmentIdentity({ 'agent.gitlab.com/env-x': 'not json' }), undefined);
  assert.equal(environmentIdentity({}), undefined);
});
