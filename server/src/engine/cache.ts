/**
 * The engine's caches of values computed from plain keys (texts, names, versions). Each keeps at
 * most `limit` entries (or `limit` units by its own measure) and lets the least recently used go
 * first; every one is registered, so a test or a benchmark can start from cold caches
 * (`clearEngineCaches`). A memo about one object is a WeakMap on that object instead: it goes
 * when the object goes, and no input can make it grow.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();
  private size = 0;

  /** `sizeOf` measures an entry (default: 1 each, so `limit` counts entries). */
  constructor(
    private readonly limit: number,
    private readonly sizeOf: (key: K, value: V) => number = () => 1,
  ) {
    registered.push(this);
  }

  /** The value for `key`, computed (and kept) on a miss. */
  get(key: K, compute: (key: K) => V): V {
    const entries = this.entries;
    const hit = entries.get(key);
    if (hit !== undefined || entries.has(key)) {
      // Map iteration is insertion order: inserted again, the entry is the most recent.
      entries.delete(key);
      entries.set(key, hit as V);
      return hit as V;
    }
    const value = compute(key);
    entries.set(key, value);
    this.size += this.sizeOf(key, value);
    for (const [oldKey, oldValue] of entries) {
      if (this.size <= this.limit || entries.size === 1) break;
      entries.delete(oldKey);
      this.size -= this.sizeOf(oldKey, oldValue);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }
}

const registered: { clear(): void }[] = [];

/** Remembers the reset of a one-value memo (the last parse of a text), so `clearEngineCaches` clears it too. */
export function resetWithEngineCaches(reset: () => void): void {
  registered.push({ clear: reset });
}

/** Empties every engine cache: for tests and benchmarks that must not depend on what ran before. */
export function clearEngineCaches(): void {
  for (const cache of registered) cache.clear();
}
