// Generates schemas/agent-config.schema.json from one readable description of docs/gitlab-behaviour.md#agent-configuration-file.
// Why a generator: the ci_access entry shape repeats (projects, groups, instance), descriptions and
// "since" metadata are easier to keep right in JavaScript, and the JSON stays the single artefact the
// server, the CLI and other editors (yaml-language-server) consume. Run: node schemas/src/build-agent-config-schema.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bool, CIDR, DNS1123_LABEL, DNS1123_SUBDOMAIN, doc, duration, label, obj, QUANTITY, removed, str, strings, subdomain } from './schema-helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// docs/gitlab-behaviour.md#ci_access-entries access_as: a protobuf oneof, so exactly one key.
const accessAs = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  'x-oneof': true,
  ...doc('Identity the CI job uses against the cluster. Exactly one of `agent`, `ci_job`, `impersonate`.', { def: { agent: {} } }),
  properties: {
    agent: obj({}, doc('Requests use the agent\'s own ServiceAccount (the default). The only mode in which the job may send impersonation headers itself.')),
    ci_job: obj({}, doc('Impersonate the CI job: user `gitlab:ci_job:<job id>` with groups for the project, its ancestor groups, environment and tier (Premium/Ultimate).')),
    impersonate: obj(
      {
        username: str('User name to impersonate.', {}, { minLength: 1 }),
        uid: str('UID to impersonate.'),
        groups: strings('Groups to impersonate.', {}, 'One group name.'),
        extra: {
          type: 'array',
          ...doc('Extra fields to impersonate.'),
          items: obj(
            {
              key: str('Extra field name.', {}, { minLength: 1 }),
              val: { ...strings('Values of the extra field (at least one).', {}, 'One value.'), minItems: 1 },
            },
            { required: ['key', 'val'] },
          ),
        },
      },
      { required: ['username'], ...doc('Impersonate a static identity (Premium/Ultimate).') },
    ),
  },
};

// docs/gitlab-behaviour.md#ci_access-rules-design: the proposed `rules` design (`if`, `namespace`, `when: never`). Accepted under the
// `proposal` compatibility target; GitLab itself rejects the key (see the target setting).
const rules = {
  type: 'array',
  'x-proposal': true,
  ...doc(
    'Rules evaluated in order; the first match decides the job\'s access and namespace (design: GitLab-managed clusters using the agent). Not shipped by GitLab.',
  ),
  items: obj(
    {
      if: str('A `rules:if` expression evaluated with the job\'s CI/CD variables. Without `if` the rule always matches.', {}, { 'x-format': 'ciExpression' }),
      namespace: str('Namespace for the job when this rule matches. CI/CD variables are expanded (for example `myapp-$CI_ENVIRONMENT_SLUG`). Falls back to `default_namespace`.', {}, { 'x-format': 'expandedNamespace' }),
      when: { type: 'string', enum: ['never'], ...doc('`never`: a job matching this rule gets no access to the agent.') },
    },
    { ...doc('One rule.') },
  ),
};

function ciAccessEntry(kind) {
  const properties = {
    id: str(kind === 'project' ? 'Full path of the authorized project (`group/subgroup/project`), matched case-insensitively.' : 'Full path of the authorized group (`group/subgroup`); covers every subgroup and project below it.', {}, { minLength: 1 }),
    default_namespace: str('Namespace set in the kubeconfig context generated for the job. Unset: no namespace in the context.', {}, { 'x-format': 'namespace' }),
    access_as: accessAs,
    environments: strings('Only jobs whose environment matches one of these names get the agent. `*` is a wildcard (GitLab matches it unanchored). Empty: every job.', { since: '15.7', def: [] }, 'An environment name or a pattern with `*`.'),
    protected_branches_only: bool('Only jobs running for a protected branch or tag get the agent.', { since: '17.3', def: false }),
    resource_management: obj(
      { enabled: bool('Turn on GitLab-managed Kubernetes resources (environment templates) for this authorization.', { since: '17.9', def: false }) },
      doc('GitLab-managed Kubernetes resources (Premium/Ultimate).', { since: '17.9' }),
    ),
    rules,
  };
  if (kind === 'instance') delete properties.id;
  return obj(properties, {
    ...(kind === 'instance' ? {} : { required: ['id'] }),
    ...doc(kind === 'instance' ? 'Authorize every project of the instance (self-managed; an administrator must enable instance-level authorization).' : `One authorized ${kind}.`, kind === 'instance' ? { since: '17.11' } : {}),
  });
}

