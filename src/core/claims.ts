// One answer per chat interaction: the first replica to claim an interaction's id runs it; the
// others (Discord sends each gateway dispatch to every session; Slack retries and redelivers)
// do nothing. The store implements it for replicas (Store.claimOnce); this is the in-process form.

export interface InteractionClaims {
  /** True for the first caller for `key` within `ttlMs`; false while that claim lives. */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
}

/** Discord's interaction tokens and Slack's response_url both live 15 minutes. */
export const INTERACTION_CLAIM_MS = 15 * 60_000;

/**
 * `claims` that answer true when the store cannot answer (Redis down): a store outage must not
 * silence the bot, so the interaction runs, at worst twice. `onError` is told each failure.
 */
export function failOpen(
  claims: InteractionClaims,
  onError: (err: unknown, key: string) => void,
): InteractionClaims {
  return {
    claimOnce: (key, ttlMs) =>
      claims.claimOnce(key, ttlMs).catch((err: unknown) => {
        onError(err, key);
        return true;
      }),
  };
}

/** Claims held in this process only (one replica, tests), each dropped once expired. */
export function createLocalClaims(now: () => number = Date.now): InteractionClaims {
  const claims = new Map<string, number>();
  return {
    claimOnce(key, ttlMs) {
      const t = now();
      const until = claims.get(key);
      if (until !== undefined && until > t) return Promise.resolve(false);
      // Expired claims go as new ones come in, oldest first up to the first live one (for one ttl,
      // insertion order is expiry order), so the map holds about one window of claims.
      for (const [k, end] of claims) {
        if (end > t) break;
        claims.delete(k);
      }
      claims.delete(key);
      claims.set(key, t + ttlMs);
      return Promise.resolve(true);
    },
  };
}
