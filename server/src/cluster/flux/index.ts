/** Waiting for Flux (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux). */
export { kustomizationVerdict, ociArtifact, ociRepositoryProblem, type SourceArtifact, type SyncVerdict } from './readiness';
export { commitFromRevision, digestFromRevision, parseWantedRevision, revisionMatches, type WantedRevision } from './revision';
export { waitForFluxSync, type FluxWaitKind, type FluxWaitOptions, type FluxWaitResult, type SyncedKustomization } from './wait';