// docs/gitlab-behaviour.md#observability-logging log_level_enum; protojson also accepts an enum's number (info 0, debug 1, warn 2, error 3), docs/gitlab-behaviour.md#config-file-location-and-parsing.
const logLevel = (d, def) => ({ type: ['string', 'integer'], enum: ['info', 'debug', 'warn', 'error', 0, 1, 2, 3], default: def, ...doc(d, { def, extra: 'Also accepted: the level\'s number (`0` info, `1` debug, `2` warn, `3` error).' }) });
// docs/gitlab-behaviour.md#remote_development-settings: Rails reads these from YAML, so a number is accepted; strings must be Kubernetes quantities.
const quantity = (d, numberAllowed) => ({ type: numberAllowed ? ['string', 'number'] : 'string', pattern: QUANTITY, 'x-format': 'quantity', ...doc(d) });
const requestsOrLimits = (d) => obj({ cpu: quantity('CPU quantity, for example `"500m"` or `"1.5"`.', true), memory: quantity('Memory quantity, for example `"512Mi"`.', true) }, doc(d));
const resources = (d) =>
  obj(
    { requests: requestsOrLimits('Requests (`cpu`, `memory`).'), limits: requestsOrLimits('Limits (`cpu`, `memory`).') },
    {
      ...doc(d, { since: '16.8', def: {}, extra: 'When set, both `requests` and `limits` are required.' }),
      // docs/gitlab-behaviour.md#remote_development-settings "when set, requests and limits required": an empty mapping means unset.
      if: { minProperties: 1 },
      then: { required: ['requests', 'limits'], properties: { requests: true, limits: true } },
    },
  );
// docs/gitlab-behaviour.md#container_scanning: container scanning's quantities are protobuf strings, so a bare number is rejected ("fractional CPU must be quoted").
const quantities = (d) =>
  obj(
    { cpu: quantity('CPU quantity, quoted, for example `"500m"`.', false), memory: quantity('Memory quantity, for example `"500Mi"`.', false), ephemeral_storage: quantity('Ephemeral storage quantity, for example `"3Gi"`.', false) },
    doc(d),
  );
// Host names (Rails `hostname` validator): dot-separated labels of letters, digits and "-".
const HOSTNAME = '^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*$';
const cidr = (d) => ({ type: 'string', pattern: CIDR, 'x-format': 'cidr', patternErrorMessage: 'must be an IPv4 or IPv6 range in CIDR notation, such as "10.0.0.0/8" or "fd00::/8"', ...doc(d) });

