import { openSession, type ClusterSession } from '../../cluster/kube/session';
import { EDITOR_ADVICE } from '../../cluster/kube/advice';
import type { ClusterCommandResult, ClusterTarget } from '../../protocol/cluster';
import { fromFailure } from './commandRouter';

/**
 * Opens a session on the requested kubeconfig/context for one command and closes it afterwards
 * (kept-alive connections released), whatever `work` returns or throws.
 */
export async function withSession<T>(target: ClusterTarget, work: (session: ClusterSession) => Promise<ClusterCommandResult<T>>): Promise<ClusterCommandResult<T>> {
  const opened = openSession({ kubeconfigPath: target.kubeconfigPath, context: target.context, advice: EDITOR_ADVICE });
  if (opened.type !== 'ok') return fromFailure(opened);
  try {
    return await work(opened.value);
  } finally {
    opened.value.close();
  }
}
