/**
 * Helpers for the cluster tests: they run against the real control plane of test/cluster (etcd,
 * kube-apiserver, kube-controller-manager on 127.0.0.1), started once per test run by
 * scripts/lib/cluster-suite.mjs and shared by every cluster test file.
 *
 * Waiting is always on a real signal (a watch event, or a poll of the API with a deadline), never a
 * fixed sleep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  RbacAuthorizationV1Api,
  Watch,
  setHeaderOptions,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';

const here = import.meta.dirname;
const root = path.resolve(here, '..', '..');

/** Which identity of the test kubeconfig to act as. */
export type Identity = 'admin' | 'restricted';

/** Where the running control plane is and who may do what in it. */
export interface ClusterEnv {
  /** Kubeconfig with both contexts. */
  kubeconfig: string;
  /** Context of the cluster administrator (system:masters). */
  adminContext: string;
  /** Context of a user bound to ClusterRole `admin` in `restrictedNamespace` only. */
  restrictedContext: string;
  /** The one namespace the restricted identity may manage objects in. */
  restrictedNamespace: string;
  /** The state file of scripts/cluster.mjs (JSON). */
  stateFile: string;
  /** kubectl built from the same Kubernetes release. */
  kubectl: string;
}

/** Field manager the harness uses for its own server-side applies. */
export const HARNESS_FIELD_MANAGER = 'agentcfg-test-harness';
/** Label put on every namespace uniqueNamespace() creates. */
export const TEST_NAMESPACE_LABEL = 'agentcfg.test/ephemeral';

interface ClusterSuiteModule {
  beforeClusterSuite(): Promise<Record<string, string>>;
}

let envPromise: Promise<ClusterEnv> | undefined;

/**
 * The running control plane. Under `npm test` scripts/test.mjs has started it and passed its
 * coordinates in AGENTCFG_TEST_*; when a cluster test file runs on its own, this starts it through
 * the same code path (and leaves it running for the next run: `npm run cluster:down` stops it).
 */
export function clusterEnv(): Promise<ClusterEnv> {
  envPromise ??= (async () => {
    if (process.env.AGENTCFG_TEST_CLUSTER_ERROR) {
      throw new Error(`the test control plane is not available: ${process.env.AGENTCFG_TEST_CLUSTER_ERROR}`);
    }
    if (!process.env.AGENTCFG_TEST_KUBECONFIG) {
      const suite = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'cluster-suite.mjs')).href)) as ClusterSuiteModule;
      Object.assign(process.env, await suite.beforeClusterSuite());
      if (process.env.AGENTCFG_TEST_CLUSTER_ERROR) {
        throw new Error(`the test control plane is not available: ${process.env.AGENTCFG_TEST_CLUSTER_ERROR}`);
      }
    }
    const need = (name: string): string => {
      const value = process.env[name];
      if (!value) throw new Error(`${name} is not set; start the cluster suite with \`npm run test:cluster\``);
      return value;
    };
    return {
      kubeconfig: need('AGENTCFG_TEST_KUBECONFIG'),
      adminContext: need('AGENTCFG_TEST_ADMIN_CONTEXT'),
      restrictedContext: need('AGENTCFG_TEST_RESTRICTED_CONTEXT'),
      restrictedNamespace: need('AGENTCFG_TEST_RESTRICTED_NAMESPACE'),
      stateFile: need('AGENTCFG_TEST_CLUSTER_STATE'),
      kubectl: need('AGENTCFG_KUBECTL'),
    };
  })();
  return envPromise;
}

/** A KubeConfig for the given identity, its current context set accordingly. */
export async function kubeConfig(identity: Identity = 'admin'): Promise<KubeConfig> {
  const env = await clusterEnv();
  const kc = new KubeConfig();
  kc.loadFromFile(env.kubeconfig);
  kc.setCurrentContext(identity === 'admin' ? env.adminContext : env.restrictedContext);
  return kc;
}

/** The HTTP status of a failed API call (client-node's ApiException), or undefined. */
export function statusCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Polls `check` until it returns a value other than undefined/false, failing after `timeoutMs`
 * with the description and the last error `check` threw. For conditions no watch reports directly.
 */