// docs/gitlab-behaviour.md#names label/annotation keys: an optional DNS-1123 subdomain prefix (≤253) and `/`, then a name of
// at most 63 characters. docs/gitlab-behaviour.md#remote_development-settings: prefixes ending in kubernetes.io, k8s.io or gitlab.com are reserved.
const QUALIFIED_NAME = '^((?=[^/]{1,253}/)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(?=[^/]{1,63}$)([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$';
const LABEL_VALUE = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';
const labelKey = (what) => ({
  type: 'string',
  allOf: [
    { pattern: QUALIFIED_NAME, 'x-format': 'labelKey', patternErrorMessage: `must be a Kubernetes ${what} key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit` },
    { not: { pattern: '^[^/]*(kubernetes\\.io|k8s\\.io|gitlab\\.com)/' }, errorMessage: `uses a reserved prefix: ${what} keys whose prefix ends in kubernetes.io, k8s.io or gitlab.com are reserved for Kubernetes and GitLab` },
  ],
});
const hours = (d, def) => ({ type: 'integer', minimum: 1, maximum: 8760, default: def, ...doc(d, { since: '17.6', def }) });

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://gitlab-agent-config.local/schemas/agent-config.schema.json',
  title: 'GitLab agent for Kubernetes configuration (.gitlab/agents/<agent>/config.yaml)',
  ...doc('Configuration of one GitLab agent for Kubernetes, read from the default branch of its configuration project.'),
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    ci_access: obj(
      {
        projects: { type: 'array', items: ciAccessEntry('project'), 'x-entryLimit': 500, ...doc('Projects whose CI/CD jobs may use this agent. GitLab honours the first 500 entries.') },
        groups: { type: 'array', items: ciAccessEntry('group'), 'x-entryLimit': 500, ...doc('Groups whose projects\' CI/CD jobs may use this agent. GitLab honours the first 500 entries.') },
        instance: ciAccessEntry('instance'),
      },
      doc('Authorize CI/CD jobs of projects and groups to use this agent.'),
    ),
    user_access: obj(
      {
        access_as: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          maxProperties: 1,
          'x-oneof': true,
          properties: { agent: obj({}, doc('Requests use the agent\'s ServiceAccount.')), user: obj({}, doc('Impersonate the GitLab user (Premium/Ultimate).')) },
          ...doc('Identity for user access: `agent` or `user`. Optional since 18.3.', { def: { agent: {} } }),
        },
        projects: { type: 'array', 'x-entryLimit': 500, items: obj({ id: str('Full path of the project.', {}, { minLength: 1 }) }, { required: ['id'], ...doc('One project.') }), ...doc('Projects whose members may access the cluster through the agent (first 500 honoured).') },
        groups: { type: 'array', 'x-entryLimit': 500, items: obj({ id: str('Full path of the group.', {}, { minLength: 1 }) }, { required: ['id'], ...doc('One group.') }), ...doc('Groups whose members may access the cluster through the agent (first 500 honoured).') },
      },
      doc('Give GitLab users access to the cluster through the agent (Kubernetes dashboard, kubectl).', { since: '16.1' }),
    ),
    remote_development: obj(
      {
        enabled: bool('Enable workspaces for this agent. GitLab treats only `true` as on.', { since: '15.11', def: false }),
        dns_zone: {
          type: 'string',
          maxLength: 253,
          pattern: HOSTNAME,
          'x-format': 'hostname',
          patternErrorMessage: 'must be a host name (letters, digits and "-" in dot-separated labels)',
          ...doc('DNS zone where workspaces are available (workspace URLs are `<port>-<workspace>.<dns_zone>`). Required when workspaces are enabled, unless the proxy serves no HTTP (`gitlab_workspaces_proxy.http_enabled: false`).'),
        },
        gitlab_workspaces_proxy: obj(
          {
            namespace: label('Namespace of the GitLab workspaces proxy.', { def: 'gitlab-workspaces' }),
            http_enabled: bool('Allow HTTP access through the workspaces proxy. When `false`, the proxy gets no ingress rule to the workspaces unless SSH is enabled.', { since: '18.5' }),
            ssh_enabled: bool('Allow SSH access through the workspaces proxy.', { since: '18.5' }),
          },
          doc('Workspaces proxy settings.'),
        ),
        network_policy: obj(
          {
            enabled: bool('Create a NetworkPolicy for each workspace.', { def: true }),
            egress: {
              type: 'array',
              ...doc('IP ranges workspaces may connect to.', { since: '16.7', def: [{ allow: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] }] }),
              items: obj(
                {
                  allow: cidr('Allowed IP range (CIDR), for example `"0.0.0.0/0"`.'),
                  except: { type: 'array', items: cidr('An excluded IP range (CIDR).'), ...doc('IP ranges (CIDRs) excluded from `allow`.') },
                },
                { required: ['allow'], ...doc('One egress rule.') },
              ),
            },
          },
          doc('Network policy of the workspaces.'),
        ),
        default_resources_per_workspace_container: resources('Default requests and limits of each workspace container.'),
        max_resources_per_workspace: resources('Maximum resources of one workspace (a ResourceQuota). Must be `{}` when `shared_namespace` is set.'),
        workspaces_quota: { type: 'integer', minimum: -1, default: -1, ...doc('Maximum workspaces for this agent; -1 unlimited, 0 blocks creation.', { since: '16.9', def: -1 }) },
        workspaces_per_user_quota: { type: 'integer', minimum: -1, default: -1, ...doc('Maximum workspaces per user; -1 unlimited, 0 blocks creation.', { since: '16.9', def: -1 }) },
        use_kubernetes_user_namespaces: bool('Use Kubernetes user namespaces for workspaces.', { since: '17.4', def: false }),
        default_runtime_class: { ...subdomain('Runtime class of workspace pods (a DNS-1123 subdomain). Empty: the cluster default.', { since: '17.4', def: '' }), pattern: '^$|' + DNS1123_SUBDOMAIN },
        allow_privilege_escalation: bool('Allow privilege escalation in workspace containers; only allowed with `use_kubernetes_user_namespaces: true` or a `default_runtime_class`.', { since: '17.4', def: false }),
        image_pull_secrets: {
          type: 'array',
          ...doc('Image pull secrets made available to workspaces (secrets that do not exist are ignored). Names must be unique; with `shared_namespace`, each `namespace` must be the shared namespace.', { since: '17.6', def: [] }),
          items: obj({ name: subdomain('Name of the Secret.'), namespace: label('Namespace of the Secret.') }, { required: ['name', 'namespace'], ...doc('One secret.') }),
        },
        annotations: {
          type: 'object',
          propertyNames: labelKey('annotation'),
          additionalProperties: { type: 'string', ...doc('Annotation value.') },
          ...doc('Annotations added to every workspace object. Keys use Kubernetes syntax; prefixes ending in `kubernetes.io`, `k8s.io` or `gitlab.com` are reserved.', { since: '17.4', def: {} }),
        },
        labels: {
          type: 'object',
          propertyNames: labelKey('label'),
          additionalProperties: {
            type: 'string',
            maxLength: 63,
            pattern: LABEL_VALUE,
            'x-format': 'labelValue',
            patternErrorMessage: 'must be a label value: at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit',
            ...doc('Label value.'),
          },
          ...doc('Labels added to every workspace object. Keys and values use Kubernetes syntax; prefixes ending in `kubernetes.io`, `k8s.io` or `gitlab.com` are reserved.', { since: '17.4', def: {} }),
        },
        max_active_hours_before_stop: hours('Hours a workspace may run before it is stopped. Its sum with `max_stopped_hours_before_termination` must not exceed 8760 (one year).', 36),
        max_stopped_hours_before_termination: hours('Hours a workspace may stay stopped before it is terminated. Its sum with `max_active_hours_before_stop` must not exceed 8760 (one year).', 744),
        shared_namespace: { ...label('Create every workspace in this one namespace instead of one namespace per workspace. Empty: one namespace per workspace.', { since: '18.0', def: '' }), pattern: '^$|' + DNS1123_LABEL },
        partial_sync_interval: removed('17.0', '`partial_sync_interval` was removed in GitLab 17.0; the interval is now a GitLab setting (10 s).'),
        full_sync_interval: removed('17.0', '`full_sync_interval` was removed in GitLab 17.0; the interval is now a GitLab setting (3600 s).'),
      },
      {
        ...doc('Workspaces (remote development) settings (Premium/Ultimate). GitLab merges them over its defaults; while one is invalid, none can be updated.', { since: '15.11' }),
        // docs/gitlab-behaviour.md#remote_development-settings cross-field rules JSON Schema can express; each `then` fails on the offending key
        // itself, with an `errorMessage` that yaml-language-server shows too. The sum of hours and
        // the image pull secrets' uniqueness are checked by the server (crossFieldChecks.ts).
        allOf: [
          {
            if: { required: ['shared_namespace'], properties: { shared_namespace: { type: 'string', minLength: 1 } } },
            then: {
              properties: {
                max_resources_per_workspace: {
                  type: 'object',
                  maxProperties: 0,
                  errorMessage: '`max_resources_per_workspace` must be `{}` when `shared_namespace` is set: workspaces sharing a namespace cannot each have a ResourceQuota.',
                },
              },
            },
          },
          {
            if: { properties: { use_kubernetes_user_namespaces: { not: { const: true } }, default_runtime_class: { type: 'string', maxLength: 0 } } },
            then: {
              properties: {
                allow_privilege_escalation: {
                  type: 'boolean',
                  const: false,
                  errorMessage: '`allow_privilege_escalation: true` needs `use_kubernetes_user_namespaces: true` or a non-empty `default_runtime_class`.',
                },
              },
            },
          },
          {
            if: {
              required: ['enabled'],
              properties: { enabled: { const: true }, gitlab_workspaces_proxy: { not: { type: 'object', required: ['http_enabled'], properties: { http_enabled: { const: false } } } } },
            },
            then: { required: ['dns_zone'], properties: { dns_zone: true }, errorMessage: '`dns_zone` is required when workspaces are enabled (unless `gitlab_workspaces_proxy.http_enabled` is `false`).' },
          },
        ],
      },
    ),
    observability: obj(
      {
        logging: obj(
          { level: logLevel('Log level of the agent.', 'info'), grpc_level: logLevel('Log level of the agent\'s gRPC layer.', 'error') },
          doc('Agent logging.'),
        ),
        google_profiler: obj(
          {
            enabled: bool('Enable the Google Cloud profiler.'),
            project_id: str('Google Cloud project ID.'),
            credentials_file: str('Path of the credentials file.'),
            debug_logging: bool('Profiler debug logging.'),
          },
          doc('Google Cloud profiler.'),
        ),
      },
      doc('Observability settings of the agent.'),
    ),
    container_scanning: obj(
      {
        cadence: str('Cron expression (UTC, evaluated by the agent) of the scan schedule; required. Officially supported: daily at an hour (`"0 18 * * *"`) and weekly (`"0 13 * * 0"`).', {}, {
          minLength: 1,
          'x-format': 'cron',
          // docs/gitlab-behaviour.md#values-that-fail-later: KAS only requires a non-empty string; the agent's
          // robfig/cron standard parser (five fields, or a descriptor such as @daily / @every 1h) refuses the rest later.
          'x-failsLater': {
            pattern: '^\\s*(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|@every\\s+\\S+|\\S+(\\s+\\S+){4})\\s*$',
            requirement: 'is not a cron expression of five fields (minute hour day-of-month month day-of-week) such as "0 18 * * *"',
            when: 'GitLab accepts the file, but the agent cannot parse the schedule when it loads the configuration: it logs an error and runs no scans',
          },
        }),
        vulnerability_report: obj(
          {
            namespaces: { type: 'array', items: label('A namespace to scan.'), ...doc('Namespaces to scan. Default: none.') },
            resource_types: {
              type: 'array',
              items: { type: 'string', enum: ['Pod', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'CronJob', 'Job', 'Deployment'], ...doc('A workload kind.') },
              ...doc('Resource kinds to scan.', { since: '17.9' }),
            },
            filters: {
              type: 'array',
              ...doc('Scan filters.'),
              items: obj(
                {
                  namespaces: strings('Namespaces the filter matches.', {}, 'A namespace.'),
                  resources: strings('Resource names the filter matches.', {}, 'A resource name.'),
                  containers: strings('Container names the filter matches.', {}, 'A container name.'),
                  kinds: strings('Kinds the filter matches.', {}, 'A kind.'),
                },
                doc('One filter.'),
              ),
            },
          },
          doc('What to scan.'),
        ),
        resource_requirements: obj({ requests: quantities('Requests of the scanner pods.'), limits: quantities('Limits of the scanner pods.') }, doc('Resources of the scanner pods.')),
        trivy_k8s_wrapper_image: obj({ repository: str('Image repository.') }, doc('Custom scanner image.')),
        scanner_timeout: duration('Timeout of one scan.', { since: '17.7', def: '300s' }),
        // A uint64: protojson accepts a number or a decimal string (docs/gitlab-behaviour.md#container_scanning).
        report_max_size: { type: ['integer', 'string'], pattern: '^[0-9]+$', minimum: 0, patternErrorMessage: 'must be a whole number of bytes', ...doc('Maximum report size in bytes.', { since: '17.7', def: 100000000 }) },
        delete_report_artifact: bool('Delete the report artifact after it is read.', { since: '17.9', def: true }),
        severity_threshold: { type: 'string', enum: ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'], ...doc('Lowest severity reported; less severe findings are dropped.', { since: '18.4' }) },
      },
      // docs/gitlab-behaviour.md#container_scanning-cadence: PGV `min_len: 1` on cadence, so a section without one is refused.
      { required: ['cadence'], ...doc('Operational container scanning (Ultimate). `cadence` is required.') },
    ),
    flux: obj(
      {
        webhook_receiver_url: str(
          'Flux Receiver the agent calls when a GitLab project referenced by a `GitRepository` is pushed to. A URL of the form `/api/v1/namespaces/<ns>/services/<svc>/proxy` is called through the Kubernetes API service proxy with the agent\'s credentials.',
          { def: 'http://webhook-receiver.flux-system.svc.cluster.local' },
          {
            'x-format': 'url',
            // docs/gitlab-behaviour.md#values-that-fail-later: a plain proto string for KAS; the agent fails when it calls it.
            'x-failsLater': {
              pattern: '^(https?://\\S+|/api/v1/namespaces/[^/]+/services/[^/]+/proxy\\S*)$',
              requirement: 'is not an http(s) URL or a Kubernetes service proxy path (/api/v1/namespaces/<ns>/services/<svc>/proxy)',
              when: 'GitLab accepts the file, but each time a push should trigger Flux the agent\'s call to the receiver fails, so Flux reconciles only on its own interval',
            },
          },
        ),
      },
      doc('Flux integration.'),
    ),
    // docs/gitlab-behaviour.md#removed-keys: Flux replaces gitops, but not key for key (no quick fix renames it); starboard's settings
    // moved unchanged to container_scanning, so that one is a rename.
    gitops: removed('18.0', '`gitops` (pull-based deployment) was deprecated in 16.2 and removed in GitLab 18.0; use Flux.', {
      replacement: 'flux',
      advice: 'Delete the section and deploy with Flux: https://docs.gitlab.com/user/clusters/agent/gitops/migrate_to_flux/',
    }),
    starboard: removed('16.0', '`starboard` was removed in GitLab 16.0; use `container_scanning`.', { replacement: 'container_scanning', renameTo: 'container_scanning' }),
    cilium: removed('15.0', '`cilium` was removed in GitLab 15.0.'),
  },
};

writeFileSync(path.join(here, '..', 'agent-config.schema.json'), JSON.stringify(schema, null, 2) + '\n');
console.log('wrote schemas/agent-config.schema.json');
