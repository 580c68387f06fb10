/** The RBAC preview: what a job's identity may really do in its namespace, asked of the connected cluster. */
export { REVIEW_VERBS, STANDARD_RESOURCES, type ReviewedResource, type ReviewVerb, type TemplateResource } from './checks';
export { previewAccess, reviewBody, type AccessPreview, type PreviewOptions } from './review';
export type { AccessCheck } from './checks';
export { reviewSubject, type AgentServiceAccount, type KnownIds, type ReviewSubject } from './subject';
export { summarise, type Capability } from './summary';
export { templateKinds } from './templateKinds';
