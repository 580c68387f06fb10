/**
 * Has a Kustomization applied the revision waited for? kstatus-style readiness of Flux objects
 * (docs/gitlab-behaviour.md#flux-readiness), pure: Ready=True for the current generation (`status.observedGeneration ==
 * metadata.generation`) and `status.lastAppliedRevision` matching (docs/gitlab-behaviour.md#flux-revision-formats); Stalled=True, or
 * Ready=False for the revision waited for, is a failure with the controller's reason and message.
 */
import { asRecord } from '../../engine/api';
import { revisionMatches, type WantedRevision } from './revision';

export type SyncVerdict =
  | { state: 'synced'; revision: string; message: string }
  | { state: 'failed'; reason: string; message: string }
  | { state: 'pending'; message: string };

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** The source artifact a Kustomization reads, when it is an OCIRepository (for commit linkage, docs/gitlab-behaviour.md#oci-artifact-origin-revision). */
export interface SourceArtifact {
  /** `status.artifact.revision` of the OCIRepository. */
  revision?: string;
  /** `status.artifact.metadata['org.opencontainers.image.revision']`. */
  originRevision?: string;
}

export const OCI_REVISION_ANNOTATION = 'org.opencontainers.image.revision';

/** The artifact of an OCIRepository object (docs/gitlab-behaviour.md#oci-artifact-origin-revision: metadata carries the OCI annotations). */
export function ociArtifact(ociRepository: unknown): SourceArtifact {
  const artifact = asRecord(asRecord(asRecord(ociRepository)?.status)?.artifact);
  const metadata = asRecord(artifact?.metadata);
  const revision = artifact?.revision;
  const origin = metadata?.[OCI_REVISION_ANNOTATION];
  return { ...(typeof revision === 'string' ? { revision } : {}), ...(typeof origin === 'string' ? { originRevision: origin } : {}) };
}

function conditionsOf(status: Record<string, unknown> | null): Condition[] {
  const list = Array.isArray(status?.conditions) ? status.conditions : [];
  return list.map(asRecord).flatMap((c) =>
    c && typeof c.type === 'string'
      ? [{ type: c.type, status: String(c.status ?? ''), reason: String(c.reason ?? ''), message: String(c.message ?? '') }]
      : [],
  );
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/** The origin revisions known for a revision the Kustomization applied or attempted. */
function originsFor(revision: string | undefined, recordedOrigin: string | undefined, source: SourceArtifact | undefined): string[] {
  const origins: string[] = [];
  if (recordedOrigin) origins.push(recordedOrigin);
  if (revision && source?.originRevision && source.revision === revision) origins.push(source.originRevision);
  return origins;
}

/**
 * What an OCIRepository says about itself (docs/gitlab-behaviour.md#flux-readiness): a failure source-controller will not retry
 * (Stalled=True), or a problem worth showing while waiting (Ready=False, FetchFailed=True, …).
 */
export function ociRepositoryProblem(ociRepository: unknown): { stalled: boolean; reason: string; message: string } | undefined {
  const conditions = conditionsOf(asRecord(asRecord(ociRepository)?.status));
  const stalled = conditions.find((c) => c.type === 'Stalled' && c.status === 'True');
  if (stalled) return { stalled: true, reason: stalled.reason || 'Stalled', message: stalled.message };
  // FetchFailed, StorageOperationFailed and IncludeUnavailable have negative polarity: True is bad.
  const failing = conditions.find((c) => ['FetchFailed', 'StorageOperationFailed', 'IncludeUnavailable'].includes(c.type) && c.status === 'True') ?? conditions.find((c) => c.type === 'Ready' && c.status === 'False');
  return failing ? { stalled: false, reason: failing.reason || failing.type, message: failing.message } : undefined;
}

/** Decides whether `kustomization` has applied `wanted`, failed on it, or is still on its way. */
export function kustomizationVerdict(kustomization: unknown, wanted: WantedRevision, source?: SourceArtifact): SyncVerdict {
  const object = asRecord(kustomization);
  const status = asRecord(object?.status);
  const generation = asRecord(object?.metadata)?.generation;
  const observed = status?.observedGeneration;
  const conditions = conditionsOf(status);
  const ready = conditions.find((c) => c.type === 'Ready');
  const stalled = conditions.find((c) => c.type === 'Stalled' && c.status === 'True');
  const applied = text(status?.lastAppliedRevision);
  const attempted = text(status?.lastAttemptedRevision);

  if (observed === undefined || observed !== generation) {
    return { state: 'pending', message: `the controller has not reconciled generation ${String(generation ?? '?')} yet (observed ${String(observed ?? 'none')})` };
  }
  if (stalled) return { state: 'failed', reason: stalled.reason || 'Stalled', message: stalled.message };

  const appliedMatches = revisionMatches(wanted, { revision: applied, originRevisions: originsFor(applied, text(status?.lastAppliedOriginRevision), source) });
  if (ready?.status === 'True' && appliedMatches) {
    return { state: 'synced', revision: applied!, message: ready.message || `applied revision ${applied}` };
  }
  if (ready?.status === 'False') {
    // A failure concerns the revision waited for when that is the one last attempted; a stale failure
    // of an older revision only means the new one has not been tried yet.
    const attemptedMatches = revisionMatches(wanted, { revision: attempted ?? applied, originRevisions: originsFor(attempted ?? applied, undefined, source) });
    if (attemptedMatches || attempted === undefined) return { state: 'failed', reason: ready.reason || 'NotReady', message: ready.message };
    return { state: 'pending', message: `revision ${attempted} failed (${ready.reason}: ${ready.message}); waiting for ${wanted.text}` };
  }
  const readiness = ready ? `Ready=${ready.status}${ready.reason ? ` (${ready.reason}${ready.message ? `: ${ready.message}` : ''})` : ''}` : 'no Ready condition';
  return { state: 'pending', message: `last applied revision ${applied ?? 'none'}, ${readiness}; waiting for ${wanted.text}` };
}
