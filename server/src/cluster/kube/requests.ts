/**
 * Counts every HTTP request a session sends to the API server (generated API calls, generic object
 * calls, discovery, watches). The benchmark reports these figures, and the tests use them to prove
 * that a re-apply of an unchanged environment writes nothing.
 */

/** A snapshot of the counters. */
export interface RequestCounts {
  /** Every request. */
  readonly total: number;
  /** GET requests other than watches (reads, lists, discovery). */
  readonly reads: number;
  /** Watch requests (`?watch=true`). */
  readonly watches: number;
  /** Requests that change the cluster: POST/PUT/PATCH/DELETE without `dryRun`. */
  readonly writes: number;
  /** Writes sent with `dryRun=All` (they change nothing). */
  readonly dryRuns: number;
}

const ZERO: RequestCounts = { total: 0, reads: 0, watches: 0, writes: 0, dryRuns: 0 };

/** Mutable counters shared by everything a session creates. */
export class RequestCounter {
  private counts: RequestCounts = ZERO;

  /** Records one request by method and URL. */
  record(method: string, url: string): void {
    const verb = method.toUpperCase();
    const query = new URL(url, 'http://x').searchParams;
    const c = this.counts;
    if (verb === 'GET') {
      this.counts = query.get('watch') === 'true' ? { ...c, total: c.total + 1, watches: c.watches + 1 } : { ...c, total: c.total + 1, reads: c.reads + 1 };
    } else if (query.has('dryRun')) {
      this.counts = { ...c, total: c.total + 1, dryRuns: c.dryRuns + 1 };
    } else {
      this.counts = { ...c, total: c.total + 1, writes: c.writes + 1 };
    }
  }

  /** The counts so far. */
  snapshot(): RequestCounts {
    return this.counts;
  }

  /** The difference between now and an earlier snapshot. */
  since(before: RequestCounts): RequestCounts {
    const now = this.counts;
    return {
      total: now.total - before.total,
      reads: now.reads - before.reads,
      watches: now.watches - before.watches,
      writes: now.writes - before.writes,
      dryRuns: now.dryRuns - before.dryRuns,
    };
  }
}
