import { kubeconfigFiles, listContexts } from '../../cluster/kube/session';
import { EDITOR_ADVICE } from '../../cluster/kube/advice';
import { record, text } from './args';
import { fromFailure, type ClusterCommandRouter } from './commandRouter';
import { CLUSTER_COMMANDS, type ContextList } from '../../protocol/cluster';

/** `listContexts`: the kubeconfig's contexts for the context picker (read only; no request to a cluster). */
export function registerContextsCommand(router: ClusterCommandRouter): void {
  router.register(CLUSTER_COMMANDS.listContexts, async (argument) => {
    const kubeconfigPath = text(record(argument ?? {}, 'the argument'), 'kubeconfigPath', { optional: true });
    const listed = listContexts(kubeconfigPath, EDITOR_ADVICE);
    if (listed.type !== 'ok') return fromFailure(listed);
    const value: ContextList = {
      source: kubeconfigFiles(kubeconfigPath).join(', '),
      currentContext: listed.value.find((c) => c.current)?.name,
      contexts: listed.value.map(({ current: _current, ...info }) => info),
    };
    return { ok: true, value };
  });
}
