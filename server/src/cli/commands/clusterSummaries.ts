/**
 * What `agentcfg --help` says of the cluster commands. Kept apart from the commands themselves:
 * those are loaded (with @kubernetes/client-node under them) only when one of them runs.
 */
export const CLUSTER_COMMAND_SUMMARIES = {
  apply: 'Render an environment template and apply it to a cluster (dry-run diff, confirm, apply, wait).',
  destroy: "Delete an environment's resources (exactly its inventory), in reverse order.",
  workspace: 'Apply, terminate or list remote development workspaces as the agent does.',
  flux: 'Wait until a Flux Kustomization (or the ones of an OCIRepository) applied a revision.',
  'can-i': "Ask the cluster what a CI job's identity may do in its namespace (SubjectAccessReview).",
} as const;

export type ClusterCommandName = keyof typeof CLUSTER_COMMAND_SUMMARIES;
