/**
 * A connection to one cluster through one kubeconfig context. Everything that talks to Kubernetes
 * goes through a {@link ClusterSession}; it never writes the kubeconfig.
 */
import { CLI_ADVICE, type KubeconfigAdvice } from './advice';
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, Watch, type Cluster, type Context, type RequestContext, type User, type V1APIResource } from '@kubernetes/client-node';
import { ok, type ClusterFailure, type ClusterOutcome } from './outcome';
import { RequestCounter } from './requests';

/** The field manager of every server-side apply this tool makes (fixed, so re-applies own the same fields). */
export const FIELD_MANAGER = 'gitlab-agent-config';

const IDLE_SOCKET_TIMEOUT_MS = 30_000;

/** One context of the kubeconfig. */
export interface ContextInfo {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
  /** The cluster's server URL, when the cluster entry exists. */
  readonly server?: string;
  /** Whether it is the kubeconfig's current-context. */
  readonly current: boolean;
}



/** Where the kubeconfig is: a path or a list joined with the platform's delimiter, as `KUBECONFIG`. */
export interface KubeconfigOptions {
  /** Default: `$KUBECONFIG`, else `~/.kube/config`. */
  readonly kubeconfigPath?: string;
  /** Default {@link CLI_ADVICE}. */
  readonly advice?: KubeconfigAdvice;
}

/** Which context to open; default: the kubeconfig's current-context. */
export interface SessionOptions extends KubeconfigOptions {
  readonly context?: string;
  /**
   * Once aborted, the session sends no new request (each fails as cancelled); requests already sent
   * finish. A backstop for code paths that start a request or a watch without checking the signal.
   */
  readonly signal?: AbortSignal;
}

/** KubernetesObjectApi with its discovery lookup made public (for watch paths and scope checks). */
export class SessionObjectApi extends KubernetesObjectApi {
  /** The API resource (plural name, namespaced) serving `kind` in `apiVersion`; undefined when not served. Cached per apiVersion. */
  resourceFor(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    return this.resource(apiVersion, kind);
  }

  /** Every resource `apiVersion` serves (one discovery request, shared with {@link resourceFor}'s cache). */
  async resourcesOf(apiVersion: string): Promise<V1APIResource[]> {
    if (!this.apiVersionResourceCache[apiVersion]) await this.resource(apiVersion, '');
    return this.apiVersionResourceCache[apiVersion]?.resources ?? [];
  }

  /** Uses the context's namespace as default, as KubernetesObjectApi.makeApiClient does. */
  useDefaultNamespaceOf(kc: KubeConfig): void {
    this.setDefaultNamespace(kc);
  }
}

/** An open connection to a cluster. */
export interface ClusterSession {
  readonly kubeConfig: KubeConfig;
  /** The context in use. */
  readonly context: string;
  /** The API server URL. */
  readonly server: string;
  /** Generic object calls (any kind, CRDs included; discovery cached). */
  readonly objects: SessionObjectApi;
  readonly core: CoreV1Api;
  readonly watch: Watch;
  /** {@link FIELD_MANAGER}. */
  readonly fieldManager: string;
  /** Every HTTP request this session sent. */
  readonly requests: RequestCounter;
  /** Releases the kept-alive connections. */
  close(): void;
}

/**
 * A KubeConfig that counts each request and shares one keep-alive HTTPS agent. client-node 1.x
 * builds a fresh agent (and so a fresh TLS handshake) for every request; kubectl reuses
 * connections, and so do we. Generated and generic API calls pass through
 * applySecurityAuthentication once each; Watch (our only user of applyToFetchOptions) through
 * applyToFetchOptions once per watch request.
 */
class SessionKubeConfig extends KubeConfig {
  readonly requests = new RequestCounter();
  private sharedAgent: https.Agent | undefined;

  constructor(private readonly signal?: AbortSignal) {
    super();
  }

  private shareAgent<A extends object>(agent: A): A | https.Agent {
    // Proxy agents and plain-HTTP agents are left as they are.
    if (!(agent instanceof https.Agent) || agent.constructor !== https.Agent) return agent;
    // Idle sockets are closed after 30 s, well before kube-apiserver drops idle connections (90 s),
    // so a request never goes out on a socket the server is closing.
    this.sharedAgent ??= new https.Agent({ ...(agent as https.Agent).options, keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS });
    return this.sharedAgent;
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    this.signal?.throwIfAborted();
    this.requests.record(String(context.getHttpMethod()), context.getUrl());
    await super.applySecurityAuthentication(context);
    const agent = context.getAgent();
    if (agent) context.setAgent(this.shareAgent(agent));
  }

