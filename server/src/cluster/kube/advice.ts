/**
 * What a failure to find a kubeconfig or a context, or a 403, tells the user to do, in the words of
 * each face. Kept apart from the session (which loads @kubernetes/client-node): the language server
 * words failures in its always-loaded part, while the cluster client stays in the bundle loaded on
 * the first cluster command.
 */
import type { ForbiddenAdvice } from './forbidden';

export interface KubeconfigAdvice extends ForbiddenAdvice {
  readonly noKubeconfig: string;
  readonly chooseContext: string;
}

export const CLI_ADVICE: KubeconfigAdvice = {
  noKubeconfig: 'Pass --kubeconfig or set KUBECONFIG.',
  chooseContext: 'choose a context (--context)',
  moreRights: 'use a context with more rights (--context, or --kubeconfig for another kubeconfig)',
};

export const EDITOR_ADVICE: KubeconfigAdvice = {
  noKubeconfig: 'Set gitlabAgentConfig.cluster.kubeconfig to your kubeconfig file (user, workspace or remote settings).',
  chooseContext: 'select a context (click the cluster context in the status bar)',
  moreRights: 'select a context with more rights (click the cluster context in the status bar)',
};
