import {
  createHttpClient,
  type CallRecord,
  type HttpClient,
  type HttpClientConfig,
  type HttpLog,
  type QuotaStore,
} from '../http/client.ts';
import type { HttpOptions } from '../http/policy.ts';
import type { RateBudget } from '../domain/rate-budget.ts';
import { registerSecret } from '../redact.ts';

/** What every client factory takes besides its own config. */
export interface ClientDeps {
  log?: HttpLog;
  onCall?: (record: CallRecord) => void;
  httpOptions?: Partial<HttpOptions>;
  /** Counts providers' quotas (Adzuna's) across replicas when it holds a Redis. */
  quotaStore?: QuotaStore;
  /** Clock for caches (tests use a fake one). */
  now?: () => number;
  random?: () => number;
  /**
   * The platforms' request budgets across replicas: taken before every Discord request that is not
   * an interaction response, told each global 429 and invalid request (docs/PLATFORMS.md); and
   * before every Slack chat.postMessage of the channel client, paused by its 429s
   * (docs/SCHEDULING.md). Absent: none kept.
   */
  rateBudget?: RateBudget | undefined;
}

export interface Closable {
  close(): Promise<void>;
}

/** What a service gives for its HTTP client: the HTTP settings, and the credentials it sends. */
type ServiceHttpConfig = Omit<
  HttpClientConfig,
  'log' | 'onCall' | 'now' | 'random' | 'options' | 'quotaStore'
> & {
  /** Every credential the service sends (header, query or path): registered for redaction here. */
  secrets: readonly string[];
};

/**
 * The service's own HTTP client (its pool, breaker and limits), wired to the shared deps, with
 * its credentials registered so that no log, error text or reply can show them.
 */
export function createServiceHttp(deps: ClientDeps, { secrets, ...config }: ServiceHttpConfig): HttpClient {
  for (const secret of secrets) registerSecret(secret);
  return createHttpClient({
    ...config,
    log: deps.log,
    onCall: deps.onCall,
    now: deps.now,
    random: deps.random,
    options: deps.httpOptions,
    quotaStore: deps.quotaStore,
  });
}
