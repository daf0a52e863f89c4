// The request, response and client shapes of the HTTP core (src/http/client.ts).
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { ServiceErrorCode, ServiceName } from '../errors.ts';
import type { BreakerState } from './guard.ts';
import type { HttpOptions } from './policy.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  service: ServiceName;
  operation: string;
  method: HttpMethod;
  /** Built with the `path` tag so that every parameter is encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON; a Uint8Array is sent as it is (set its content-type in `headers`). */
  body?: unknown;
  /** POST is retried only when it carries one, so that a repeat cannot act twice. */
  idempotencyKey?: string;
  /**
   * A POST that only reads (GA4 runReport) and is safe to repeat; `'after-429'`: one repeated only
   * after a 429, which the provider answers without acting (Discord's follow-up message).
   */
  retryable?: boolean | 'after-429';
  /** GET only: keep the parsed answer this long; identical concurrent GETs always share one request. */
  cacheTtlMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Told every answer's status and headers (each attempt's, a failure's too), for the rate-limit
   * headers a platform sends on every answer. Not called for a GET: its answer may be shared or
   * cached, so it is no one caller's.
   */
  onAnswer?: (answer: AnswerHead) => void;
}

/** What `onAnswer` is told of an answer: its status and headers (names lower-case). */
export interface AnswerHead {
  status: number;
  headers: Readonly<Record<string, string>>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

export interface ProviderError {
  message?: string | undefined;
  /** Overrides the status-based code, e.g. a quota error sent as 401. */
  code?: ServiceErrorCode | undefined;
  retryAfterMs?: number | undefined;
  /** The provider says its quota (credits, characters) is used up: no wait of seconds clears it. */
  exhausted?: boolean | undefined;
}

/** Reads a provider's error body: its message (kept for logs) and anything that refines the code. */
export type ProviderErrorReader = (response: {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}) => ProviderError;

export interface CallRecord {
  service: ServiceName;
  operation: string;
  method: HttpMethod;
  status: number | undefined;
  code: ServiceErrorCode | 'ok';
  attempts: number;
  durationMs: number;
  cached: boolean;
}

export interface HttpLog {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface QuotaStore {
  redis?: Redis | undefined;
  /** Key prefix; tests give each file its own. */
  prefix?: string;
}

export interface HttpClientConfig {
  service: ServiceName;
  baseUrl: string;
  options?: Partial<HttpOptions>;
  headers?: Record<string, string>;
  readError?: ProviderErrorReader;
  log?: HttpLog;
  onCall?: (record: CallRecord) => void;
  /** Where providers' call quotas are counted (PROVIDER_QUOTAS): shared by replicas; memory without. */
  quotaStore?: QuotaStore;
  /** Injectable for tests. */
  now?: () => number;
  random?: () => number;
}

export interface HttpClient {
  readonly service: ServiceName;
  /**
   * Sends a request and validates its JSON body with the schema; `map` turns the wire answer into
   * what the caller keeps, and that is what a GET's cache holds (not the wire data).
   */
  send<S extends z.ZodType, T = z.output<S>>(
    req: HttpRequest,
    schema: S,
    opts?: CallOptions,
    map?: (wire: z.output<S>) => T,
  ): Promise<T>;
  /** Sends a request whose answer is binary (S5 audio). */
  sendBytes(req: HttpRequest, opts?: CallOptions): Promise<{ bytes: Buffer; contentType: string }>;
  /** Sends a request whose success has no body worth reading (S7's 204). */
  sendEmpty(
    req: HttpRequest,
    opts?: CallOptions,
  ): Promise<{ status: number; headers: Record<string, string> }>;
  /** The circuit breaker's state and the requests queued for a slot (health and metrics). */
  health(): { breaker: BreakerState; queued: number };
  close(): Promise<void>;
}
