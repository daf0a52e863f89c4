// GET sharing for one client: identical concurrent GETs ride one request, and a parsed answer is
// kept for the TTL its request asks for. Each caller still stops waiting when its own signal fires.
// The cache is bounded by entries and by the bytes its answers came in (their parsed values take
// a few times that in memory, in proportion), so a provider's few huge answers cannot fill it.
import { LRUCache } from 'lru-cache';
import { raceAbort } from '../abort.ts';
import { HTTP_DEFAULTS } from './policy.ts';

interface Share {
  /**
   * The value of `load` for `key`: from the cache while fresh (`onHit` is told), else from a load
   * already in flight, else from a new one (kept for `ttlMs` when it is above 0, counted as the
   * `bytes` of the answer it came from). A caller whose `signal` fires stops waiting with
   * `onAbort()`; the shared load goes on for the others.
   */
  get<T>(
    key: string,
    ttlMs: number | undefined,
    load: () => Promise<{ value: T; bytes: number }>,
    waiter?: { signal: AbortSignal; onAbort: () => Error },
    onHit?: () => void,
  ): Promise<T>;
  clear(): void;
}

/** Answers one client keeps at most, and the bytes they came in: eight answers of the largest size. */
const CACHE_MAX_ENTRIES = 2_000;
const CACHE_MAX_BYTES = 8 * HTTP_DEFAULTS.maxResponseBytes;

export function createShare(
  now: () => number,
  limits: { maxEntries: number; maxBytes: number } = {
    maxEntries: CACHE_MAX_ENTRIES,
    maxBytes: CACHE_MAX_BYTES,
  },
): Share {
  const cache = new LRUCache<string, { value: unknown; bytes: number }>({
    max: limits.maxEntries,
    maxSize: limits.maxBytes,
    // At least 1: lru-cache refuses a size of 0 (an empty body).
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    ttlAutopurge: false,
    ttlResolution: 0,
    perf: { now },
  });
  const inflight = new Map<string, Promise<unknown>>();
  return {
    get<T>(
      key: string,
      ttlMs: number | undefined,
      load: () => Promise<{ value: T; bytes: number }>,
      waiter?: { signal: AbortSignal; onAbort: () => Error },
      onHit?: () => void,
    ): Promise<T> {
      const caches = ttlMs !== undefined && ttlMs > 0;
      const hit = caches ? cache.get(key) : undefined;
      if (hit) {
        onHit?.();
        return Promise.resolve(hit.value as T);
      }
      let pending = inflight.get(key) as Promise<T> | undefined;
      if (!pending) {
        pending = load().then(
          ({ value, bytes }) => {
            inflight.delete(key);
            if (caches) cache.set(key, { value, bytes }, { ttl: ttlMs });
            return value;
          },
          (err: unknown) => {
            inflight.delete(key);
            throw err;
          },
        );
        inflight.set(key, pending);
      }
      return waiter ? raceAbort(pending, waiter.signal, waiter.onAbort) : pending;
    },
    clear: () => cache.clear(),
  };
}
