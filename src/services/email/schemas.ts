// Resend's wire shapes (docs/SERVICES.md S1): the send result, the email record and the error body.
// https://resend.com/docs/api-reference/emails/retrieve-email and .../api-reference/errors
import { z } from 'zod';
import type { ProviderErrorReader } from '../../http/client.ts';

const TIMESTAMP_RE =
  /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Resend sends created_at both Postgres-style ("2025-04-03 22:13:42.674981+00") and ISO
 * ("2023-04-03T22:13:42.674981+00:00"); a value without a zone is taken as UTC.
 */
export function parseResendTimestamp(text: string): Date | undefined {
  const m = TIMESTAMP_RE.exec(text.trim());
  if (!m) return undefined;
  const [, day, time, fraction = '', zone = 'Z'] = m as unknown as [string, string, string, string?, string?];
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  let offset = zone.toUpperCase();
  if (offset !== 'Z') {
    const digits = offset.replace(':', '');
    offset = `${digits.slice(0, 3)}:${digits.slice(3, 5).padEnd(2, '0')}`;
  }
  const date = new Date(`${day}T${time}.${ms}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export const SendEmailResponse = z.object({
  id: z.string().min(1),
});

export const EmailResponse = z.object({
  id: z.string().min(1),
  from: z.string(),
  /** An array in every documented example; a single address is tolerated. */
  to: z.union([z.array(z.string()), z.string()]),
  subject: z.string(),
  created_at: z.string().refine((t) => parseResendTimestamp(t) !== undefined, {
    message: 'not a Resend timestamp',
  }),
  /** bounced, canceled, clicked, complained, delivered, ... (open set: new events must not break us). */
  last_event: z.string().nullish(),
});

const ResendErrorResponse = z.object({
  statusCode: z.number().nullish(),
  name: z.string().optional(),
  message: z.string().optional(),
});

function msUntilNextUtcMidnight(nowMs: number): number {
  const next = new Date(nowMs);
  next.setUTCHours(24, 0, 0, 0);
  return next.getTime() - nowMs;
}

function msUntilNextUtcMonth(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - nowMs;
}

/**
 * Resend's `{statusCode, name, message}`: the message is kept, and `name` refines the code where
 * the status alone misleads (a bad key is 403 in the docs, 401 live; a quota is not a burst limit).
 */
export const readResendError: ProviderErrorReader = ({ status, headers, body }) => {
  const parsed = ResendErrorResponse.safeParse(body);
  if (!parsed.success || parsed.data.name === undefined) {
    // Not Resend's error shape (an HTML page, a proxy): a 404 then means the route itself is
    // missing, i.e. a wrong base URL, which must not read as "no such email".
    return {
      message: parsed.success ? parsed.data.message : 'the error body is not Resend JSON',
      code: status === 404 ? 'invalid_request' : undefined,
    };
  }
  const { name, message } = parsed.data;
  const hasRetryAfter = headers['retry-after'] !== undefined;
  switch (name) {
    case 'missing_api_key':
    case 'invalid_api_key':
      return { message, code: 'unauthorized' };
    case 'restricted_api_key':
    case 'invalid_access':
      return { message, code: 'forbidden' };
    case 'validation_error':
      // 401 "API key is invalid" is a bad key; 403 is an unverified domain or a test-mode recipient.
      return { message, code: status === 401 ? 'unauthorized' : 'invalid_request' };
    case 'not_found':
      // "The requested endpoint does not exist." is a wrong base URL, not an unknown email.
      return { message, code: /endpoint/i.test(message ?? '') ? 'invalid_request' : 'not_found' };
    case 'daily_quota_exceeded':
      // [U] Resend does not document when the daily quota resets; UTC midnight is the best guess,
      // and a wait that long keeps the client from retrying a quota that a retry cannot fix.
      return {
        message,
        code: 'rate_limited',
        retryAfterMs: hasRetryAfter ? undefined : msUntilNextUtcMidnight(Date.now()),
      };
    case 'monthly_quota_exceeded':
      return {
        message,
        code: 'rate_limited',
        retryAfterMs: hasRetryAfter ? undefined : msUntilNextUtcMonth(Date.now()),
      };
    case 'rate_limit_exceeded': {
      const reset = Number(headers['ratelimit-reset']);
      return {
        message,
        code: 'rate_limited',
        retryAfterMs: !hasRetryAfter && Number.isFinite(reset) ? Math.max(0, reset * 1000) : undefined,
      };
    }
    default:
      return { message };
  }
};
