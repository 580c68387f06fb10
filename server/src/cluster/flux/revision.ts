/**
 * Flux revision strings (docs/gitlab-behaviour.md#flux-revision-formats) and how a revision a user waits for is matched against what a
 * Kustomization applied. Pure.
 *
 * | Source           | artifact revision                         |
 * | GitRepository    | `<ref>@sha1:<40 hex>` (pre-2.0: `<ref>/<sha>`) |
 * | OCIRepository    | `<tag>@sha256:<digest>` or `sha256:<digest>` |
 */

/** What the user waits for. */
export type WantedRevision =
  /** A git commit: `<ref>@sha1:<sha>` or a bare (possibly short, ≥ 7) hex sha. */
  | { kind: 'commit'; commit: string; text: string }
  /** An OCI digest: `sha256:<hex>` or `<tag>@sha256:<hex>`, matched on the digest alone (docs/gitlab-behaviour.md#flux-revision-formats). */
  | { kind: 'digest'; digest: string; text: string };

const SHA1_REVISION = /^(?:.*@)?sha1:([0-9a-f]{7,40})$/i;
const LEGACY_GIT_REVISION = /^.+\/([0-9a-f]{40})$/i;
const BARE_SHA = /^[0-9a-f]{7,40}$/i;
const DIGEST = /^(sha256|sha384|sha512):[0-9a-f]{32,128}$/i;

/** The digest part of a revision: everything after the last `@` (docs/gitlab-behaviour.md#flux-revision-formats, `digestFromRevision`). */
export function digestFromRevision(revision: string): string {
  return revision.slice(revision.lastIndexOf('@') + 1);
}

/**
 * The git commit a revision names: `<ref>@sha1:<sha>`, the legacy `<ref>/<sha>`, or a bare sha (as
 * GitLab's OCI tutorial writes `org.opencontainers.image.revision` = `$CI_COMMIT_SHORT_SHA`, docs/gitlab-behaviour.md#oci-artifact-origin-revision).
 */
export function commitFromRevision(revision: string): string | undefined {
  const trimmed = revision.trim();
  const match = SHA1_REVISION.exec(trimmed) ?? LEGACY_GIT_REVISION.exec(trimmed) ?? (BARE_SHA.test(trimmed) ? [trimmed, trimmed] : null);
  return match ? match[1].toLowerCase() : undefined;
}

/** Parses the revision to wait for, or explains why it cannot be one. */
export function parseWantedRevision(text: string): WantedRevision | { error: string } {
  const revision = text.trim();
  const digest = digestFromRevision(revision);
  if (DIGEST.test(digest)) return { kind: 'digest', digest: digest.toLowerCase(), text: revision };
  const commit = commitFromRevision(revision);
  if (commit) return { kind: 'commit', commit, text: revision };
  return {
    error: `"${text}" is not a Flux revision: give a git commit (\`main@sha1:<sha>\` or a sha of 7 to 40 hex digits) or an OCI digest (\`sha256:<hex>\` or \`<tag>@sha256:<hex>\`)`,
  };
}

/** Two commits are the same when one is a prefix of the other (short shas, 7+ digits). */
function sameCommit(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

/** What a Kustomization applied (or attempted), with the git revision the artifact came from if known. */
export interface AppliedRevision {
  /** `status.lastAppliedRevision` (or `lastAttemptedRevision`). */
  revision?: string;
  /**
   * The origin revision: `status.lastAppliedOriginRevision`, or the OCI artifact's
   * `org.opencontainers.image.revision` metadata when that artifact is the one applied (docs/gitlab-behaviour.md#oci-artifact-origin-revision).
   */
  originRevisions?: readonly string[];
}

/** Whether what was applied is the revision waited for (docs/gitlab-behaviour.md#flux-revision-formats, docs/gitlab-behaviour.md#flux-readiness). */
export function revisionMatches(wanted: WantedRevision, applied: AppliedRevision): boolean {
  if (!applied.revision) return false;
  if (wanted.kind === 'digest') return digestFromRevision(applied.revision).toLowerCase() === wanted.digest;
  const candidates = [applied.revision, ...(applied.originRevisions ?? [])];
  return candidates.some((revision) => {
    const commit = commitFromRevision(revision);
    return commit !== undefined && sameCommit(commit, wanted.commit);
  });
}
