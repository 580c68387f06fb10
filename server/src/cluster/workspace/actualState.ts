/**
 * The actual state Rails computes for a workspace from what agentk reports (docs/gitlab-behaviour.md#workspace-states,
 * actual_state_calculator.rb): termination progress, error details, and the Deployment's spec and
 * status. Pure, so the tree view shows exactly the state GitLab would show.
 */
import { asRecord } from '../../engine/api';

export type TerminationProgress = 'Terminating' | 'Terminated';

export type WorkspaceActualState =
  | 'CreationRequested'
  | 'Starting'
  | 'Running'
  | 'Stopping'
  | 'Stopped'
  | 'Terminating'
  | 'Terminated'
  | 'Failed'
  | 'Error'
  | 'Unknown';

export interface ActualStateInput {
  /** The Deployment as JSON (agentk's `latest_k8s_deployment_info`); absent when none was found. */
  deployment?: unknown;
  terminationProgress?: TerminationProgress;
  /** agentk's error details; any value means "an error was reported". */
  errorDetails?: unknown;
}

const PROGRESSING_REASONS = new Set(['NewReplicaSetCreated', 'FoundNewReplicaSet', 'ReplicaSetUpdated']);
const MINIMUM_AVAILABLE = 'MinimumReplicasAvailable';
const MINIMUM_UNAVAILABLE = 'MinimumReplicasUnavailable';

/** Rails' `calculate_actual_state`, branch for branch (docs/gitlab-behaviour.md#workspace-states). */
export function calculateActualState({ deployment, terminationProgress, errorDetails }: ActualStateInput): WorkspaceActualState {
  // 1. Termination wins even over errors: nothing more can be done for a workspace that is gone.
  if (terminationProgress === 'Terminated') return 'Terminated';
  if (errorDetails !== undefined && errorDetails !== null) return 'Error';
  if (terminationProgress === 'Terminating') return 'Terminating';

  // 2. Anything missing → Unknown.
  const info = asRecord(deployment);
  const spec = asRecord(info?.spec);
  const status = asRecord(info?.status);
  const conditions = Array.isArray(status?.conditions) ? status.conditions.map(asRecord) : null;
  if (!spec || !status || !conditions) return 'Unknown';
  const condition = (type: string) => conditions.find((c) => c?.type === type) ?? undefined;
  const progressingReason = condition('Progressing')?.reason;
  const replicas = spec.replicas;
  if (progressingReason === undefined || progressingReason === null || replicas === undefined || replicas === null) return 'Unknown';

  // 3. The Deployment controller gave up.
  if (progressingReason === 'ProgressDeadlineExceeded') return 'Failed';

  // 4. A rollout in progress: only the direction is known.
  if (typeof progressingReason === 'string' && PROGRESSING_REASONS.has(progressingReason)) {
    if (replicas === 0) return 'Stopping';
    if (replicas === 1) return 'Starting';
  }

  // 5. Complete rollouts need the Available condition to tell the state.
  const available = status.availableReplicas ?? 0;
  const unavailable = status.unavailableReplicas ?? 0;
  const availableReason = condition('Available')?.reason;
  if (availableReason === undefined || availableReason === null) return 'Unknown';
  if (progressingReason === 'NewReplicaSetAvailable') {
    if (availableReason === MINIMUM_AVAILABLE && replicas === 0 && available === 0) return 'Stopped';
    if (availableReason === MINIMUM_AVAILABLE && replicas === available && unavailable === 0) return 'Running';
    if (availableReason === MINIMUM_AVAILABLE && replicas === 0 && available === 1) return 'Stopping';
    if ((availableReason === MINIMUM_AVAILABLE || availableReason === MINIMUM_UNAVAILABLE) && replicas === 1 && available === 0) return 'Starting';
  }
  // 6.
  return 'Unknown';
}
