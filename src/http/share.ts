// GET sharing for one client: identical concurrent GETs ride one request, and a parsed answer is
// kept for the TTL its request asks for. Each caller still stops waiting when its own signal fires.
import { LRUCache } from 'lru-cache';
import { raceAbort } from '../abort.ts';

export interface Share {
  /**
   * The value of `load` for `key`: from the cache while fresh (`onHit` is told), else from a load
   * already in flight, else from a new one (kept for `ttlMs` when it is above 0). A caller whose
   * `signal` fires stops waiting with `onAbort()`; the shared load goes on for the others.
   */
  get<T>(
    key: string,
    ttlMs: number | undefined,
    load: () => Promise<T>,
    waiter?: { signal: AbortSignal; onAbort: () => Error },
    onHit?: () => void,
  ): Promise<T>;
  clear(): void;
}

export function createShare(now: () => number, max = 2_000): Share {
  const cache = new LRUCache<string, { value: unknown }>({
    max,
    ttlAutopurge: false,
    ttlResolution: 0,
    perf: { now },
  });
  const inflight = new Map<string, Promise<unknown>>();
  return {
    get<T>(
      key: string,
      ttlMs: number | undefined,
      load: () => Promise<T>,
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
          (value) => {
            inflight.delete(key);
            if (caches) cache.set(key, { value }, { ttl: ttlMs });
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
