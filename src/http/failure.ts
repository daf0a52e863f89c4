// How transport failures and provider error bodies become ServiceErrors: codes, log text, and the
// one builder of a request's ServiceError (its provider message redacted).
import { ServiceError, type QuotaExhausted, type ServiceErrorCode, type ServiceName } from '../errors.ts';
import { redactText } from '../redact.ts';
import { parseRetryAfter } from './policy.ts';
import type { HttpRequest, ProviderErrorReader, RawResponse } from './types.ts';

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
export const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * Codes of errors that say the request itself was wrong before it left (undici's argument checks,
 * Node's URL and header validation): herald's own fault, not the network's.
 */
const OWN_FAULT_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_INVALID_RETURN_VALUE',
  'ERR_INVALID_URL',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
]);

/**
 * True for a fault of herald's own making: a request that could not be built (a header value above
 * U+00FF, a body JSON cannot hold) or a programming error. Such a fault is reported as `internal`,
 * is never retried and never counts toward opening the circuit breaker.
 */
export function isOwnFault(err: unknown): boolean {
  if (errorCode(err) !== undefined) return false;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && OWN_FAULT_CODES.has(code)) return true;
  return (
    err instanceof TypeError ||
    err instanceof RangeError ||
    err instanceof SyntaxError ||
    err instanceof ReferenceError
  );
}

export function statusToCode(status: number): ServiceErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 402 || status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'upstream';
  return 'invalid_request';
}

/** How much of an error body that is not JSON is kept for logs. */
export const BODY_EXCERPT_CHARS = 160;

/**
 * A short, tag-free excerpt of an error body that is not JSON (an HTML error page), for logs.
 * Redacted whole before it is cut: a credential cut at the boundary would no longer match and
 * its first part would be kept.
 */
export function bodyExcerpt(text: string): string | undefined {
  const plain = redactText(
    redactText(text)
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return plain === '' ? undefined : plain.slice(0, BODY_EXCERPT_CHARS);
}

/** The default reader: `message`, `error` or `error.message`, whichever the body has. */
export const readCommonError: ProviderErrorReader = ({ body, text }) => {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.message === 'string') return { message: b.message };
    if (typeof b.error === 'string') return { message: b.error };
    if (b.error && typeof b.error === 'object') {
      const m = (b.error as Record<string, unknown>).message;
      if (typeof m === 'string') return { message: m };
    }
  }
  return { message: bodyExcerpt(text) };
};

export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || TIMEOUT_CODES.has(code))) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a failure may carry besides its code. */
interface FailureDetail {
  status?: number;
  providerMessage?: string | undefined;
  retryAfterMs?: number;
  quota?: QuotaExhausted;
  /** The provider's own quota is used up (ProviderError.exhausted). */
  exhausted?: boolean;
  cause?: unknown;
}

/** Builds the ServiceError of one request; the provider's message is redacted on the way in. */
export type Fail = (req: HttpRequest, code: ServiceErrorCode, detail: FailureDetail) => ServiceError;

export function failureFor(service: ServiceName): Fail {
  return (req, code, detail) =>
    new ServiceError({
      service,
      operation: req.operation,
      code,
      status: detail.status,
      retryAfterMs: detail.retryAfterMs,
      providerMessage: detail.providerMessage === undefined ? undefined : redactText(detail.providerMessage),
      quota: detail.quota,
      exhausted: detail.exhausted,
      cause: detail.cause,
    });
}

/** A non-2xx response as a ServiceError: the reader's message and code, Retry-After as ms. */
export function errorFromResponse(
  req: HttpRequest,
  res: RawResponse,
  deps: { readError: ProviderErrorReader; now: () => number; fail: Fail },
): ServiceError {
  const text = res.bytes.toString('utf8');
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const provider = deps.readError({ status: res.status, headers: res.headers, body, text });
  const retryAfterMs = provider.retryAfterMs ?? parseRetryAfter(res.headers['retry-after'], deps.now());
  return deps.fail(req, provider.code ?? statusToCode(res.status), {
    status: res.status,
    providerMessage: provider.message,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(provider.exhausted === true ? { exhausted: true } : {}),
  });
}
