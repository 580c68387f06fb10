/**
 * The RBAC preview for the editor (part of the lazily loaded cluster bundle): opens a session on the
 * user's cluster, asks it with SubjectAccessReview what the identity may do, closes the session.
 */
import type { JobIdentity } from '../../engine/api';
import { describeOutcome } from '../../cluster/kube/outcome';
import { openSession } from '../../cluster/kube/session';
import { EDITOR_ADVICE } from '../../cluster/kube/advice';
import { previewAccess, reviewSubject, type AgentServiceAccount, type Capability } from '../../cluster/rbac';
import type { ClusterTarget } from '../../protocol/cluster';

/** What the hover shows for one identity × namespace: the cluster's summary, or why it could not answer. */
export type AccessReviewAnswer = { readonly ok: true; readonly context: string; readonly summary: string; readonly capabilities: readonly Capability[] } | { readonly ok: false; readonly message: string };

export async function reviewJobAccess(target: ClusterTarget, identity: JobIdentity, namespace: string | null, agent?: AgentServiceAccount, signal?: AbortSignal): Promise<AccessReviewAnswer> {
  const subject = reviewSubject(identity, {}, agent);
  if (!subject) return { ok: false, message: "the job acts as the agent's own ServiceAccount, which depends on how the agent was installed; so it is not asked rather than guessed" };
  const opened = openSession({ advice: EDITOR_ADVICE, ...(target.kubeconfigPath ? { kubeconfigPath: target.kubeconfigPath } : {}), ...(target.context ? { context: target.context } : {}), ...(signal ? { signal } : {}) });
  if (opened.type !== 'ok') return { ok: false, message: describeOutcome(opened, EDITOR_ADVICE) };
  try {
    const preview = await previewAccess(opened.value, subject, namespace, signal ? { signal } : {});
    if (preview.type !== 'ok') return { ok: false, message: describeOutcome(preview, EDITOR_ADVICE) };
    return { ok: true, context: preview.value.context, summary: preview.value.summary, capabilities: preview.value.capabilities };
  } finally {
    opened.value.close();
  }
}
