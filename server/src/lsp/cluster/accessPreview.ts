/**
 * The RBAC section of hovers on `namespace:`, `default_namespace:` and `access_as:`: for each
 * distinct identity × namespace the simulation gives, what the user's cluster says that identity may
 * do there. Asked only when the client named a cluster in a trusted workspace; answers are kept for
 * a short while (a hover is read many times), and a cluster slower than a hover can wait is said to be so.
 */
import type { Connection } from 'vscode-languageserver';
import type { JobIdentity } from '../../engine/api';
import type { AccessReviewAnswer } from './accessReview';
import { onCustomNotification } from '../customRequests';
import { CLUSTER_TARGET_NOTIFICATION, type ClusterInitializationOptions, type ClusterTarget } from '../../protocol/cluster';
import type { WorkspaceTrust } from './trust';

/** One scenario's identity and namespace, as the simulation decided them. */
export interface PreviewRequest {
  readonly scenario: string;
  readonly identity: JobIdentity;
  readonly namespace: string | null;
}

const KEEP_MS = 30_000;
const HOVER_WAIT_MS = 4_000;
/** At most this many distinct identity × namespace pairs per hover (each is one batch of reviews). */
const MAX_PAIRS = 4;
/** The simulation view's batch: pairs asked at once (each a batch of reviews itself), and how long the user waits at most. */
const VIEW_CONCURRENCY = 2;
const VIEW_WAIT_MS = 30_000;

/** One identity × namespace, as the answers are kept and as the simulation view names its cells' questions. */
export function previewKey(identity: JobIdentity, namespace: string | null): string {
  return JSON.stringify([identity, namespace]);
}

export class AccessPreviewService {
  private target: ClusterTarget | null = null;
  private readonly answers = new Map<string, { at: number; answer: Promise<AccessReviewAnswer> }>();

  constructor(private readonly trust: WorkspaceTrust) {}

  initialize(options: unknown): void {
    const cluster = (options as ClusterInitializationOptions | null | undefined)?.cluster;
    this.target = cluster && typeof cluster === 'object' ? cluster : null;
  }

  listen(connection: Connection): void {
    onCustomNotification(connection, CLUSTER_TARGET_NOTIFICATION, (params) => {
      this.target = params?.cluster && typeof params.cluster === 'object' ? params.cluster : null;
      this.answers.clear();
    });
  }

  /** The cluster a preview would ask, or why none can be asked (the simulation view says so before anyone clicks). */
  availability(): { context: string | null } | { unavailable: string } {
    if (!this.trust.isTrusted) return { unavailable: 'this workspace is not trusted, so no cluster is asked (Manage Workspace Trust)' };
    if (!this.target) return { unavailable: "no cluster is selected: pick a context with 'GitLab Agent: Select Cluster Context' or set gitlabAgentConfig.cluster.kubeconfig" };
    return { context: this.target.context ?? null };
  }

  /**
   * The answers for the simulation view's pairs, keyed by {@link previewKey}: asked {@link VIEW_CONCURRENCY}
   * pairs at a time through the same short-lived cache as hovers, each waited for {@link VIEW_WAIT_MS} at most.
   */
  async review(requests: readonly Omit<PreviewRequest, 'scenario'>[]): Promise<Map<string, AccessReviewAnswer>> {
    const target = this.target;
    const answers = new Map<string, AccessReviewAnswer>();
    if (!target || !this.trust.isTrusted) return answers;
    const queue = [...new Map(requests.map((r) => [previewKey(r.identity, r.namespace), r])).entries()];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, pair] = next;
        answers.set(key, await this.withDeadline(this.answer(target, key, pair), VIEW_WAIT_MS, 'check again to see it'));
      }
    };
    await Promise.all(Array.from({ length: VIEW_CONCURRENCY }, worker));
    return answers;
  }

  /** The markdown section, or undefined when no cluster is connected (nothing to say, nothing guessed). */
  async section(requests: readonly PreviewRequest[]): Promise<string | undefined> {
    const target = this.target;
    if (!target || !this.trust.isTrusted || requests.length === 0) return undefined;
    const pairs = new Map<string, PreviewRequest & { scenarios: string[] }>();
    for (const r of requests) {
      const key = previewKey(r.identity, r.namespace);
      const pair = pairs.get(key);
      if (pair) pair.scenarios.push(r.scenario);
      else pairs.set(key, { ...r, scenarios: [r.scenario] });
    }
    const shown = [...pairs.entries()].slice(0, MAX_PAIRS);
    const lines = await Promise.all(
      shown.map(async ([key, pair]) => {
        const answer = await this.withDeadline(this.answer(target, key, pair), HOVER_WAIT_MS, 'hover again to see it');
        const who = pair.scenarios.map((s) => `*${s}*`).join(', ');
        return answer.ok ? `- ${who}: ${answer.summary}` : `- ${who}: the cluster cannot answer — ${answer.message}`;
      }),
    );
    const context = target.context ? `context \`${target.context}\`` : "the kubeconfig's current context";
    const more = pairs.size > MAX_PAIRS ? [`- … ${pairs.size - MAX_PAIRS} more identities or namespaces (\`agentcfg can-i\` asks for one)`] : [];
    return [`**What the job may do in the cluster** (SubjectAccessReview, ${context})`, '', ...lines, ...more].join('\n');
  }

  private answer(target: ClusterTarget, key: string, pair: Omit<PreviewRequest, 'scenario'>): Promise<AccessReviewAnswer> {
    const cacheKey = JSON.stringify([target, key]);
    const kept = this.answers.get(cacheKey);
    if (kept && Date.now() - kept.at < KEEP_MS) return kept.answer;
    const answer = import('./commandGroups').then(({ reviewJobAccess }) => reviewJobAccess(target, pair.identity, pair.namespace)).catch((err: unknown) => ({ ok: false as const, message: err instanceof Error ? err.message : String(err) }));
    this.answers.set(cacheKey, { at: Date.now(), answer });
    return answer;
  }

  private withDeadline(answer: Promise<AccessReviewAnswer>, waitMs: number, retry: string): Promise<AccessReviewAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<AccessReviewAnswer>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, message: `no answer within ${waitMs / 1000} s (${retry})` }), waitMs);
    });
    return Promise.race([answer, late]).finally(() => clearTimeout(timer));
  }
}
