// Generates schemas/agent-config.schema.json from one readable description of spec §1.
// Why a generator: the ci_access entry shape repeats (projects, groups, instance), descriptions and
// "since" metadata are easier to keep right in JavaScript, and the JSON stays the single artefact the
// server, the CLI and other editors (yaml-language-server) consume. Run: node schemas/src/build-agent-config-schema.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A key's documentation: `d` = what it does, `since` = first GitLab version, `def` = default. */
function doc(d, { since, def, extra } = {}) {
  const lines = [d];
  if (def !== undefined) lines.push(`Default: \`${JSON.stringify(def)}\`.`);
  if (since) lines.push(`Since GitLab ${since}.`);
  if (extra) lines.push(extra);
  return { description: lines.join(' '), markdownDescription: lines.join('\n\n'), ...(since ? { 'x-since': since } : {}) };
}

const obj = (properties, more = {}) => ({ type: 'object', additionalProperties: false, properties, ...more });
const str = (d, opts, more = {}) => ({ type: 'string', ...doc(d, opts), ...more });
const bool = (d, opts) => ({ type: 'boolean', ...doc(d, opts), ...(opts?.def !== undefined ? { default: opts.def } : {}) });

// §1.1: google.protobuf.Duration in protojson is a string of seconds with an `s` suffix.
const duration = (d, opts) => ({
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]{1,9})?s$',
  'x-format': 'duration',
  ...doc(d, { ...opts, extra: 'A protobuf duration: seconds with an `s` suffix, for example `"3600s"` (not `1h`).' }),
  ...(opts?.def !== undefined ? { default: opts.def } : {}),
});

// §4.1 DNS-1123 label.
const DNS1123_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const label = (d, opts) => ({ type: 'string', maxLength: 63, pattern: DNS1123_LABEL, 'x-format': 'dns1123Label', ...doc(d, opts) });

const removed = (since, message, replacement) => ({
  'x-removed': { since, message, ...(replacement ? { replacement } : {}) },
  deprecationMessage: message,
  description: message,
});

// §1.3 access_as: a protobuf oneof, so exactly one key.
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
        groups: { type: 'array', items: { type: 'string', minLength: 1 }, ...doc('Groups to impersonate.') },
        extra: {
          type: 'array',
          ...doc('Extra fields to impersonate.'),
          items: obj(
            {
              key: str('Extra field name.', {}, { minLength: 1 }),
              val: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, ...doc('Values of the extra field.') },
            },
            { required: ['key', 'val'] },
          ),
        },
      },
      { required: ['username'], ...doc('Impersonate a static identity (Premium/Ultimate).') },
    ),
  },
};

// Seed 003: the proposed `rules` design (`if`, `namespace`, `when: never`). Accepted under the
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
    environments: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      ...doc('Only jobs whose environment matches one of these names get the agent. `*` is a wildcard (GitLab matches it unanchored). Empty: every job.', { since: '15.7', def: [] }),
    },
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

const logLevel = (d, def) => ({ type: 'string', enum: ['info', 'debug', 'warn', 'error'], default: def, ...doc(d, { def }) });
const resources = (d) =>
  obj(
    {
      requests: obj({ cpu: { type: ['string', 'number'], ...doc('CPU quantity, e.g. `"500m"`.') }, memory: { type: 'string', ...doc('Memory quantity, e.g. `"512Mi"`.') } }, { ...doc('Requests.') }),
      limits: obj({ cpu: { type: ['string', 'number'], ...doc('CPU quantity.') }, memory: { type: 'string', ...doc('Memory quantity.') } }, { ...doc('Limits.') }),
    },
    { ...doc(d, { since: '16.8', def: {} }) },
  );