  override async applyToFetchOptions(opts: https.RequestOptions): ReturnType<KubeConfig['applyToFetchOptions']> {
    this.signal?.throwIfAborted();
    this.requests.record('GET', '/?watch=true');
    const init = await super.applyToFetchOptions(opts);
    if (init.agent instanceof https.Agent) init.agent = this.shareAgent(init.agent);
    return init;
  }

  close(): void {
    this.sharedAgent?.destroy();
    this.sharedAgent = undefined;
  }
}

/** The kubeconfig files to read: the option, else `$KUBECONFIG`, else `~/.kube/config`. */
export function kubeconfigFiles(kubeconfigPath?: string): string[] {
  const list = kubeconfigPath ?? process.env.KUBECONFIG ?? '';
  const files = list.split(path.delimiter).filter((f) => f !== '');
  return files.length > 0 ? files : [path.join(os.homedir(), '.kube', 'config')];
}

/**
 * Loads and merges the kubeconfig files like kubectl: the first file that defines a cluster, user,
 * context or current-context wins; missing files in a list are skipped (an explicit single file
 * must exist). Read only.
 */
export function loadKubeConfig(options: KubeconfigOptions = {}, into: KubeConfig = new KubeConfig()): ClusterOutcome<KubeConfig> {
  const files = kubeconfigFiles(options.kubeconfigPath);
  const present = files.filter((f) => existsSync(f));
  if (present.length === 0) {
    return { type: 'failed', message: `No kubeconfig found (looked at ${files.join(', ')}). ${(options.advice ?? CLI_ADVICE).noKubeconfig}` };
  }
  const clusters: Cluster[] = [];
  const users: User[] = [];
  const contexts: Context[] = [];
  let currentContext = '';
  for (const file of present) {
    const kc = new KubeConfig();
    try {
      kc.loadFromFile(file);
    } catch (err) {
      return { type: 'failed', message: `Cannot read kubeconfig ${file}: ${err instanceof Error ? err.message : String(err)}` };
    }
    for (const c of kc.clusters) if (!clusters.some((x) => x.name === c.name)) clusters.push(c);
    for (const u of kc.users) if (!users.some((x) => x.name === u.name)) users.push(u);
    for (const c of kc.contexts) if (!contexts.some((x) => x.name === c.name)) contexts.push(c);
    currentContext ||= kc.currentContext ?? '';
  }
  into.loadFromOptions({ clusters, users, contexts, currentContext });
  return ok(into);
}

/** The contexts of the kubeconfig, with their server and which one is current. */
export function listContexts(kubeconfigPath?: string, advice?: KubeconfigAdvice): ClusterOutcome<ContextInfo[]> {
  const loaded = loadKubeConfig({ kubeconfigPath, ...(advice ? { advice } : {}) });
  if (loaded.type !== 'ok') return loaded;
  const kc = loaded.value;
  return ok(
    kc.getContexts().map((c) => ({
      name: c.name,
      cluster: c.cluster,
      user: c.user,
      ...(c.namespace ? { namespace: c.namespace } : {}),
      ...(kc.getCluster(c.cluster)?.server ? { server: kc.getCluster(c.cluster)?.server } : {}),
      current: c.name === kc.currentContext,
    })),
  );
}

/** Opens a session on a context (no request is sent until the first call). */
export function openSession(options: SessionOptions = {}): ClusterOutcome<ClusterSession> {
  const kc = new SessionKubeConfig(options.signal);
  const loaded = loadKubeConfig(options, kc);
  if (loaded.type !== 'ok') return loaded;
  const context = options.context ?? kc.currentContext;
  if (!context) return { type: 'failed', message: `The kubeconfig has no current-context; ${(options.advice ?? CLI_ADVICE).chooseContext}.` };
  if (!kc.getContextObject(context)) {
    return { type: 'failed', message: `The kubeconfig has no context "${context}" (contexts: ${kc.getContexts().map((c) => c.name).join(', ') || 'none'}).` };
  }
  kc.setCurrentContext(context);
  const cluster = kc.getCurrentCluster();
  if (!cluster) return { type: 'failed', message: `Context "${context}" names a cluster the kubeconfig does not define.` };
  const credentials = credentialProblem(context, cluster, kc.getCurrentUser());
  if (credentials) return credentials;
  const objects = kc.makeApiClient(SessionObjectApi);
  objects.useDefaultNamespaceOf(kc);
  return ok({
    kubeConfig: kc,
    context,
    server: cluster.server,
    objects,
    core: kc.makeApiClient(CoreV1Api),
    watch: new Watch(kc),
    fieldManager: FIELD_MANAGER,
    requests: kc.requests,
    close: () => kc.close(),
  });
}

