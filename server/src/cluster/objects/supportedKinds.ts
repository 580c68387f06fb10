/**
 * The kinds an environment template may contain (docs/gitlab-behaviour.md#template-object-kinds) and where each goes in the apply order:
 * Namespace → ServiceAccount/RBAC → the rest → Flux objects (deletion runs the other way round).
 * Any version of these group/kinds is accepted (GitLab documents no versions).
 */

/** Apply order tiers. */
export const TIERS = ['namespaces', 'identities', 'other', 'flux'] as const;
export type Tier = (typeof TIERS)[number];

/** One supported kind. */
export interface SupportedKind {
  readonly group: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly tier: Tier;
}

const FLUX_SOURCE = 'source.toolkit.fluxcd.io';

/** docs/gitlab-behaviour.md#template-object-kinds, in the documentation's order. */
export const SUPPORTED_KINDS: readonly SupportedKind[] = [
  { group: '', kind: 'Namespace', namespaced: false, tier: 'namespaces' },
  { group: '', kind: 'ServiceAccount', namespaced: true, tier: 'identities' },
  { group: 'rbac.authorization.k8s.io', kind: 'RoleBinding', namespaced: true, tier: 'identities' },
  { group: FLUX_SOURCE, kind: 'GitRepository', namespaced: true, tier: 'flux' },
  { group: FLUX_SOURCE, kind: 'HelmRepository', namespaced: true, tier: 'flux' },
  { group: FLUX_SOURCE, kind: 'HelmChart', namespaced: true, tier: 'flux' },
  { group: FLUX_SOURCE, kind: 'Bucket', namespaced: true, tier: 'flux' },
  { group: FLUX_SOURCE, kind: 'OCIRepository', namespaced: true, tier: 'flux' },
  { group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', namespaced: true, tier: 'flux' },
  { group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease', namespaced: true, tier: 'flux' },
  { group: 'notification.toolkit.fluxcd.io', kind: 'Alert', namespaced: true, tier: 'flux' },
  { group: 'notification.toolkit.fluxcd.io', kind: 'Provider', namespaced: true, tier: 'flux' },
  { group: 'notification.toolkit.fluxcd.io', kind: 'Receiver', namespaced: true, tier: 'flux' },
];

/** The supported kind for a group and kind, if any. */
export function supportedKind(group: string, kind: string): SupportedKind | undefined {
  return SUPPORTED_KINDS.find((k) => k.group === group && k.kind === kind);
}

/** Tier of any group/kind: supported kinds by the table, anything else in `other`. */
export function tierOf(group: string, kind: string): Tier {
  return supportedKind(group, kind)?.tier ?? (group.endsWith('.toolkit.fluxcd.io') ? 'flux' : 'other');
}

/** `Namespace, ServiceAccount, RoleBinding (rbac.authorization.k8s.io), …` for messages. */
export function supportedKindsText(): string {
  return SUPPORTED_KINDS.map((k) => (k.group ? `${k.kind} (${k.group})` : k.kind)).join(', ');
}
