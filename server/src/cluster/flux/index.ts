/** Waiting for Flux (seed 002, spec §6). */
export { kustomizationVerdict, ociArtifact, ociRepositoryProblem, type SourceArtifact, type SyncVerdict } from './readiness';
export { commitFromRevision, digestFromRevision, parseWantedRevision, revisionMatches, type WantedRevision } from './revision';
export { waitForFluxSync, type FluxWaitKind, type FluxWaitOptions, type FluxWaitResult, type SyncedKustomization } from './wait';
