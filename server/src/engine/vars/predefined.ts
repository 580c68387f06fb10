/**
 * When GitLab sets a predefined variable (docs/gitlab-behaviour.md#variables-available-to-job-rules, docs/gitlab-behaviour.md#predefined-variables; docs column "Availability"):
 * - `pre-pipeline` — known before the pipeline exists (usable in `workflow:rules`, `include:rules`, `rules:if`);
 * - `pipeline` — set while the pipeline is created (usable in job `rules:if`);
 * - `job-only` — only when the job runs, persisted with the job (`CI_JOB_ID`, tokens…): not in `rules:if`;
 * - `environment-derived` — computed from the job's `environment` (`CI_ENVIRONMENT_*`): not in `rules:if`.
 */
export type VariableAvailability = 'pre-pipeline' | 'pipeline' | 'job-only' | 'environment-derived';

/** One predefined CI/CD variable. */
export interface PredefinedVariable {
  readonly name: string;
  readonly availability: VariableAvailability;
  /** Whether GitLab offers it to `rules:if` (docs/gitlab-behaviour.md#variables-available-to-job-rules): pre-pipeline and pipeline variables only. */
  readonly availableInRulesIf: boolean;
  readonly description: string;
}

type Row = readonly [name: string, availability: VariableAvailability, description: string];

/**
 * Source: docs/gitlab-behaviour.md#predefined-variables (https://docs.gitlab.com/ci/variables/predefined_variables/) and the
 * persisted/environment lists of docs/gitlab-behaviour.md#variables-available-to-job-rules (`where_variables_can_be_used.md`). The predefined-variables page lists `CI_ENVIRONMENT_*` as
 * "pipeline"; docs/gitlab-behaviour.md#variables-available-to-job-rules says `rules:if` cannot see the environment ones, so they are `environment-derived` here.
 */
