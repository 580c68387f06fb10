// Guards, pure: valid inventory entries, the object the API returned, protected namespaces,
// inventory ownership and the cli-utils keep/detach annotations (docs/gitlab-behaviour.md#inventories).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryProblem, identityMismatch, keepReason, mayApply, mayDelete, protectedNamespaceReason, SYSTEM_NAMESPACES } from '../../../server/src/cluster/guards';

const ns = (name: string) => ({ group: '', kind: 'Namespace', namespace: '', name });
const sa = (namespace: string, name: string) => ({ group: '', kind: 'ServiceAccount', namespace, name });
const owned = (id?: string, extra: Record<string, string> = {}) => ({ metadata: { name: 'x', annotations: { ...(id === undefined ? {} : { 'config.k8s.io/owning-inventory': id }), ...extra } } });
const agent = { agentNamespace: 'gitlab-agent' };

test('the four system namespaces, the agent namespace and namespaces holding inventories are protected; others are not', () => {
  assert.deepEqual(SYSTEM_NAMESPACES, ['kube-system', 'kube-public', 'kube-node-lease', 'default']);
  for (const name of [...SYSTEM_NAMESPACES, 'gitlab-agent']) assert.equal(typeof protectedNamespaceReason(name, agent), 'string', name);
  assert.equal(protectedNamespaceReason('review-42-7', agent), undefined);
  assert.equal(protectedNamespaceReason('gitlab-agent', { agentNamespace: 'agents' }), undefined, 'only the configured agent namespace');
  assert.equal(protectedNamespaceReason('other-agent', { holdingInventories: new Set(['other-agent']) }), "namespace 'other-agent' holds inventories (of this or another agent)");
});

test('entryProblem: names that could change a request path, or that Kubernetes refuses, are refused', () => {
  for (const [entry, expected] of [
    [sa('gitlab-agent', '..'), "its name '..' may not be '.' or '..'"],
    [sa('gitlab-agent', '.'), "its name '.' may not be '.' or '..'"],
    [sa('gitlab-agent', 'a/b'), "its name 'a/b' may not contain '/'"],
    [sa('gitlab-agent', 'a%2F'), "its name 'a%2F' may not contain '%'"],
    [sa('gitlab-agent', ''), "its name '' must not be empty"],
    [sa('../x', 'deployer'), "its namespace '../x' may not contain '/'"],
    [sa('Big', 'deployer'), "its namespace 'Big' must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"],
    [ns('..'), "its name '..' may not be '.' or '..'"],
    [{ group: 'a/b', kind: 'X', namespace: 'n', name: 'x' }, "its API group 'a/b' may not contain '/'"],
    [{ group: '', kind: 'Service/x', namespace: 'n', name: 'x' }, "its kind 'Service/x' is not a Kubernetes kind"],
  ] as const) {
    assert.equal(entryProblem(entry), expected, JSON.stringify(entry));
  }
  assert.equal(entryProblem(sa('review-42-7', 'deployer')), undefined);
  assert.equal(entryProblem({ group: 'rbac.authorization.k8s.io', kind: 'RoleBinding', namespace: 'n', name: 'system:deployer' }), undefined, 'RBAC names may hold a colon');
  assert.equal(entryProblem(ns('review-42-7')), undefined);
});

test('identityMismatch: the object the API returned must be the one the entry names', () => {
  const entry = sa('gitlab-agent', 'deployer');
  assert.equal(identityMismatch(entry, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: 'gitlab-agent' } }), undefined);
  assert.equal(
    identityMismatch(sa('gitlab-agent', 'x'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gitlab-agent' } }),
    'the cluster answered with another object (_gitlab-agent__Namespace) than the entry names (gitlab-agent_x__ServiceAccount)',
  );
  assert.match(identityMismatch(entry, { apiVersion: 'apps/v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: 'gitlab-agent' } }) ?? '', /another object/);
});

test('mayDelete: protected namespaces never, even when owned; only objects our inventory owns; never what is marked keep or detach', () => {
  for (const name of [...SYSTEM_NAMESPACES, 'gitlab-agent']) assert.equal(mayDelete(ns(name), owned('inv'), 'inv', agent).allowed, false, name);
  assert.equal(mayDelete(ns('held'), owned('inv'), 'inv', { holdingInventories: new Set(['held']) }).allowed, false);
  assert.equal(mayDelete(sa('x', 'default'), owned('inv'), 'inv', agent).allowed, true, 'only Namespace objects are protected by name');
  assert.deepEqual(mayDelete(ns('review'), owned('inv'), 'inv', agent), { allowed: true });
  assert.deepEqual(mayDelete(ns('review'), undefined, 'inv', agent), { allowed: true }, 'gone already: nothing to refuse');
  assert.deepEqual(mayDelete(ns('review'), owned('other'), 'inv', agent), { allowed: false, reason: "it is owned by another inventory ('other'), not 'inv'" });
  assert.deepEqual(mayDelete(ns('review'), owned(), 'inv', agent), { allowed: false, reason: "it is not owned by inventory 'inv' (no config.k8s.io/owning-inventory annotation)" });
  assert.equal(mayDelete(ns('review'), owned(''), 'inv', agent).allowed, false, 'an empty annotation owns nothing');
  assert.deepEqual(mayDelete(sa('x', 'y'), owned('inv', { 'cli-utils.sigs.k8s.io/on-remove': 'keep' }), 'inv', agent), { allowed: false, reason: 'it is annotated cli-utils.sigs.k8s.io/on-remove: keep' });
  assert.deepEqual(mayDelete(sa('x', 'y'), owned('inv', { 'client.lifecycle.config.k8s.io/deletion': 'detach' }), 'inv', agent), { allowed: false, reason: 'it is annotated client.lifecycle.config.k8s.io/deletion: detach' });
  assert.equal(keepReason(owned('inv', { 'cli-utils.sigs.k8s.io/on-remove': 'delete' })), undefined, 'only the keep value keeps');
});

test('mayApply: new objects and our own (annotated and listed); others refused; unowned or unlisted only with adoption; protected namespaces never, even when missing', () => {
  const review = ns('review');
  const owner = (listed: boolean, adopt: boolean) => ({ inventory: 'inv', listed, adopt });
  assert.equal(mayApply(review, undefined, owner(false, false), agent).allowed, true);
  assert.equal(mayApply(review, owned('inv'), owner(true, false), agent).allowed, true);
  assert.equal(mayApply(review, owned('other'), owner(true, true), agent).allowed, false, 'adoption never takes from another inventory');
  assert.deepEqual(mayApply(review, owned(), owner(false, false), agent), { allowed: false, reason: 'it already exists and no inventory owns it', adoptable: true });
  assert.equal(mayApply(review, owned(), owner(false, true), agent).allowed, true);
  assert.deepEqual(mayApply(review, owned('inv'), owner(false, false), agent), {
    allowed: false,
    reason: "it already exists and claims to belong to inventory 'inv' (its config.k8s.io/owning-inventory annotation), but that inventory does not list it: it was not made through it",
    adoptable: true,
  });
  assert.deepEqual(mayApply(ns('gitlab-agent'), undefined, owner(false, false), agent), {
    allowed: false,
    reason: "namespace 'gitlab-agent' is where the agent runs (and keeps its inventories): an environment never creates, adopts or owns it",
  });
  assert.equal(mayApply(ns('kube-system'), owned(), owner(false, true), agent).allowed, false, 'adoption of a system namespace');
  assert.equal(mayApply(ns('other-agent'), owned(), owner(false, true), { holdingInventories: new Set(['other-agent']) }).allowed, false, "adoption of another agent's namespace");
});
