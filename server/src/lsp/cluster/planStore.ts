import { randomUUID } from 'node:crypto';
import type { ApplyPlan } from '../../cluster/apply/plan';
import type { DestroyPlan } from '../../cluster/destroy/plan';
import type { ClusterTarget } from '../../protocol/cluster';

/** Plans the user has seen but not yet confirmed, with the cluster they were made against. */
export type StoredPlan =
  | { readonly kind: 'apply'; readonly plan: ApplyPlan; readonly target: ClusterTarget; readonly title: string }
  | { readonly kind: 'destroy'; readonly plan: DestroyPlan; readonly target: ClusterTarget; readonly title: string };

/**
 * Plans kept in the server by id: execute carries out exactly what was previewed, the client only
 * holds a handle it cannot alter. A plan is used at most once and forgotten after
 * {@link PLAN_TTL_MS}, because the cluster moves on and an old preview would lie.
 */
export const PLAN_TTL_MS = 15 * 60_000;

interface Entry {
  readonly plan: StoredPlan;
  readonly createdAt: number;
}

export class PlanStore {
  private readonly plans = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  add(plan: StoredPlan): string {
    this.expire();
    const id = randomUUID();
    this.plans.set(id, { plan, createdAt: this.now() });
    return id;
  }

  /** Removes and returns the plan: a plan is executed at most once. */
  take(id: string): StoredPlan | undefined {
    this.expire();
    const entry = this.plans.get(id);
    this.plans.delete(id);
    return entry?.plan;
  }

  discard(id: string): void {
    this.plans.delete(id);
  }

  get size(): number {
    return this.plans.size;
  }

  private expire(): void {
    const oldest = this.now() - PLAN_TTL_MS;
    for (const [id, entry] of this.plans) if (entry.createdAt < oldest) this.plans.delete(id);
  }
}
