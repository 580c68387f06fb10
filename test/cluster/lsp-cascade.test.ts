// The editor's face of the pruner's cascade rule, over LSP (stdio, the built server, the real
// control plane): a destroy plan lists what else its namespace holds (`alsoDeleted`), executing it
// without `deleteOthers` is refused with nothing deleted, and with the user's confirmation it goes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { CLUSTER_COMMANDS, type DestroyPlanView, type ExecutionReport } from '../../server/src/protocol/cluster';
import { applyOk, environmentScope, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { statusCode } from './harness';
import { execute, trustedServerForFile } from './lsp-support';

const server = trustedServerForFile();

test('Delete Environment over LSP: the plan names the kubectl-made objects of the namespace; only deleteOthers deletes them', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'lsp-cascade');
  const env = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('lsp-cascade'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const core = server.kc.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'kubectl-made' } } });
  const cluster = { kubeconfigPath: server.env.kubeconfig, context: server.env.adminContext };

  const plan = async (): Promise<DestroyPlanView> => {
    const planned = await execute<DestroyPlanView>(server.client, CLUSTER_COMMANDS.planDestroy, { cluster, inventory: { namespace: scope.agentNamespace, name: env.inventory.name } });
    assert.ok(planned.result.ok, JSON.stringify(planned.result));
    return planned.result.value;
  };
  const first = await plan();
  assert.deepEqual(first.alsoDeleted, [`ConfigMap ${ns}/kubectl-made`]);
  const refused = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster, planId: first.planId });
  assert.equal(refused.result.ok, false);
  assert.match(refused.result.ok ? '' : refused.result.message, /^Nothing was deleted: deleting core\/v1\/Namespace '[^']+' would also delete 1 object this inventory does not track:\n {2}- core\/v1\/ConfigMap 'kubectl-made'/);
  assert.equal((await core.readNamespace({ name: ns })).status?.phase, 'Active');

  const second = await plan();
  const done = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster, planId: second.planId, deleteOthers: true });
  assert.ok(done.result.ok, JSON.stringify(done.result));
  await assert.rejects(core.readNamespace({ name: ns }), (err) => statusCode(err) === 404);
});
