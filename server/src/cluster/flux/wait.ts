/**
 * "Wait for Flux sync" (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux): watch (never poll) until a Kustomization — or every
 * Kustomization whose `spec.sourceRef` is the given OCIRepository — has applied a revision: a git
 * commit, an OCI digest, or a commit linked to an OCI artifact through its
 * `org.opencontainers.image.revision` metadata or `status.lastAppliedOriginRevision` (docs/gitlab-behaviour.md#oci-artifact-origin-revision).
 * Ends with the controller's reason on failure, or a timeout that says what was last seen.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectRef } from '../kube/objectRef';
import { ok, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { SILENT_PROGRESS, type OperationOptions } from '../progress';
import { reportStep } from '../progressSteps';
import { watchCollection, type CollectionView } from './collectionWatch';
import { kustomizationVerdict, ociArtifact, ociRepositoryProblem, type SyncVerdict } from './readiness';
import { parseWantedRevision } from './revision';

export type FluxWaitKind = 'Kustomization' | 'OCIRepository';

export interface FluxWaitOptions extends OperationOptions {
  readonly kind: FluxWaitKind;
  readonly name: string;
  readonly namespace: string;
  /** `<ref>@sha1:<sha>`, a commit sha, `sha256:<digest>` or `<tag>@sha256:<digest>` (docs/gitlab-behaviour.md#flux-revision-formats). */
  readonly revision: string;
}

export interface SyncedKustomization {
  readonly name: string;
  readonly namespace: string;
  /** `status.lastAppliedRevision`. */
  readonly revision: string;
  /** The Ready condition's message. */
  readonly message: string;
}

export interface FluxWaitResult {
  readonly kustomizations: readonly SyncedKustomization[];
}

const KUSTOMIZATION = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', kind: 'Kustomization' };
const OCI_REPOSITORY = { group: 'source.toolkit.fluxcd.io', version: 'v1', kind: 'OCIRepository' };
const DEFAULT_TIMEOUT_MS = 300_000;

interface SourceRef {
  kind?: string;
  name?: string;
  namespace?: string;
}

function sourceRefOf(kustomization: KubernetesObject): SourceRef {
  return ((kustomization as { spec?: { sourceRef?: SourceRef } }).spec?.sourceRef ?? {}) as SourceRef;
}

type Evaluation = { type: 'synced'; value: SyncedKustomization[] } | { type: 'failed'; failure: ClusterFailure } | { type: 'pending'; message: string };

/** One look at the current state of the watched objects. */
function evaluate(options: FluxWaitOptions, kustomizations: ReadonlyMap<string, KubernetesObject>, repositories: ReadonlyMap<string, KubernetesObject> | undefined, wanted: Parameters<typeof kustomizationVerdict>[1]): Evaluation {
  const targets =
    options.kind === 'Kustomization'
      ? [kustomizations.get(options.name)].filter((k): k is KubernetesObject => k !== undefined)
      : [...kustomizations.values()].filter((k) => {
          const ref = sourceRefOf(k);
          return ref.kind === 'OCIRepository' && ref.name === options.name && (ref.namespace ?? options.namespace) === options.namespace;
        });
  if (targets.length === 0) {
    return {
      type: 'pending',
      message:
        options.kind === 'Kustomization'
          ? `Kustomization ${options.namespace}/${options.name} does not exist (yet)`
          : `no Kustomization in ${options.namespace} has OCIRepository ${options.name} as its sourceRef (yet)`,
    };
  }
  const synced: SyncedKustomization[] = [];
  const pending: string[] = [];
  for (const k of [...targets].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))) {
    const name = k.metadata?.name ?? '';
    const ref = sourceRefOf(k);
    const sameNamespace = (ref.namespace ?? options.namespace) === options.namespace;
    const source = ref.kind === 'OCIRepository' && ref.name && sameNamespace ? repositories?.get(ref.name) : undefined;
    const verdict: SyncVerdict = kustomizationVerdict(k, wanted, source ? ociArtifact(source) : undefined);
    const objectRef: ObjectRef = { ...KUSTOMIZATION, namespace: options.namespace, name };
    if (verdict.state === 'failed') {
      return { type: 'failed', failure: { type: 'failed', ref: objectRef, message: `${verdict.reason}: ${verdict.message || '(no message)'} — Flux did not apply ${wanted.text}` } };
    }
    if (verdict.state === 'synced') {
      synced.push({ name, namespace: options.namespace, revision: verdict.revision, message: verdict.message });
      continue;
    }
    // While waiting, the source's own trouble explains why nothing arrives; a stalled source never will.
    const problem = source ? ociRepositoryProblem(source) : undefined;
    if (problem?.stalled) {
      const sourceRef: ObjectRef = { ...OCI_REPOSITORY, namespace: options.namespace, name: ref.name ?? '' };
      return { type: 'failed', failure: { type: 'failed', ref: sourceRef, message: `${problem.reason}: ${problem.message || '(no message)'} — Flux did not apply ${wanted.text}` } };
    }
    pending.push(`Kustomization ${name}: ${verdict.message}${problem ? ` (OCIRepository ${ref.name}: ${problem.reason}: ${problem.message})` : ''}`);
  }
  return pending.length === 0 ? { type: 'synced', value: synced } : { type: 'pending', message: pending.join('; ') };
}