export async function waitFor<T>(
  description: string,
  check: () => Promise<T | undefined | false>,
  { timeoutMs = 60_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const why = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Waits until the object `name` is gone: reads it (404 means done), then watches its collection
 * (`collectionPath`, e.g. `/api/v1/namespaces`) from that resourceVersion for its DELETED event.
 * A watch the server closes early is re-established; the whole wait fails after `timeoutMs`.
 */
export async function waitUntilDeleted(
  kc: KubeConfig,
  collectionPath: string,
  name: string,
  read: () => Promise<KubernetesObject>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const watch = new Watch(kc);
  while (Date.now() < deadline) {
    let resourceVersion: string | undefined;
    try {
      resourceVersion = (await read()).metadata?.resourceVersion;
    } catch (err) {
      if (statusCode(err) === 404) return;
      throw err;
    }
    let timer: NodeJS.Timeout | undefined;
    let controller: AbortController | undefined;
    const outcome = await new Promise<'deleted' | 'closed' | 'timeout'>((resolve, reject) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
      watch
        .watch(
          collectionPath,
          { fieldSelector: `metadata.name=${name}`, resourceVersion, allowWatchBookmarks: true },
          (phase) => {
            if (phase === 'DELETED') resolve('deleted');
          },
          () => resolve('closed'),
        )
        .then((c) => {
          controller = c;
        }, reject);
    }).finally(() => {
      clearTimeout(timer);
      controller?.abort();
    });
    if (outcome === 'deleted') return;
    if (outcome === 'timeout') break;
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${collectionPath}/${name} to be deleted`);
}

const createdNamespaces = new Set<string>();

/**
 * Creates a namespace with a unique name starting with `prefix` (as admin) and deletes it when the
 * test ends: through `t.after` when the test context is given, otherwise through node:test's
 * `after` hook of the test that is running. Deletion is requested, not awaited to completion (the
 * namespace controller finishes it in the background).
 */
export async function uniqueNamespace(prefix: string, t?: TestContext): Promise<string> {
  const kc = await kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  const clean = prefix.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'test';
  const name = `${clean}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  await core.createNamespace({ body: { metadata: { name, labels: { [TEST_NAMESPACE_LABEL]: 'true' } } } });
  createdNamespaces.add(name);
  const cleanup = async (): Promise<void> => {
    if (!createdNamespaces.delete(name)) return;
    try {
      await core.deleteNamespace({ name });
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
  };
  if (t) t.after(cleanup);
  else after(cleanup);
  return name;
}

/**
 * A Role in `namespace` that lets every CI job (group `gitlab:ci_job`) get, create and patch
 * Deployments, bound to that group; the namespace is created when missing. When the test ends the
 * namespace goes if this made it, else only the Role and its binding.
 */
export async function grantCiJobsDeployments(namespace: string, rolePrefix: string, t: TestContext): Promise<void> {
  const kc = await kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const created = await core.createNamespace({ body: { metadata: { name: namespace } } }).then(
    () => true,
    (err: unknown) => {
      if (statusCode(err) !== 409) throw err;
      return false;
    },
  );
  const role = `${rolePrefix}-${Date.now().toString(36)}`;
  await rbac.createNamespacedRole({ namespace, body: { metadata: { name: role }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'create', 'patch'] }] } });
  await rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name: role }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'gitlab:ci_job' }] } });
  t.after(async () => {
    if (created) await core.deleteNamespace({ name: namespace }).catch(() => undefined);
    else {
      await rbac.deleteNamespacedRoleBinding({ namespace, name: role }).catch(() => undefined);
      await rbac.deleteNamespacedRole({ namespace, name: role }).catch(() => undefined);
    }
  });
}

/** A Flux kind whose CRD installFluxCrds() installs. */
export interface FluxKind {
  group: string;
  kind: string;
  plural: string;
  /** Served versions, the storage version first. */
  versions: string[];
}

const crdDir = path.join(here, 'crds');
let fluxPromise: Promise<FluxKind[]> | undefined;

/** The CRDs of test/cluster/crds, parsed. */
export function fluxCrds(): V1CustomResourceDefinition[] {
  return readdirSync(crdDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(path.join(crdDir, f), 'utf8')).map((d) => d.toJSON() as V1CustomResourceDefinition))
    .filter((crd) => crd?.kind === 'CustomResourceDefinition');
}

/**
 * Installs (server-side apply, idempotent) the CRDs of the Flux kinds a GitLab environment template
 * may contain and waits until each is Established and served. Once per test process.
 */
export function installFluxCrds(kc?: KubeConfig): Promise<FluxKind[]> {
  fluxPromise ??= (async () => {
    const admin = kc ?? (await kubeConfig('admin'));
    const ext = admin.makeApiClient(ApiextensionsV1Api);
    const custom = admin.makeApiClient(CustomObjectsApi);
    const crds = fluxCrds();
    await Promise.all(
      crds.map((crd) =>
        ext.patchCustomResourceDefinition(
          { name: crd.metadata!.name!, body: crd, fieldManager: HARNESS_FIELD_MANAGER, force: true },
          setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
        ),
      ),
    );
    const kinds = crds.map((crd) => ({
      group: crd.spec.group,
      kind: crd.spec.names.kind,
      plural: crd.spec.names.plural,
      versions: crd.spec.versions.filter((v) => v.served).map((v) => v.name),
    }));
    await Promise.all(
      crds.map((crd) =>
        waitFor(`CRD ${crd.metadata!.name} to be Established`, async () => {
          const live = await ext.readCustomResourceDefinition({ name: crd.metadata!.name! });
          const established = live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
          return established === true;
        }),
      ),
    );
    // Established says the API server accepted the names; a list proves each version is served.
    await Promise.all(
      kinds.flatMap((k) =>
        k.versions.map((version) =>
          waitFor(`${k.plural}.${k.group}/${version} to be served`, async () => {
            await custom.listClusterCustomObject({ group: k.group, version, plural: k.plural, limit: 1 });
            return true;
          }),
        ),
      ),
    );
    return kinds;
  })();
  fluxPromise.catch(() => {
    fluxPromise = undefined;
  });
  return fluxPromise;
}
