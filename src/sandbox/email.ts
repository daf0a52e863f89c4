// Simulated Resend (docs/SERVICES.md S1): POST /emails with Resend's validation, idempotency and
// error bodies, GET /emails/{id} with the full email record. State lives in memory per handler set.
// https://resend.com/docs/api-reference/emails/send-email, .../dashboard/emails/idempotency-keys
import { randomUUID } from 'node:crypto';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { magicKey, route, type HandlerOptions } from './layout.ts';

/** Inputs that make the simulator behave like Resend's edge cases (README, tests). */
export const EMAIL_MAGIC = Object.freeze({
  /** Resend's own test recipients: the email's last_event ends as named. */
  deliveredRecipient: 'delivered@resend.dev',
  bouncedRecipient: 'bounced@resend.dev',
  complainedRecipient: 'complained@resend.dev',
  /** A sender on this domain gets 403 validation_error "domain is not verified". */
  unverifiedDomain: 'unverified.example',
  /** Subjects that fail the send: 429 rate_limit_exceeded (retry-after 1), 429 daily quota, 500 (`sandbox:…` too). */
  rateLimitedSubject: 'sandbox-busy',
  quotaSubject: 'sandbox-quota',
  errorSubject: 'sandbox-error',
});

/** How long a sent email reads "sent" before its final event. */
export const EMAIL_DELIVERY_MS = 1_500;

interface EmailHandlerOptions extends HandlerOptions {
  /** Clock for created_at and the sent -> delivered progression (tests). */
  now?: () => number;
}

interface StoredEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  createdAtMs: number;
  tags: unknown;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_STORED = 10_000;
const ADDRESS_RE = /^(?:[^<>]*<\s*([^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)\s*>|([^\s@<>]+@[^\s@<>]+\.[^\s@<>]+))$/;
const FIELD_FORMAT =
  'The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.';

function rateHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '1', ...extra };
}

function resendError(status: number, name: string, message: string, headers: Record<string, string> = {}) {
  return HttpResponse.json({ statusCode: status, name, message }, { status, headers: rateHeaders(headers) });
}

function addressOf(value: string): string | undefined {
  const m = ADDRESS_RE.exec(value.trim());
  return m ? (m[1] ?? m[2]) : undefined;
}

/** "2025-04-03 22:13:42.674981+00", the Postgres style of Resend's OpenAPI example. */
function postgresTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${String((ms * 7919) % 1000).padStart(3, '0')}+00`;
}

function finalEvent(to: string[]): string {
  const lower = to.map((a) => addressOf(a)?.toLowerCase());
  if (lower.includes(EMAIL_MAGIC.bouncedRecipient)) return 'bounced';
  if (lower.includes(EMAIL_MAGIC.complainedRecipient)) return 'complained';
  return 'delivered';
}

type Validated = { ok: true; email: Omit<StoredEmail, 'id' | 'createdAtMs'> } | { ok: false; res: Response };

function validate(body: unknown): Validated {
  const fail = (status: number, name: string, message: string) =>
    ({ ok: false, res: resendError(status, name, message) }) as const;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return fail(422, 'validation_error', 'The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  for (const field of ['from', 'to', 'subject'] as const) {
    if (b[field] === undefined || b[field] === '')
      return fail(422, 'missing_required_field', `Missing \`${field}\` field.`);
  }
  if (typeof b.from !== 'string' || !addressOf(b.from))
    return fail(422, 'validation_error', `Invalid \`from\` field. ${FIELD_FORMAT}`);
  const to = typeof b.to === 'string' ? [b.to] : b.to;
  if (!Array.isArray(to) || to.length === 0 || !to.every((a) => typeof a === 'string' && addressOf(a)))
    return fail(422, 'validation_error', `Invalid \`to\` field. ${FIELD_FORMAT}`);
  if (to.length > 50)
    return fail(422, 'validation_error', 'Too many recipients. The maximum is 50 `to` addresses.');
  if (typeof b.subject !== 'string') return fail(422, 'validation_error', 'Invalid `subject` field.');
  if (typeof b.html !== 'string' && typeof b.text !== 'string')
    return fail(422, 'missing_required_field', 'Missing `html` or `text` field.');
  const fromDomain = addressOf(b.from)!.split('@')[1]!.toLowerCase();
  if (fromDomain === EMAIL_MAGIC.unverifiedDomain)
    return fail(
      403,
      'validation_error',
      `The ${fromDomain} domain is not verified. Please, add and verify your domain on https://resend.com/domains`,
    );
  return {
    ok: true,
    email: {
      from: b.from,
      to: to as string[],
      subject: b.subject,
      html: typeof b.html === 'string' ? b.html : null,
      text: typeof b.text === 'string' ? b.text : null,
      tags: b.tags ?? [],
    },
  };
}