/** Waits until Flux has applied `options.revision` (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job). */
export async function waitForFluxSync(session: ClusterSession, options: FluxWaitOptions): Promise<ClusterOutcome<FluxWaitResult>> {
  const wanted = parseWantedRevision(options.revision);
  if ('error' in wanted) return { type: 'invalid', causes: [], message: wanted.error };
  const progress = options.progress ?? SILENT_PROGRESS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const subject: ObjectRef = { ...(options.kind === 'Kustomization' ? KUSTOMIZATION : OCI_REPOSITORY), namespace: options.namespace, name: options.name };
  if (options.signal?.aborted) return { type: 'cancelled', ref: subject, message: 'cancelled' };

  return new Promise<ClusterOutcome<FluxWaitResult>>((resolve) => {
    const views: CollectionView[] = [];
    let settled = false;
    let lastMessage = 'nothing seen yet';
    const finish = (outcome: ClusterOutcome<FluxWaitResult>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      for (const v of views) v.stop();
      resolve(outcome);
    };
    const onAbort = (): void => finish({ type: 'cancelled', ref: subject, message: 'cancelled' });
    const timer = setTimeout(
      () => finish({ type: 'timeout', ref: subject, message: `Flux did not apply ${wanted.text} within ${Math.round(timeoutMs / 1000)} s; last seen: ${lastMessage}` }),
      timeoutMs,
    );
    options.signal?.addEventListener('abort', onAbort);

    let kustomizations: CollectionView | undefined;
    let repositories: CollectionView | undefined;
    const check = (): void => {
      if (settled || !kustomizations) return;
      const result = evaluate(options, kustomizations.objects, repositories?.objects, wanted);
      if (result.type === 'synced') finish(ok({ kustomizations: result.value }));
      else if (result.type === 'failed') finish(result.failure);
      else if (result.message !== lastMessage) {
        lastMessage = result.message;
        reportStep(progress, { kind: 'fluxState', message: result.message });
      }
    };
    const fail = (failure: ClusterFailure): void => finish(failure);

    void (async () => {
      // OCIRepositories are read for the commit linkage (docs/gitlab-behaviour.md#oci-artifact-origin-revision). Waiting on a Kustomization still
      // works without them (a cluster without the kind, an identity that may not list them): then only
      // lastAppliedOriginRevision links a digest to a commit.
      const repoView = await watchCollection(session, OCI_REPOSITORY, options.namespace, subject, check, fail);
      if (settled) return 'stop' in repoView ? repoView.stop() : undefined;
      if ('stop' in repoView) {
        repositories = repoView;
        views.push(repoView);
      } else if (options.kind === 'OCIRepository' || (repoView.type !== 'unknownKind' && repoView.type !== 'forbidden')) {
        return finish(repoView);
      }
      const view = await watchCollection(session, KUSTOMIZATION, options.namespace, subject, check, fail);
      if (settled) return 'stop' in view ? view.stop() : undefined;
      if (!('stop' in view)) return finish(view);
      kustomizations = view;
      views.push(view);
      reportStep(progress, { kind: 'fluxWatch', ref: subject, revision: wanted.text });
      check();
    })();
  });
}
