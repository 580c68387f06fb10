import type { SchemaNode } from './schemaNode';

/**
 * JSON Schemas of keys that left GitLab, as the versions that still read them parse them: the
 * schema file (schemas/agent-config.schema.json) describes the newest GitLab and marks these keys
 * removed; a chosen older version gets them back from here (engine/config/versionedSchema.ts), so
 * their contents are checked as that version's KAS checks them (docs/gitlab-behaviour.md#removed-keys).
 */

const text = (description: string): SchemaNode => ({ description, markdownDescription: description });

/** A protobuf string field restricted by protoc-gen-validate's `in` rule (the empty string is the unset value). */
const oneOf = (description: string, values: readonly string[]): SchemaNode => ({ type: 'string', enum: ['', ...values], ...text(description) });

/** google.protobuf.Duration in protojson: seconds with an `s` suffix (docs/gitlab-behaviour.md#config-file-location-and-parsing). */
const duration = (description: string): SchemaNode => ({ type: 'string', pattern: '^-?[0-9]+(\\.[0-9]{1,9})?s$', 'x-format': 'duration', ...text(description) });

const nonEmpty = (description: string): SchemaNode => ({ type: 'string', minLength: 1, ...text(description) });

/**
 * `gitops` (GitopsCF → ManifestProjectCF in gitlab-agent `pkg/agentcfg/agentcfg.proto`, 16.x and
 * 17.x; the fields and their rules as documented in https://docs.gitlab.com/17.11/user/clusters/agent/gitops/agent/).
 */
export const GITOPS_SCHEMA: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  ...text('Legacy pull-based deployment (GitOps with the agent).'),
  properties: {
    manifest_projects: {
      type: 'array',
      ...text('Projects holding the Kubernetes manifests the agent applies.'),
      items: {
        type: 'object',
        additionalProperties: false,
        ...text('One manifest project.'),
        properties: {
          id: nonEmpty('Path of the manifest project (default: the agent configuration project).'),
          ref: {
            type: 'object',
            additionalProperties: false,
            maxProperties: 1,
            'x-oneof': true,
            ...text('Git reference to sync: exactly one of `branch`, `tag`, `commit` (default: the default branch).'),
            properties: { branch: nonEmpty('Branch to sync.'), tag: nonEmpty('Tag to sync.'), commit: nonEmpty('Commit SHA to sync.') },
          },
          default_namespace: { type: 'string', ...text('Namespace for objects without one (and for the inventory ConfigMaps).') },
          paths: {
            type: 'array',
            ...text('Globs of the manifest files to apply (default: every .yaml, .yml and .json file).'),
            items: { type: 'object', additionalProperties: false, required: ['glob'], properties: { glob: nonEmpty('A doublestar glob.') }, ...text('One path glob.') },
          },
          reconcile_timeout: duration('How long to wait for applied objects to become ready (default `"3600s"`).'),
          dry_run_strategy: oneOf('Dry-run strategy (default `none`).', ['none', 'client', 'server']),
          prune: { type: 'boolean', ...text('Prune objects no longer in the manifests (default `true`).') },
          prune_timeout: duration('How long to wait for pruned objects to be deleted (default `"3600s"`).'),
          prune_propagation_policy: oneOf('Deletion propagation policy when pruning (default `foreground`).', ['orphan', 'background', 'foreground']),
          inventory_policy: oneOf('Whether the agent may take over objects of another or of no inventory (default `must_match`).', ['must_match', 'adopt_if_no_inventory', 'adopt_all']),
        },
      },
    },
  },
};

/** `remote_development.partial_sync_interval` / `full_sync_interval` before 17.0 (protobuf Durations). */
export const SYNC_INTERVAL_SCHEMA: SchemaNode = duration('Workspace reconciliation interval (deprecated; GitLab sends its own).');

/** The legacy schema of each schema path the version table lists as deprecated or removed. */
export const LEGACY_SCHEMAS: Readonly<Record<string, SchemaNode>> = {
  gitops: GITOPS_SCHEMA,
  'remote_development.partial_sync_interval': SYNC_INTERVAL_SCHEMA,
  'remote_development.full_sync_interval': SYNC_INTERVAL_SCHEMA,
};
