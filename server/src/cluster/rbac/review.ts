/**
 * Asks the connected cluster what a job's identity may do in its namespace: one SubjectAccessReview
 * per verb × resource, sent with bounded concurrency
 * (https://kubernetes.io/docs/reference/kubernetes-api/authorization-resources/subject-access-review-v1/).
 * The answer is the API server's own authorizer's, so it covers every RBAC Role, ClusterRole and
 * binding (and any webhook authorizer) — nothing is inferred locally.
 */
import { AuthorizationV1Api, type V1SubjectAccessReview } from '@kubernetes/client-node';
import { mapBounded, DEFAULT_CONCURRENCY } from '../kube/concurrency';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { apiGroupOf, resourceKey, REVIEW_VERBS, STANDARD_RESOURCES, type AccessCheck, type ReviewedResource, type TemplateResource } from './checks';
import type { ReviewSubject } from './subject';
import { summarise, type Capability } from './summary';

/** Everything the preview shows for one identity in one namespace. */
export interface AccessPreview {
  readonly context: string;
  readonly subject: ReviewSubject;
  readonly namespace: string | null;
  readonly checks: readonly AccessCheck[];
  readonly capabilities: readonly Capability[];
  /** Template kinds the cluster does not serve (no CRD): nothing could be asked about them. */
  readonly unknownKinds: readonly string[];
  /** One line: `in payments-production as ci_job: can deploy, cannot read secrets, cannot create namespaces`. */
  readonly summary: string;
}

export interface PreviewOptions {
  /** Kinds of the environment template, asked about besides the standard set. */
  readonly templateKinds?: readonly TemplateResource[];
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
}

/**
 * The preview for `subject` in `namespace`, or the failure that kept the cluster from answering:
 * `forbidden` when the session's own identity may not create SubjectAccessReviews, `unreachable`,
 * and so on. One failed review fails the whole preview — a partial table would read as denials.
 */
export async function previewAccess(session: ClusterSession, subject: ReviewSubject, namespace: string | null, options: PreviewOptions = {}): Promise<ClusterOutcome<AccessPreview>> {
  const resolved = await templateResources(session, options.templateKinds ?? []);
  if (isFailure(resolved)) return resolved;
  const { resources, unknownKinds } = resolved.value;
  const questions = resources.flatMap((resource) => REVIEW_VERBS.map((verb) => ({ verb, resource, namespace: resource.namespaced ? namespace : null })));
  const api = session.kubeConfig.makeApiClient(AuthorizationV1Api);
  let failure: ClusterFailure | undefined;
  const answers = await mapBounded(questions, options.concurrency ?? DEFAULT_CONCURRENCY, async (q): Promise<AccessCheck | undefined> => {
    if (failure) return undefined;
    if (options.signal?.aborted) {
      failure = { type: 'cancelled', message: 'cancelled' };
      return undefined;
    }
    try {
      const review = await api.createSubjectAccessReview({ body: reviewBody(subject, q.verb, q.resource, q.namespace) });
      const status = review.status;
      return {
        ...q,
        allowed: status?.allowed === true && status.denied !== true,
        ...(status?.reason ? { reason: status.reason } : {}),
        ...(status?.evaluationError ? { evaluationError: status.evaluationError } : {}),
      };
    } catch (err) {
      failure ??= reviewFailure(outcomeFromError(err), session.context);
      return undefined;
    }
  });
  if (failure) return failure;
  const checks = answers.filter((a): a is AccessCheck => a !== undefined);
  const capabilities = summarise(checks);
  return ok({ context: session.context, subject, namespace, checks, capabilities, unknownKinds, summary: summaryLine(subject, namespace, capabilities) });
}

/** The request body of one question. */
export function reviewBody(subject: ReviewSubject, verb: string, resource: ReviewedResource, namespace: string | null): V1SubjectAccessReview {
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: subject.user,
      groups: [...subject.groups],
      ...(subject.uid !== undefined ? { uid: subject.uid } : {}),
      ...(Object.keys(subject.extra).length ? { extra: Object.fromEntries(Object.entries(subject.extra).map(([k, v]) => [k, [...v]])) } : {}),
      resourceAttributes: {
        verb,
        group: resource.group,
        resource: resource.resource,
        ...(resource.subresource ? { subresource: resource.subresource } : {}),
        ...(namespace ? { namespace } : {}),
      },
    },
  };
}

/** A failure of the review itself, said as what it means for the preview. */
function reviewFailure(failure: ClusterFailure, context: string): ClusterFailure {
  if (failure.type === 'forbidden') {
    return {
      ...failure,
      message: `the identity of context "${context}" may not create subjectaccessreviews (authorization.k8s.io), so the cluster cannot say what the job may do: ${failure.message}`,
      consequence: 'so the cluster cannot say what the job may do',
    };
  }
  return failure;
}

/** The standard resources plus the template's kinds (resolved through discovery), each once. */
async function templateResources(session: ClusterSession, kinds: readonly TemplateResource[]): Promise<ClusterOutcome<{ resources: ReviewedResource[]; unknownKinds: string[] }>> {
  const resources = [...STANDARD_RESOURCES];
  const seen = new Set(resources.map(resourceKey));
  const unknownKinds: string[] = [];
  for (const { apiVersion, kind } of kinds) {
    let found;
    try {
      found = await session.objects.resourceFor(apiVersion, kind);
    } catch (err) {
      const failure = outcomeFromError(err);
      if (failure.type === 'unknownKind' || failure.type === 'notFound') {
        unknownKinds.push(`${apiVersion}/${kind}`);
        continue;
      }
      return failure;
    }
    if (!found) {
      unknownKinds.push(`${apiVersion}/${kind}`);
      continue;
    }
    const resource: ReviewedResource = { group: apiGroupOf(apiVersion), resource: found.name, namespaced: found.namespaced, label: found.name };
    if (seen.has(resourceKey(resource))) continue;
    seen.add(resourceKey(resource));
    resources.push(resource);
  }
  return ok({ resources, unknownKinds: [...new Set(unknownKinds)] });
}

function summaryLine(subject: ReviewSubject, namespace: string | null, capabilities: readonly Capability[]): string {
  const where = namespace ? `in ${namespace}` : 'in every namespace (the job has none)';
  const said = capabilities.map((c) => c.text).join(', ');
  const partial = subject.unknownGroups.length ? ` (not counting ${subject.unknownGroups.join(', ')}: their ids are unknown, so they may allow more)` : '';
  return `${where} as ${subject.mode}: ${said}${partial}`;
}
