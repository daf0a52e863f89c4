// What Discord's REST API enforces on every request, for the fakes to enforce the same: a fake that
// accepts what Discord refuses lets herald's tests pass while Discord refuses herald. Each rule names
// the page it comes from; contract.test.ts sends what Discord refuses and sees it refused.
// The fake's handlers are wrapped with `enforced`: the rules run before the handler, and every
// answer gets the X-RateLimit-* headers of its bucket and is counted if Discord counts it invalid.
import { HttpResponse } from 'msw';

export interface ContractOptions {
  /** The fake's clock in ms (tests move it); the windows below are measured on it. */
  now?: () => number;
  /**
   * A route's bucket. Discord documents no numbers ("do not hard-code rate limits", the rate-limits
   * page); 5 per 2 s is what an executed webhook and a channel's messages answer in practice.
   */
  bucket?: { limit: number; windowMs: number };
  /** Requests a second per bot token, or per source without one (Discord's global limit, 50). */
  globalPerSecond?: number;
  /** Invalid requests (401, 403, 429 not `shared`) in 10 minutes before the ban; Discord's is 10,000. */
  invalidLimit?: number;
  /** How long the ban lasts. */
  banMs?: number;
  /** The application whose `/webhooks/{application.id}/{token}` routes are interaction responses. */
  applicationId: string;
  /**
   * Whether the contract counts buckets and adds their X-RateLimit-* headers (default); off for a
   * fake whose tests script each answer's headers themselves.
   */
  buckets?: boolean;
}

export interface ContractCounts {
  invalid: number;
  globalRefusals: number;
  routeRefusals: number;
  banned: boolean;
}

export interface DiscordContract {
  readonly counts: ContractCounts;
  /** Forgets every bucket, window, count and ban. */
  reset(): void;
}

/** A route as Discord limits it: its bucket (method and template) and its major parameter. */
export interface RouteKey {
  bucket: string;
  major: string;
  /** An interaction response: outside the global limit (rate-limits page). */
  interaction: boolean;
}

/** The route of a request: `/api[/vN]` stripped, ids and tokens made placeholders. */
export function routeOf(method: string, url: string, applicationId: string): RouteKey {
  const path = new URL(url).pathname.replace(/^\/api(\/v\d+)?/, '');
  const webhook = /^\/webhooks\/(\d+)\/([^/]+)/.exec(path);
  const major = webhook
    ? `${webhook[1]}/${webhook[2]}`
    : (/^\/(?:channels|guilds)\/(\d+)/.exec(path)?.[1] ?? 'global');
  const template = path
    .replace(/^\/webhooks\/(\d+)\/[^/]+/, '/webhooks/:id/:token')
    .replace(/\d{5,}/g, ':id');
  const interaction = path.startsWith('/interactions/') || (webhook !== null && webhook[1] === applicationId);
  return { bucket: `${method.toUpperCase()} ${template}`, major, interaction };
}

const TEN_MINUTES = 10 * 60_000;

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return HttpResponse.json(body as Record<string, unknown>, { status, headers });
}

/** A stable, hex bucket id for a template, as Discord's X-RateLimit-Bucket looks. */
function bucketId(template: string): string {
  let h = 0x811c9dc5;
  for (const c of template) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(4);
}

/** What a wrapped msw resolver is given. */
export interface RouteInfo {
  request: Request;
  params: Record<string, string | readonly string[] | undefined>;
}