const quantities = (d) =>
  obj(
    { cpu: { type: ['string', 'number'], ...doc('CPU quantity.') }, memory: { type: 'string', ...doc('Memory quantity.') }, ephemeral_storage: { type: 'string', ...doc('Ephemeral storage quantity.') } },
    doc(d),
  );
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
        enabled: bool('Enable workspaces for this agent.', { since: '15.11', def: false }),
        dns_zone: str('DNS zone where workspaces are available.', {}, { 'x-format': 'hostname' }),
        gitlab_workspaces_proxy: obj(
          {
            namespace: label('Namespace of the GitLab workspaces proxy.', { def: 'gitlab-workspaces' }),
            http_enabled: bool('Allow HTTP access through the workspaces proxy.', { since: '18.5' }),
            ssh_enabled: bool('Allow SSH access through the workspaces proxy.', { since: '18.5' }),
          },
          doc('Workspaces proxy settings.'),
        ),
        network_policy: obj(
          {
            enabled: bool('Create a NetworkPolicy for each workspace.', { def: true }),
            egress: {
              type: 'array',
              ...doc('Allowed egress IP ranges.', { since: '16.7', def: [{ allow: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] }] }),
              items: obj(
                {
                  allow: str('CIDR allowed.', {}, { 'x-format': 'cidr' }),
                  except: { type: 'array', items: { type: 'string', 'x-format': 'cidr' }, ...doc('CIDRs excluded from `allow`.') },
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
        workspaces_per_user_quota: { type: 'integer', minimum: -1, default: -1, ...doc('Maximum workspaces per user; -1 unlimited.', { since: '16.9', def: -1 }) },
        use_kubernetes_user_namespaces: bool('Use Kubernetes user namespaces for workspaces.', { since: '17.4', def: false }),
        default_runtime_class: str('Runtime class of workspace pods (a DNS subdomain).', { since: '17.4', def: '' }, { maxLength: 253, pattern: '^$|^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' }),
        allow_privilege_escalation: bool('Allow privilege escalation in workspace containers; needs `use_kubernetes_user_namespaces` or `default_runtime_class`.', { since: '17.4', def: false }),
        image_pull_secrets: {
          type: 'array',
          ...doc('Image pull secrets made available to workspaces.', { since: '17.6', def: [] }),
          items: obj({ name: str('Secret name.', {}, { minLength: 1 }), namespace: str('Secret namespace.', {}, { minLength: 1 }) }, { required: ['name', 'namespace'], ...doc('One secret.') }),
        },
        annotations: { type: 'object', additionalProperties: { type: 'string' }, ...doc('Annotations added to every workspace object.', { since: '17.4', def: {} }) },
        labels: { type: 'object', additionalProperties: { type: 'string' }, ...doc('Labels added to every workspace object.', { since: '17.4', def: {} }) },
        max_active_hours_before_stop: hours('Hours a workspace may run before it is stopped.', 36),
        max_stopped_hours_before_termination: hours('Hours a workspace may stay stopped before it is terminated.', 744),
        shared_namespace: { ...label('Create every workspace in this one namespace instead of one namespace per workspace.', { since: '18.0', def: '' }), pattern: '^$|' + DNS1123_LABEL },
        partial_sync_interval: removed('17.0', '`partial_sync_interval` was removed in GitLab 17.0; the interval is now a GitLab setting (10 s).'),
        full_sync_interval: removed('17.0', '`full_sync_interval` was removed in GitLab 17.0; the interval is now a GitLab setting (3600 s).'),
      },
      doc('Workspaces (remote development) settings (Premium/Ultimate).', { since: '15.11' }),
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
        cadence: str('Cron expression (UTC) of the scan schedule, for example `"0 18 * * *"`.', {}, { minLength: 1, 'x-format': 'cron' }),
        vulnerability_report: obj(
          {
            namespaces: { type: 'array', items: { type: 'string' }, ...doc('Namespaces to scan.') },
            resource_types: { type: 'array', items: { type: 'string', enum: ['Pod', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'CronJob', 'Job', 'Deployment'] }, ...doc('Resource kinds to scan.', { since: '17.9' }) },
            filters: {
              type: 'array',
              ...doc('Scan filters.'),
              items: obj(
                {
                  namespaces: { type: 'array', items: { type: 'string' }, ...doc('Namespaces.') },
                  resources: { type: 'array', items: { type: 'string' }, ...doc('Resources.') },
                  containers: { type: 'array', items: { type: 'string' }, ...doc('Containers.') },
                  kinds: { type: 'array', items: { type: 'string' }, ...doc('Kinds.') },
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
        report_max_size: { type: ['integer', 'string'], pattern: '^[0-9]+$', minimum: 0, ...doc('Maximum report size in bytes.', { since: '17.7', def: 100000000 }) },
        delete_report_artifact: bool('Delete the report artifact after it is read.', { since: '17.9', def: true }),
        severity_threshold: { type: 'string', enum: ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'], ...doc('Lowest severity reported.', { since: '18.4' }) },
      },
      doc('Operational container scanning (Ultimate).'),
    ),
    flux: obj(
      { webhook_receiver_url: str('Flux Receiver the agent calls when a watched GitLab project is pushed to.', { def: 'http://webhook-receiver.flux-system.svc.cluster.local' }) },
      doc('Flux integration.'),
    ),
    gitops: removed('18.0', '`gitops` (pull-based deployment) was deprecated in 16.2 and removed in GitLab 18.0; use Flux.', 'flux'),
    starboard: removed('16.0', '`starboard` was removed in GitLab 16.0; use `container_scanning`.', 'container_scanning'),
    cilium: removed('15.0', '`cilium` was removed in GitLab 15.0.'),
  },
};

writeFileSync(path.join(here, '..', 'agent-config.schema.json'), JSON.stringify(schema, null, 2) + '\n');
console.log('wrote schemas/agent-config.schema.json');