const ROWS: readonly Row[] = [
  ['CI_COMMIT_BRANCH', 'pre-pipeline', 'Branch name; only in branch pipelines (not merge request or tag pipelines).'],
  ['CI_COMMIT_REF_NAME', 'pre-pipeline', 'Branch or tag name the project is built for.'],
  ['CI_COMMIT_REF_SLUG', 'pre-pipeline', 'CI_COMMIT_REF_NAME lowercased, non-[a-z0-9] → "-", at most 63 characters, no leading/trailing "-".'],
  ['CI_COMMIT_REF_PROTECTED', 'pre-pipeline', '"true" if the ref is protected, else "false".'],
  ['CI_COMMIT_TAG', 'pre-pipeline', 'Tag name; only in tag pipelines.'],
  ['CI_COMMIT_SHA', 'pre-pipeline', 'Commit SHA the project is built for.'],
  ['CI_COMMIT_SHORT_SHA', 'pre-pipeline', 'First 8 characters of CI_COMMIT_SHA.'],
  ['CI_COMMIT_TITLE', 'pre-pipeline', 'First line of the commit message.'],
  ['CI_COMMIT_MESSAGE', 'pre-pipeline', 'Full commit message.'],
  ['CI_DEFAULT_BRANCH', 'pre-pipeline', "The project's default branch name."],
  ['CI_PIPELINE_SOURCE', 'pre-pipeline', 'How the pipeline was triggered: push, merge_request_event, schedule, web, api, trigger, pipeline, parent_pipeline, …'],
  ['CI_PIPELINE_IID', 'pipeline', 'Project-level pipeline number.'],
  ['CI_PIPELINE_ID', 'job-only', 'Instance-level pipeline ID (persisted).'],
  ['CI_PIPELINE_URL', 'job-only', 'Pipeline URL (persisted).'],
  ['CI_JOB_ID', 'job-only', 'Job ID (persisted).'],
  ['CI_JOB_URL', 'job-only', 'Job URL (persisted).'],
  ['CI_JOB_TOKEN', 'job-only', 'Job token (persisted).'],
  ['CI_JOB_STARTED_AT', 'job-only', 'Job start time (persisted).'],
  ['CI_REGISTRY_USER', 'job-only', 'Container registry user (persisted).'],
  ['CI_REGISTRY_PASSWORD', 'job-only', 'Container registry password (persisted).'],
  ['CI_REPOSITORY_URL', 'job-only', 'Git clone URL with job token (persisted).'],
  ['CI_DEPLOY_USER', 'job-only', 'Deploy token user (persisted).'],
  ['CI_DEPLOY_PASSWORD', 'job-only', 'Deploy token password (persisted).'],
  ['CI_PROJECT_ID', 'pre-pipeline', 'Project ID.'],
  ['CI_PROJECT_PATH', 'pre-pipeline', 'Project namespace with project name (full path).'],
  ['CI_PROJECT_PATH_SLUG', 'pre-pipeline', 'CI_PROJECT_PATH lowercased, non-[a-z0-9] → "-", at most 63 characters.'],
  ['CI_PROJECT_NAME', 'pre-pipeline', 'Last part of the project path.'],
  ['CI_PROJECT_NAMESPACE', 'pre-pipeline', 'Project namespace (path without the project name).'],
  ['CI_PROJECT_ROOT_NAMESPACE', 'pre-pipeline', 'Top-level namespace of the project.'],
  ['CI_ENVIRONMENT_NAME', 'environment-derived', "The job's environment name (environment:name)."],
  ['CI_ENVIRONMENT_SLUG', 'environment-derived', 'Environment name slug (≤ 24 characters, DNS-safe).'],
  ['CI_ENVIRONMENT_URL', 'environment-derived', 'environment:url of the job.'],
  ['CI_ENVIRONMENT_ACTION', 'environment-derived', 'environment:action: start, prepare or stop.'],
  ['CI_ENVIRONMENT_TIER', 'environment-derived', 'Deployment tier: production, staging, testing, development or other.'],
  ['CI_JOB_NAME', 'pipeline', 'Job name.'],
  ['CI_JOB_NAME_SLUG', 'pipeline', 'CI_JOB_NAME slugified like CI_COMMIT_REF_SLUG.'],
  ['CI_JOB_STAGE', 'pipeline', 'Stage of the job.'],
  ['CI_MERGE_REQUEST_IID', 'pre-pipeline', 'Project-level merge request IID (merge request pipelines).'],
  ['CI_MERGE_REQUEST_ID', 'pre-pipeline', 'Instance-level merge request ID (merge request pipelines).'],
  ['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', 'pre-pipeline', 'Merge request source branch (merge request pipelines).'],
  ['CI_MERGE_REQUEST_TARGET_BRANCH_NAME', 'pre-pipeline', 'Merge request target branch (merge request pipelines).'],
  ['CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED', 'pre-pipeline', '"true" if the source branch is protected (merge request pipelines).'],
  ['CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED', 'pre-pipeline', '"true" if the target branch is protected (merge request pipelines).'],
  ['CI_MERGE_REQUEST_EVENT_TYPE', 'pre-pipeline', 'detached, merged_result or merge_train.'],
  ['CI_MERGE_REQUEST_LABELS', 'pre-pipeline', 'Comma-separated merge request labels.'],
  ['CI_MERGE_REQUEST_TITLE', 'pre-pipeline', 'Merge request title.'],
  ['CI_MERGE_REQUEST_PROJECT_PATH', 'pre-pipeline', 'Path of the project the merge request belongs to.'],
  ['CI_MERGE_REQUEST_PROJECT_ID', 'pre-pipeline', 'ID of the project the merge request belongs to.'],
  ['CI_MERGE_REQUEST_REF_PATH', 'pre-pipeline', 'Ref path of the merge request (refs/merge-requests/<iid>/head).'],
  ['CI_MERGE_REQUEST_APPROVED', 'pre-pipeline', '"true" when the merge request is approved (Premium).'],
  ['CI_MERGE_REQUEST_ASSIGNEES', 'pre-pipeline', 'Comma-separated assignee usernames.'],
  ['CI_MERGE_REQUEST_DIFF_BASE_SHA', 'pre-pipeline', 'Base SHA of the merge request diff.'],
  ['CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', 'pre-pipeline', 'HEAD SHA of the source branch (merged results pipelines).'],
  ['CI_MERGE_REQUEST_TARGET_BRANCH_SHA', 'pre-pipeline', 'HEAD SHA of the target branch (merged results pipelines).'],
  ['CI_OPEN_MERGE_REQUESTS', 'pre-pipeline', 'Up to 4 open merge requests for the branch (path!iid).'],
  ['GITLAB_USER_LOGIN', 'pipeline', 'Username of the user who started the pipeline (or the manual job).'],
  ['GITLAB_USER_ID', 'pipeline', 'ID of that user.'],
  ['GITLAB_USER_EMAIL', 'pipeline', 'Email of that user.'],
  ['GITLAB_USER_NAME', 'pipeline', 'Display name of that user.'],
  ['KUBECONFIG', 'pipeline', 'Path of the kubeconfig file when an agent is authorized for the job.'],
  ['CI_SERVER_URL', 'pre-pipeline', 'Base URL of the GitLab instance.'],
  ['CI_SERVER_HOST', 'pre-pipeline', 'Host of the GitLab instance URL.'],
  ['CI_SERVER_VERSION', 'pre-pipeline', 'GitLab version.'],
];

/** The predefined variables this project knows, in documentation order. */
export const PREDEFINED_VARIABLES: readonly PredefinedVariable[] = ROWS.map(([name, availability, description]) => ({
  name,
  availability,
  availableInRulesIf: availability === 'pre-pipeline' || availability === 'pipeline',
  description,
}));

const BY_NAME = new Map(PREDEFINED_VARIABLES.map((v) => [v.name, v]));

/** Looks up a predefined variable by exact name. */
export function predefinedVariable(name: string): PredefinedVariable | undefined {
  return BY_NAME.get(name);
}