export function createDiscordContract(options: ContractOptions): DiscordContract & {
  enforced(
    resolver: (info: RouteInfo) => Response | Promise<Response>,
  ): (info: RouteInfo) => Promise<Response>;
} {
  const now = options.now ?? Date.now;
  const bucket = options.bucket ?? { limit: 5, windowMs: 2_000 };
  const globalPerSecond = options.globalPerSecond ?? 50;
  const invalidLimit = options.invalidLimit ?? 10_000;
  const banMs = options.banMs ?? 60 * 60_000;
  const buckets = new Map<string, { start: number; used: number }>();
  const globals = new Map<string, { start: number; used: number }>();
  let invalid = { start: 0, count: 0 };
  let bannedUntil = 0;
  const counts: ContractCounts = { invalid: 0, globalRefusals: 0, routeRefusals: 0, banned: false };

  const windowOf = (map: Map<string, { start: number; used: number }>, key: string, ms: number) => {
    const t = now();
    let w = map.get(key);
    if (!w || t >= w.start + ms) map.set(key, (w = { start: t, used: 0 }));
    return w;
  };

  /** The X-RateLimit-* headers every answer carries (rate-limits page, "Header Format"). */
  const limitHeaders = (route: RouteKey, w: { start: number; used: number }) => {
    const resetAfter = Math.max(0, w.start + bucket.windowMs - now()) / 1000;
    return {
      'x-ratelimit-limit': String(bucket.limit),
      'x-ratelimit-remaining': String(Math.max(0, bucket.limit - w.used)),
      'x-ratelimit-reset': ((now() + resetAfter * 1000) / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': bucketId(route.bucket),
    };
  };

  // Invalid requests: 401, 403 and 429 (but a 429 of scope `shared`) count; 10,000 in 10 minutes
  // earn a temporary ban of the address.
  // https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans
  const count = (response: Response) => {
    const { status } = response;
    const shared = response.headers.get('x-ratelimit-scope') === 'shared';
    if (!(status === 401 || status === 403 || (status === 429 && !shared))) return;
    const t = now();
    if (t >= invalid.start + TEN_MINUTES) invalid = { start: t, count: 0 };
    invalid.count += 1;
    counts.invalid += 1;
    if (invalid.count >= invalidLimit) {
      bannedUntil = t + banMs;
      counts.banned = true;
    }
  };

  /** The rules that refuse a request before any route looks at it; undefined: admitted. */
  const admit = async (request: Request, route: RouteKey): Promise<Response | undefined> => {
    // A banned address gets Cloudflare's "error code: 1015" for everything, interactions too.
    if (now() < bannedUntil) {
      return new HttpResponse('error code: 1015', {
        status: 429,
        headers: {
          'content-type': 'text/plain',
          'retry-after': String(Math.ceil((bannedUntil - now()) / 1000)),
        },
      });
    }
    // Every request names its library: `User-Agent: DiscordBot ($url, $versionNumber)`.
    // https://discord.com/developers/docs/reference#user-agent ; what Discord answers a request
    // without one: https://github.com/discord/discord-api-docs/issues/6473 (403, code 40333).
    const agent = request.headers.get('user-agent') ?? '';
    if (!/^DiscordBot \((\S+), ([^)\s]+)\)/.test(agent))
      return json({ message: 'internal network error', code: 40333 }, 403);
    // A JSON content type promises a JSON body: an empty one is invalid JSON (code 50109).
    // https://discord.com/developers/docs/topics/opcodes-and-status-codes#json (50109), and
    // https://discord.com/developers/docs/reference#http-api (request bodies are JSON or multipart).
    const type = request.headers.get('content-type') ?? '';
    if (type.startsWith('application/json') && (await request.clone().text()).trim() === '')
      return json({ message: 'The request body contains invalid JSON.', code: 50109 }, 400);
    // The global limit: 50 requests a second per bot token (per address without one); interaction
    // responses are exempt. https://discord.com/developers/docs/topics/rate-limits#global-rate-limit
    if (!route.interaction) {
      const who = request.headers.get('authorization') ?? 'source';
      const g = windowOf(globals, who, 1_000);
      if (g.used >= globalPerSecond) {
        counts.globalRefusals += 1;
        const wait = Math.max(1, g.start + 1_000 - now()) / 1000;
        return json({ message: 'You are being rate limited.', retry_after: wait, global: true }, 429, {
          'retry-after': String(Math.ceil(wait)),
          'x-ratelimit-global': 'true',
          'x-ratelimit-scope': 'global',
        });
      }
      g.used += 1;
    }
    // Per-route buckets: past the bucket's limit, a 429 with its retry_after and scope `user`.
    // https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit
    if (options.buckets === false) return undefined;
    const w = windowOf(buckets, `${route.bucket} ${route.major}`, bucket.windowMs);
    if (w.used >= bucket.limit) {
      counts.routeRefusals += 1;
      const headers = limitHeaders(route, w);
      return json(
        {
          message: 'You are being rate limited.',
          retry_after: Number(headers['x-ratelimit-reset-after']),
          global: false,
        },
        429,
        {
          ...headers,
          'retry-after': String(Math.ceil(Number(headers['x-ratelimit-reset-after']))),
          'x-ratelimit-scope': 'user',
        },
      );
    }
    w.used += 1;
    return undefined;
  };

  return {
    counts,
    reset() {
      buckets.clear();
      globals.clear();
      invalid = { start: 0, count: 0 };
      bannedUntil = 0;
      Object.assign(counts, { invalid: 0, globalRefusals: 0, routeRefusals: 0, banned: false });
    },
    enforced(resolver) {
      return async (info) => {
        const route = routeOf(info.request.method, info.request.url, options.applicationId);
        const refused = await admit(info.request, route);
        const response = refused ?? (await resolver(info));
        if (!refused && options.buckets !== false) {
          const w = windowOf(buckets, `${route.bucket} ${route.major}`, bucket.windowMs);
          for (const [name, value] of Object.entries(limitHeaders(route, w)))
            if (!response.headers.has(name)) response.headers.set(name, value);
        }
        count(response);
        return response;
      };
    },
  };
}

/**
 * Discord's form body error (50035) for one field, its errors nested under the field's path.
 * https://discord.com/developers/docs/reference#error-messages
 */
export function formBodyError(field: string, code: string, message: string): Response {
  const errors = field
    .split('.')
    .reduceRight<unknown>((inner, key) => ({ [key]: inner }), { _errors: [{ code, message }] });
  return json({ message: 'Invalid Form Body', code: 50035, errors }, 400);
}
