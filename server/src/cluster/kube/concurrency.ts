/** Bounded concurrency for the objects of one apply/delete tier. */

/** Default number of requests in flight per tier (kubectl's default QPS burst is 10). */
export const DEFAULT_CONCURRENCY = 8;

/** Maps `items` with at most `limit` calls of `fn` running at once; results keep the input order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