/** One TLS input of a kubeconfig entry: the key the user writes, and the file or inline data. */
interface TlsInput {
  /** `client-key`, `client-certificate` or `certificate-authority` (the `-data` form when inline). */
  readonly field: string;
  /** What it is, in words. */
  readonly what: string;
  readonly file?: string;
  readonly data?: string;
}

function credentialFailure(context: string, message: string): ClusterFailure {
  return { type: 'unreachable', cause: 'credentials', context, message };
}

/** The bytes of a TLS input, or the failure that says why they cannot be read. */
function readTlsInput(context: string, input: TlsInput): Buffer | ClusterFailure | undefined {
  if (input.file) {
    try {
      return readFileSync(input.file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
      return credentialFailure(context, `Cannot read the ${input.what} ${input.file} (${input.field} of kubeconfig context "${context}"): ${code}`);
    }
  }
  return input.data ? Buffer.from(input.data, 'base64') : undefined;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function inputName(input: TlsInput): string {
  return input.file ? `${input.field} ${input.file}` : `${input.field}`;
}

/** Parses the PEM certificates of a TLS input; the failure says which field is not one. */
function certificates(context: string, input: TlsInput, bytes: Buffer): X509Certificate[] | ClusterFailure {
  const blocks = bytes.toString('utf8').match(PEM_CERTIFICATE) ?? [];
  const invalid = (why: string): ClusterFailure =>
    credentialFailure(context, `The ${input.what} of kubeconfig context "${context}" (${inputName(input)}) is not a PEM certificate (${why})`);
  if (blocks.length === 0) return invalid('no "-----BEGIN CERTIFICATE-----" block');
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch (err) {
    return invalid(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Reads and parses the client certificate and key and the CA a context names, before any request:
 * a file that cannot be read, data that is not PEM, or a key that does not belong to its certificate
 * is named (field, file, context), rather than surfacing per request as a network error.
 */
export function credentialProblem(context: string, cluster: Cluster, user: User | null): ClusterFailure | undefined {
  const ca: TlsInput = { field: cluster.caFile ? 'certificate-authority' : 'certificate-authority-data', what: 'certificate authority', file: cluster.caFile, data: cluster.caData };
  if (!cluster.skipTLSVerify) {
    const bytes = readTlsInput(context, ca);
    if (bytes && !Buffer.isBuffer(bytes)) return bytes;
    if (bytes) {
      const parsed = certificates(context, ca, bytes);
      if (!Array.isArray(parsed)) return parsed;
    }
  }
  if (!user) return undefined;
  const cert: TlsInput = { field: user.certFile ? 'client-certificate' : 'client-certificate-data', what: 'client certificate', file: user.certFile, data: user.certData };
  const key: TlsInput = { field: user.keyFile ? 'client-key' : 'client-key-data', what: 'client key', file: user.keyFile, data: user.keyData };
  const certBytes = readTlsInput(context, cert);
  if (certBytes && !Buffer.isBuffer(certBytes)) return certBytes;
  const keyBytes = readTlsInput(context, key);
  if (keyBytes && !Buffer.isBuffer(keyBytes)) return keyBytes;
  if (!certBytes && !keyBytes) return undefined;
  if (!certBytes || !keyBytes) {
    const [has, lacks] = certBytes ? [cert, key] : [key, cert];
    return credentialFailure(context, `The user of kubeconfig context "${context}" has a ${has.what} (${inputName(has)}) but no ${lacks.what} (${lacks.field.replace(/-data$/, '')} or ${lacks.field.replace(/-data$/, '')}-data)`);
  }
  const parsed = certificates(context, cert, certBytes);
  if (!Array.isArray(parsed)) return parsed;
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyBytes);
  } catch (err) {
    return credentialFailure(context, `The client key of kubeconfig context "${context}" (${inputName(key)}) is not a PEM private key (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!parsed[0].checkPrivateKey(privateKey)) {
    return credentialFailure(context, `The client key of kubeconfig context "${context}" (${inputName(key)}) does not belong to its client certificate (${inputName(cert)}, subject ${parsed[0].subject.replace(/\n/g, ', ')})`);
  }
  return undefined;
}
