// 403s as one message naming who was refused, each verb × resource × namespace once, and what to do
// in the words of the face that shows it: a blocked plan's several, a single one, any path through
// describeOutcome; the editor's words name no CLI flag, the CLI's may.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeForbidden, parseRefusal } from '../../../server/src/cluster/kube/forbidden';
import { describeOutcome } from '../../../server/src/cluster/kube/outcome';
import { CLI_ADVICE, EDITOR_ADVICE } from '../../../server/src/cluster/kube/advice';
import { blockedMessage } from '../../../server/src/lsp/cluster/planViews';

const forbidden = (message: string) => ({ type: 'forbidden' as const, message });
const getNamespace = forbidden('namespaces "shop-review" is forbidden: User "dev" cannot get resource "namespaces" in API group "" in the namespace "shop-review"');
const createNamespace = forbidden('namespaces is forbidden: User "dev" cannot create resource "namespaces" in API group "" at the cluster scope');
const EDITOR_WHAT_TO_DO = 'or select a context with more rights (click the cluster context in the status bar).';

test('all 403s of a plan: one sentence with the identity, the verbs and resources, and what to do in the editor', () => {
  const blocked = [
    getNamespace,
    createNamespace,
    forbidden('rolebindings.rbac.authorization.k8s.io is forbidden: User "dev" cannot create resource "rolebindings" in API group "rbac.authorization.k8s.io" in the namespace "shop-review"'),
    createNamespace,
  ];
  assert.equal(
    blockedMessage('Apply review/x', blocked),
    `Apply review/x: nothing was changed — the cluster refused "dev" (403 Forbidden): may not get namespaces in namespace shop-review; create namespaces at cluster scope; create rolebindings.rbac.authorization.k8s.io in namespace shop-review. Ask a cluster administrator for these permissions, ${EDITOR_WHAT_TO_DO}`,
  );
  assert.doesNotMatch(blockedMessage('Apply review/x', blocked), /--/);
});

test('a single 403 of a plan reads the same way as several (it used to be "Forbidden on core/v1/…")', () => {
  assert.equal(
    blockedMessage('Apply review/x', [createNamespace]),
    `Apply review/x: nothing was changed — the cluster refused "dev" (403 Forbidden): may not create namespaces at cluster scope. Ask a cluster administrator for this permission, ${EDITOR_WHAT_TO_DO}`,
  );
});

test('a single 403 anywhere else (a failure half-way, a listing): the same sentence, without claiming nothing changed; CLI flags only in the CLI', () => {
  const ref = { group: '', version: 'v1', kind: 'Namespace', namespace: '', name: 'shop-review' };
  const editor = describeOutcome({ ...getNamespace, ref }, EDITOR_ADVICE);
  assert.equal(editor, `The cluster refused "dev" (403 Forbidden): may not get namespaces in namespace shop-review. Ask a cluster administrator for this permission, ${EDITOR_WHAT_TO_DO}`);
  assert.doesNotMatch(editor, /Forbidden on|core\/v1|nothing was changed|--/);
  assert.match(describeOutcome(getNamespace, CLI_ADVICE), /, or use a context with more rights \(--context, or --kubeconfig for another kubeconfig\)\.$/);
  // No face said: neither CLI flags nor editor gestures.
  assert.match(describeOutcome(getNamespace), /, or use a kubeconfig context with more rights\.$/);
});

test('a 403 the authorizer did not word (a webhook, a proxy) keeps its text and the object, still one sentence', () => {
  const ref = { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
  assert.equal(
    describeForbidden([{ ref, message: 'denied by policy' }], { advice: EDITOR_ADVICE }),
    `The cluster refused this context (403 Forbidden): apps/v1/Deployment 'web' in namespace 'shop': denied by policy. Ask a cluster administrator for this permission, ${EDITOR_WHAT_TO_DO}`,
  );
  // Mixed with worded ones: both kept, the identity named once.
  assert.match(blockedMessage('x', [forbidden('denied by policy'), createNamespace]), /^x: nothing was changed — the cluster refused "dev" \(403 Forbidden\): may not create namespaces at cluster scope; denied by policy\. Ask .* these permissions/);
});

test('mixed failure classes keep the list, each line in the editor\'s words', () => {
  const message = blockedMessage('x', [createNamespace, { type: 'notFound', message: 'gone' }]);
  assert.match(message, /^x: nothing will be changed, 2 problems:\n- The cluster refused "dev" \(403 Forbidden\): may not create namespaces at cluster scope\. .*status bar\)\.\n- the cluster was not found: gone$/);
});

test('the authorizer\'s message parsed: user, verb, resource, group, namespace', () => {
  assert.deepEqual(parseRefusal(createNamespace.message), { user: 'dev', verb: 'create', resource: 'namespaces', group: '' });
  assert.deepEqual(parseRefusal('User "system:serviceaccount:a:b" cannot list resource "kustomizations" in API group "kustomize.toolkit.fluxcd.io" in the namespace "flux"'), {
    user: 'system:serviceaccount:a:b',
    verb: 'list',
    resource: 'kustomizations',
    group: 'kustomize.toolkit.fluxcd.io',
    namespace: 'flux',
  });
  assert.equal(parseRefusal('forbidden'), undefined);
});
