// Discord's REST answers the fakes script: its error bodies (`{message, code}`) and a route's 429
// with `retry_after` (seconds, a float) and its X-RateLimit headers.
import { HttpResponse } from 'msw';

/** An answer a test puts in front of the fake's own. */
export interface ScriptedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function scripted(answer: ScriptedAnswer) {
  return HttpResponse.json(answer.body as Record<string, unknown>, {
    status: answer.status,
    ...(answer.headers ? { headers: answer.headers } : {}),
  });
}

/** Discord's 404 for an interaction token it does not know, or no longer (past its 15 minutes). */
export const UNKNOWN_WEBHOOK = { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };

/** Discord's 403 for a channel the bot cannot see. */
export const MISSING_ACCESS = { message: 'Missing Access', code: 50001 };
/** Discord's 403 for a channel the bot sees but may not post in. */
export const MISSING_PERMISSIONS = { message: 'Missing Permissions', code: 50013 };
/** Discord's 429 body and headers for a per-route limit (retry_after in seconds, a float). */
export function rateLimited(retryAfterSeconds: number) {
  return {
    status: 429,
    body: { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false },
    headers: {
      'retry-after': String(Math.ceil(retryAfterSeconds)),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': String(retryAfterSeconds),
      'x-ratelimit-bucket': 'a06de1d5b8a3c8f5e2b1d1f7c2d4e6a8',
      'x-ratelimit-scope': 'user',
    },
  };
}