/** Resend checks the key before anything else: missing -> 401, wrong -> 403. */
function checkAuth(request: Request, credential: string | undefined): Response | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (!match) return resendError(401, 'missing_api_key', 'Missing API key in the authorization header.');
  if (credential !== undefined && match[1] !== credential)
    return resendError(403, 'invalid_api_key', 'API key is invalid.');
  return undefined;
}

/** A stored email as `GET /emails/{id}` answers it; `last_event` moves on with the clock. */
function emailRecord(e: StoredEmail, nowMs: number): Record<string, unknown> {
  const elapsed = nowMs - e.createdAtMs;
  return {
    object: 'email',
    id: e.id,
    message_id: `<${new Date(e.createdAtMs).toISOString().replace(/\D/g, '').slice(0, 14)}.${e.id.slice(0, 8)}@email.amazonses.com>`,
    to: e.to,
    from: e.from,
    created_at: postgresTimestamp(e.createdAtMs),
    subject: e.subject,
    html: e.html,
    text: e.text,
    bcc: null,
    cc: null,
    reply_to: null,
    last_event: elapsed < EMAIL_DELIVERY_MS ? 'sent' : finalEvent(e.to),
    scheduled_at: null,
    tags: e.tags,
  };
}

/** The canned failures of the magic subjects. */
function magicSubjectError(subjectText: string): Response | undefined {
  const subject = magicKey(subjectText);
  if (subject === EMAIL_MAGIC.rateLimitedSubject)
    return resendError(
      429,
      'rate_limit_exceeded',
      'Too many requests. You can only make 2 requests per second. See rate limit response headers for more information. Or contact support to increase rate limit.',
      { 'ratelimit-remaining': '0', 'retry-after': '1' },
    );
  if (subject === EMAIL_MAGIC.quotaSubject)
    return resendError(429, 'daily_quota_exceeded', 'You have reached your daily email sending quota.');
  if (subject === EMAIL_MAGIC.errorSubject)
    return resendError(500, 'application_error', 'An unexpected error occurred.');
  return undefined;
}

export function emailHandlers(opts: EmailHandlerOptions = {}): RequestHandler[] {
  const now = opts.now ?? Date.now;
  const emails = new Map<string, StoredEmail>();
  const idempotency = new Map<string, { fingerprint: string; id: string; atMs: number }>();
  let sentToday = 0;

  function remember(email: StoredEmail): void {
    emails.set(email.id, email);
    if (emails.size > MAX_STORED) emails.delete(emails.keys().next().value!);
    // Keys are kept in the order they were recorded: the expired ones are at the front, so the
    // sweep stops at the first live one instead of reading every key on every send.
    for (const [key, entry] of idempotency) {
      if (now() - entry.atMs <= IDEMPOTENCY_TTL_MS && idempotency.size <= MAX_STORED) break;
      idempotency.delete(key);
    }
  }

  return [
    http.post(route('email', '/emails'), async ({ request }) => {
      const denied = checkAuth(request, opts.credential);
      if (denied) return denied;
      const key = request.headers.get('idempotency-key');
      if (key !== null && (key.length === 0 || key.length > 256))
        return resendError(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
      const text = await request.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return resendError(422, 'validation_error', 'The request body must be valid JSON.');
      }
      const checked = validate(body);
      if (!checked.ok) return checked.res;
      const magic = magicSubjectError(checked.email.subject);
      if (magic) return magic;
      const fingerprint = JSON.stringify(body);
      if (key !== null) {
        const seen = idempotency.get(key);
        if (seen && now() - seen.atMs <= IDEMPOTENCY_TTL_MS) {
          if (seen.fingerprint !== fingerprint)
            return resendError(
              409,
              'invalid_idempotent_request',
              'Same idempotency key used with a different request payload.',
            );
          return HttpResponse.json({ id: seen.id }, { headers: rateHeaders() });
        }
      }
      const email: StoredEmail = { ...checked.email, id: randomUUID(), createdAtMs: now() };
      remember(email);
      if (key !== null) {
        idempotency.delete(key); // an expired entry moves to the back, in time order
        idempotency.set(key, { fingerprint, id: email.id, atMs: email.createdAtMs });
      }
      sentToday += email.to.length;
      return HttpResponse.json(
        { id: email.id },
        {
          headers: rateHeaders({
            'x-resend-daily-quota': String(Math.max(0, 100 - sentToday)),
            'x-resend-monthly-quota': String(Math.max(0, 3_000 - sentToday)),
          }),
        },
      );
    }),

    http.get(route('email', '/emails/:id'), ({ request, params }) => {
      const denied = checkAuth(request, opts.credential);
      if (denied) return denied;
      const email = emails.get(String(params.id));
      if (!email) return resendError(404, 'not_found', 'Email not found');
      return HttpResponse.json(emailRecord(email, now()), { headers: rateHeaders() });
    }),
  ];
}
