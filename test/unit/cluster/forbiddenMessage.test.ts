// Several 403s of one plan as one message naming who was refused and each verb × resource once (issue 14).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockedMessage, forbiddenMessage } from '../../../server/src/lsp/cluster/planViews';

const forbidden = (message: string) => ({ type: 'forbidden' as const, message });

test('all 403s: one sentence with the identity, the verbs and resources, and what to do in the editor', () => {
  const blocked = [
    forbidden('namespaces "shop-review" is forbidden: User "dev" cannot get resource "namespaces" in API group "" in the namespace "shop-review"'),
    forbidden('namespaces is forbidden: User "dev" cannot create resource "namespaces" in API group "" at the cluster scope'),
    forbidden('rolebindings.rbac.authorization.k8s.io is forbidden: User "dev" cannot create resource "rolebindings" in API group "rbac.authorization.k8s.io" in the namespace "shop-review"'),
    forbidden('namespaces is forbidden: User "dev" cannot create resource "namespaces" in API group "" at the cluster scope'),
  ];
  assert.equal(
    blockedMessage('Apply review/x', blocked),
    'Apply review/x: nothing was changed — the cluster refused "dev" (403 Forbidden): may not get namespaces in namespace shop-review; create namespaces at cluster scope; create rolebindings.rbac.authorization.k8s.io in namespace shop-review. Ask a cluster administrator for these permissions, or select a context with more rights.',
  );
  assert.doesNotMatch(blockedMessage('Apply review/x', blocked), /--kubeconfig|--context/);
});

test('mixed failures or unexplained 403s keep the list', () => {
  assert.equal(forbiddenMessage('x', [forbidden('forbidden'), forbidden('forbidden')]), undefined);
  assert.equal(forbiddenMessage('x', [forbidden('User "a" cannot get resource "pods" in API group "" in the namespace "n"'), { type: 'notFound', message: 'gone' }]), undefined);
});
