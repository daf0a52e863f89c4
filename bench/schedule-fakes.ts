// The loopback fakes of the schedules bench (schedules.ts): an upstream, and Discord webhooks that
// answer after LATENCY_MS as execute webhook does (wait=true), each accepted post kept. Rate limited,
// they enforce Discord's limits (https://discord.com/developers/docs/topics/rate-limits), each
// decided when the request arrives:
// - per-route buckets: every answer carries X-RateLimit-Limit, -Remaining, -Reset, -Reset-After and
//   -Bucket for the webhook's bucket (BUCKET_LIMIT posts a BUCKET_WINDOW_MS, as Discord's headers
//   show for webhooks); a post over it is a 429 of scope `user`, `retry_after` in the body and
//   Retry-After, and is not posted;
// - the global limit: GLOBAL_PER_SECOND requests a second from one source address (webhooks are
//   limited per address, not per token). Discord documents the number, not how it counts; the
//   fake counts a bucket of a second's requests refilled continuously, which a client keeping a
//   fixed window of a second (as @discordjs/rest does) never overruns. Past it: a 429 with
//   `global: true`, X-RateLimit-Global and X-RateLimit-Scope `global`, not posted;
// - invalid requests: every 401, 403 and 429 not of scope `shared` is counted (Discord bans an
//   address past 10,000 in 10 minutes).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LATENCY_MS = 100;
/** Discord's per-webhook bucket as its headers commonly show it: 5 posts each 2 s. */
const BUCKET_LIMIT = 5;
const BUCKET_WINDOW_MS = 2_000;
/** Discord's global limit: 50 requests a second (per bot token; per address for webhooks). */
export const GLOBAL_PER_SECOND = 50;

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A loopback server answering every request after LATENCY_MS with what `answer` returns. */
export async function slowServer(
  answer: (body: string, url: string, headers: IncomingHttpHeaders) => Answer | string,
): Promise<Server & { url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      // Decided at arrival, as Discord counts a post against its bucket when it receives it.
      const decided = answer(body, req.url ?? '', req.headers);
      const {
        status,
        headers,
        body: out,
      } = typeof decided === 'string' ? { status: 200, headers: {}, body: decided } : decided;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(out);
      }, LATENCY_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(server, { url });
}

export interface Arrival {
  at: number;
  content: string;
  /** The webhook id the post went to. */
  webhook: string;
}

/** The webhook's bucket headers after the posts at `recent` (arrival times, ms). */
function bucketHeaders(webhook: string, recent: number[], now: number): Record<string, string> {
  const resetAfterS = Math.max(0, (recent[0] ?? now) + BUCKET_WINDOW_MS - now) / 1000;
  return {
    'x-ratelimit-bucket': `b${webhook.slice(-8)}`.padEnd(32, '0'),
    'x-ratelimit-limit': String(BUCKET_LIMIT),
    'x-ratelimit-remaining': String(Math.max(0, BUCKET_LIMIT - recent.length)),
    'x-ratelimit-reset': ((Date.now() + resetAfterS * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfterS.toFixed(3),
  };
}

function tooMany(retryAfterS: number, headers: Record<string, string>): Answer {
  return {
    status: 429,
    headers: {
      ...headers,
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': retryAfterS.toFixed(3),
      'retry-after': String(Math.ceil(retryAfterS)),
      'x-ratelimit-scope': 'user',
    },
    body: JSON.stringify({ message: 'You are being rate limited.', retry_after: retryAfterS, global: false }),
  };
}

/** The global 429: no route's bucket, the global headers. */
function globalTooMany(retryAfterS: number): Answer {
  return {
    status: 429,
    headers: {
      'retry-after': String(Math.ceil(retryAfterS)),
      'x-ratelimit-global': 'true',
      'x-ratelimit-scope': 'global',
    },
    body: JSON.stringify({ message: 'You are being rate limited.', retry_after: retryAfterS, global: true }),
  };
}

/** A bucket of `perSecond` requests refilled continuously: takes one at `now`, or says how long until one. */
function globalBucket(perSecond: number) {
  let tokens = perSecond;
  let at = performance.now();
  return (now: number): number => {
    tokens = Math.min(perSecond, tokens + ((now - at) * perSecond) / 1000);
    at = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return ((1 - tokens) * 1000) / perSecond;
  };
}

/** What the rate-limited fake refused: every 429, the global ones, and Discord's invalid requests. */
export interface Refusals {
  count: number;
  global: number;
  invalid: number;
}

/** The destinations' fake; `rateLimited` turns on Discord's buckets, global limit, 429s and headers. */
export async function webhookFake(opts: { rateLimited?: boolean } = {}) {
  const arrivals: Arrival[] = [];
  const limited: Refusals = { count: 0, global: 0, invalid: 0 };
  const windows = new Map<string, number[]>();
  const takeGlobal = globalBucket(GLOBAL_PER_SECOND);
  let n = 0;
  const server = await slowServer((body, url) => {
    const content = (JSON.parse(body) as { content?: string }).content ?? '';
    const webhook = url.split('/')[1] ?? '';
    const now = performance.now();
    let headers: Record<string, string> = {};
    if (opts.rateLimited) {
      const globalWaitMs = takeGlobal(now);
      if (globalWaitMs > 0) {
        limited.count++;
        limited.global++;
        limited.invalid++;
        return globalTooMany(globalWaitMs / 1000);
      }
      const recent = (windows.get(webhook) ?? []).filter((t) => t > now - BUCKET_WINDOW_MS);
      windows.set(webhook, recent);
      if (recent.length >= BUCKET_LIMIT) {
        limited.count++;
        limited.invalid++;
        const untilFree = (recent[0] ?? now) + BUCKET_WINDOW_MS - now;
        return tooMany(Math.max(0.001, untilFree / 1000), bucketHeaders(webhook, recent, now));
      }
      recent.push(now);
      headers = bucketHeaders(webhook, recent, now);
    }
    arrivals.push({ at: now, content, webhook });
    return { status: 200, headers, body: JSON.stringify(createdMessage(++n, content, webhook)) };
  });
  return { server, arrivals, limited };
}

export type WebhookFake = Awaited<ReturnType<typeof webhookFake>>;

/** The message Discord answers a `wait=true` post with: the `n`th created by `webhook`. */
export function createdMessage(n: number, content: string, webhook: string) {
  return {
    id: String(1_300_000_000_000_000_000n + BigInt(n)),
    type: 0,
    content,
    channel_id: '1200000000000000001',
    author: { id: webhook, username: 'herald', bot: true, discriminator: '0000' },
    attachments: [],
    embeds: [],
    mentions: [],
    pinned: false,
    tts: false,
    timestamp: new Date().toISOString(),
    webhook_id: webhook,
  };
}
