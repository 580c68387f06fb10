/**
 * The questions the RBAC preview asks the cluster: a standard set of verbs × resources, plus the
 * kinds an environment template creates. Each question is one SubjectAccessReview
 * (https://kubernetes.io/docs/reference/access-authn-authz/authorization/#checking-api-access).
 */

/** One resource the preview asks about (group '' is the core API). */
export interface ReviewedResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  /** Cluster-scoped resources (namespaces) are asked about without a namespace. */
  readonly namespaced: boolean;
  /** How people call it, for the summary and the table (`pods/exec`, `deployments`). */
  readonly label: string;
}

/** The verbs asked for every resource. */
export const REVIEW_VERBS = ['get', 'list', 'create', 'update', 'patch', 'delete'] as const;
export type ReviewVerb = (typeof REVIEW_VERBS)[number];

const r = (group: string, resource: string, namespaced = true, subresource?: string): ReviewedResource => ({
  group,
  resource,
  ...(subresource ? { subresource } : {}),
  namespaced,
  label: subresource ? `${resource}/${subresource}` : resource,
});

/** What a deploy job typically touches, and what it should not (secrets, RBAC, namespaces). */
export const STANDARD_RESOURCES: readonly ReviewedResource[] = [
  r('apps', 'deployments'),
  r('', 'services'),
  r('', 'configmaps'),
  r('', 'secrets'),
  r('', 'pods'),
  r('', 'pods', true, 'exec'),
  r('networking.k8s.io', 'ingresses'),
  r('rbac.authorization.k8s.io', 'roles'),
  r('rbac.authorization.k8s.io', 'rolebindings'),
  r('', 'namespaces', false),
];

/** A kind of an environment template, as the cluster's discovery resolved it. */
export interface TemplateResource {
  readonly apiVersion: string;
  readonly kind: string;
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ''). */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Resources keyed as `group/resource[/subresource]`, so a template kind already in the standard set is asked once. */
export function resourceKey(resource: Pick<ReviewedResource, 'group' | 'resource' | 'subresource'>): string {
  return `${resource.group}/${resource.resource}${resource.subresource ? `/${resource.subresource}` : ''}`;
}

/** The cluster's answer to one question. */
export interface AccessCheck {
  readonly verb: ReviewVerb;
  readonly resource: ReviewedResource;
  /** Namespace asked about; null for cluster-scoped resources or when the job has no namespace (all namespaces). */
  readonly namespace: string | null;
  readonly allowed: boolean;
  /** The authorizer's reason (e.g. `RBAC: allowed by RoleBinding "deploy/payments"`), when it gave one. */
  readonly reason?: string;
  /** An error the authorizer met while evaluating (the answer may then be incomplete). */
  readonly evaluationError?: string;
}
