/**
 * A process that takes an environment's or workspace's lock and holds it until it is killed: the
 * stand-in for an `agentcfg` run that is killed mid-operation (its lease is never released) or one
 * that is still busy. Prints `held` once it holds the lock.
 *
 *   node --import tsx test/support/lockHolder.ts <kubeconfig> <context> <namespace> <inventory>
 */
import { openSession } from '../../server/src/cluster/kube/session';
import { takeLock } from '../../server/src/cluster/operationLock';

async function main(): Promise<void> {
  const [kubeconfigPath, context, namespace, inventory] = process.argv.slice(2);
  const session = openSession({ kubeconfigPath, context });
  if (session.type !== 'ok') throw new Error(session.message);
  const lock = await takeLock(session.value, { namespace, inventory, what: `inventory ${namespace}/${inventory}` }, 'test-holder', {});
  if (lock.type !== 'ok') throw new Error(lock.message);
  process.stdout.write('held\n');
  // Renewing keeps the event loop busy only through an unref'd timer: hold the process open.
  setInterval(() => undefined, 60_000);
}

// The repository's sources are CommonJS under tsx: no top-level await.
void main();
