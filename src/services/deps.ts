import {
  createHttpClient,
  type CallRecord,
  type HttpClient,
  type HttpClientConfig,
  type HttpLog,
  type QuotaStore,
} from '../http/client.ts';
import type { HttpOptions } from '../http/policy.ts';

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
}

export interface Closable {
  close(): Promise<void>;
}

/** The service's own HTTP client (its pool, breaker and limits), wired to the shared deps. */
export function createServiceHttp(
  deps: ClientDeps,
  config: Omit<HttpClientConfig, 'log' | 'onCall' | 'now' | 'random' | 'options' | 'quotaStore'>,
): HttpClient {
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
