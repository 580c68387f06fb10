// Guards, pure (issue 5 "Guards"): protected namespaces and inventory ownership (spec §5.3 annotation).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayApply, mayDelete, protectedNamespaceReason, SYSTEM_NAMESPACES } from '../../../server/src/cluster/guards';

const ns = (name: string) => ({ group: '', kind: 'Namespace', namespace: '', name });
const owned = (id?: string) => ({ metadata: { name: 'x', ...(id === undefined ? {} : { annotations: { 'config.k8s.io/owning-inventory': id } }) } });

test('the four system namespaces and the agent namespace are protected; others are not', () => {
  assert.deepEqual(SYSTEM_NAMESPACES, ['kube-system', 'kube-public', 'kube-node-lease', 'default']);
  for (const name of [...SYSTEM_NAMESPACES, 'gitlab-agent']) assert.equal(typeof protectedNamespaceReason(ns(name), 'gitlab-agent'), 'string', name);
  assert.equal(protectedNamespaceReason(ns('review-42-7'), 'gitlab-agent'), undefined);
  assert.equal(protectedNamespaceReason(ns('gitlab-agent'), 'agents'), undefined, 'only the configured agent namespace');
});

test('mayDelete: protected namespaces never, even when owned', () => {
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'gitlab-agent']) {
    assert.equal(mayDelete(ns(name), owned('inv'), 'inv', 'gitlab-agent').allowed, false, name);
  }
  // A namespaced object called "default" is not a namespace.
  assert.equal(mayDelete({ group: '', kind: 'ServiceAccount', namespace: 'x', name: 'default' }, owned('inv'), 'inv', 'gitlab-agent').allowed, true);
});

test('mayDelete: only objects whose live annotation names our inventory', () => {
  assert.deepEqual(mayDelete(ns('review'), owned('inv'), 'inv', 'gitlab-agent'), { allowed: true });
  assert.deepEqual(mayDelete(ns('review'), undefined, 'inv', 'gitlab-agent'), { allowed: true }, 'gone already: nothing to refuse');
  assert.deepEqual(mayDelete(ns('review'), owned('other'), 'inv', 'gitlab-agent'), { allowed: false, reason: "it is owned by another inventory ('other'), not 'inv'" });
  assert.deepEqual(mayDelete(ns('review'), owned(), 'inv', 'gitlab-agent'), { allowed: false, reason: "it is not owned by inventory 'inv' (no config.k8s.io/owning-inventory annotation)" });
  assert.equal(mayDelete(ns('review'), owned(''), 'inv', 'gitlab-agent').allowed, false, 'an empty annotation owns nothing');
});

test('mayApply: new objects and our own; others refused; unowned only with adoption (cli-utils policies)', () => {
  assert.equal(mayApply(undefined, 'inv', false).allowed, true);
  assert.equal(mayApply(owned('inv'), 'inv', false).allowed, true);
  assert.equal(mayApply(owned('other'), 'inv', true).allowed, false, 'adoption never takes from another inventory');
  assert.equal(mayApply(owned(), 'inv', false).allowed, false);
  assert.equal(mayApply(owned(), 'inv', true).allowed, true);
});
