// Simulated Discord incoming webhook (docs/SERVICES.md S7): POST /{id}/{token}, JSON or
// multipart (`payload_json` + `files[n]`), answers 204 (200 with the message under `wait=true`) and
// keeps the message in an inbox, enforces Discord's documented limits with 400 50035 form errors,
// and answers 404 Unknown Webhook / 401 Invalid Webhook Token like Discord does.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route, type HandlerOptions } from './layout.ts';
import { hashSeed } from './seeded-random.ts';
import {
  SIMULATED_CHANNEL_ID,
  WEBHOOK_MAGIC,
  webhookObjectHandler,
  webhookRefusal,
  type WebhookIdentity,
} from './webhook-object.ts';

interface AcceptedWebhookMessage {
  /** Snowflake of the created message. */
  id: string;
  webhookId: string;
  content: string | undefined;
  username: string | undefined;
  embeds: Record<string, unknown>[];
  allowedMentions: unknown;
  /** The files of a multipart post (`files[n]`), in order. */
  files: AcceptedWebhookFile[];
  /** The whole JSON body (or `payload_json`) as received. */
  body: Record<string, unknown>;
  receivedAt: string;
}

interface AcceptedWebhookFile {
  /** The form field, `files[n]`. */
  field: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The messages a simulated webhook accepted, newest last (the oldest are dropped past 200). */
export interface WebhookInbox {
  readonly messages: readonly AcceptedWebhookMessage[];
  add(message: AcceptedWebhookMessage): void;
  clear(): void;
}

export function createWebhookInbox(max = 200): WebhookInbox {
  const messages: AcceptedWebhookMessage[] = [];
  return {
    messages,
    add(message) {
      messages.push(message);
      if (messages.length > max) messages.splice(0, messages.length - max);
    },
    clear() {
      messages.length = 0;
    },
  };
}

const defaultInbox = createWebhookInbox();

/** The inbox of handlers created without their own `inbox` option (the built-in simulator). */
export function webhookInbox(): WebhookInbox {
  return defaultInbox;
}

interface WebhookHandlerOptions extends HandlerOptions, WebhookIdentity {
  inbox?: WebhookInbox;
  /** Enforce Discord's per-webhook bucket with 429s. Unset: headers are sent but nothing is refused. */
  rateLimit?: { limit: number; windowMs: number };
  now?: () => number;
}

export { WEBHOOK_MAGIC };

const DISCORD_EPOCH_MS = 1_420_070_400_000;
const BUCKET_LIMIT = 5;
const BUCKET_WINDOW_MS = 2_000;

/** Discord's 429: JSON body with `retry_after` in float seconds, Retry-After in whole seconds. */
export function discordRateLimitResponse(opts: {
  retryAfterS: number;
  global?: boolean;
  bucket?: string;
  nowMs?: number;
}): Response {
  const nowMs = opts.nowMs ?? Date.now();
  const headers: Record<string, string> = {
    'retry-after': String(Math.ceil(opts.retryAfterS)),
    'x-ratelimit-limit': String(BUCKET_LIMIT),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': ((nowMs + opts.retryAfterS * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': opts.retryAfterS.toFixed(3),
    'x-ratelimit-bucket': opts.bucket ?? 'a2e3b6b1c8d94f0e9d0f1a2b3c4d5e6f',
    'x-ratelimit-scope': opts.global ? 'global' : 'user',
  };
  if (opts.global) headers['x-ratelimit-global'] = 'true';
  return HttpResponse.json(
    { message: 'You are being rate limited.', retry_after: opts.retryAfterS, global: opts.global ?? false },
    { status: 429, headers },
  );
}

type FormErrors = Record<string, unknown>;

function addError(errors: FormErrors, at: (string | number)[], code: string, message: string): void {
  let node = errors;
  for (const key of at.map(String)) node = (node[key] ??= {}) as FormErrors;
  ((node._errors ??= []) as unknown[]).push({ code, message });
}

const chars = (v: unknown): number => (typeof v === 'string' ? [...v.trim()].length : 0);

function maxLength(errors: FormErrors, at: (string | number)[], value: unknown, max: number): void {
  if (chars(value) > max) addError(errors, at, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
}

function validateUsername(errors: FormErrors, username: string): void {
  const bad = (code: string, message: string) => addError(errors, ['username'], code, message);
  const n = chars(username);
  if (n < 1 || n > 80) bad('BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.');
  if (/[@#:]|```/.test(username) || /^(everyone|here)$/i.test(username.trim())) {
    bad('USERNAME_INVALID', 'Username is invalid');
  }
  const banned = /discord|clyde/i.exec(username);
  if (banned) bad('USERNAME_INVALID_CONTAINS', `Username cannot contain "${banned[0].toLowerCase()}"`);
}

function validateColor(errors: FormErrors, at: (string | number)[], color: unknown): void {
  if (color === undefined || color === null) return;
  if (typeof color !== 'number' || !Number.isInteger(color) || color < 0) {
    addError(errors, at, 'NUMBER_TYPE_COERCE', `Value "${JSON.stringify(color)}" is not int.`);
  } else if (color > 0xffffff) {
    addError(errors, at, 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 16777215.');
  }
}

/** Checks the fields of embed `i`; answers the characters they count toward the 6000 total. */
function validateFields(errors: FormErrors, i: number, fields: Record<string, unknown>[]): number {
  let total = 0;
  if (fields.length > 25)
    addError(errors, ['embeds', i, 'fields'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  fields.forEach((field, j) => {
    for (const [key, max] of [
      ['name', 256],
      ['value', 1024],
    ] as const) {
      if (chars(field[key]) === 0)
        addError(errors, ['embeds', i, 'fields', j, key], 'BASE_TYPE_REQUIRED', 'This field is required');
      maxLength(errors, ['embeds', i, 'fields', j, key], field[key], max);
      total += chars(field[key]);
    }
  });
  return total;
}

/** Checks embed `i`; answers the characters it counts toward the 6000 total. */
function validateEmbed(errors: FormErrors, embed: Record<string, unknown>, i: number): number {
  maxLength(errors, ['embeds', i, 'title'], embed.title, 256);
  maxLength(errors, ['embeds', i, 'description'], embed.description, 4096);
  validateColor(errors, ['embeds', i, 'color'], embed.color);
  const fields = Array.isArray(embed.fields) ? (embed.fields as Record<string, unknown>[]) : [];
  const fieldChars = validateFields(errors, i, fields);
  const footer = embed.footer as { text?: unknown } | undefined;
  const author = embed.author as { name?: unknown } | undefined;
  maxLength(errors, ['embeds', i, 'footer', 'text'], footer?.text, 2048);
  maxLength(errors, ['embeds', i, 'author', 'name'], author?.name, 256);
  return (
    fieldChars + chars(embed.title) + chars(embed.description) + chars(footer?.text) + chars(author?.name)
  );
}

function validateAllowedMentions(errors: FormErrors, allowedMentions: unknown): void {
  const parse = (allowedMentions as { parse?: unknown } | undefined)?.parse;
  if (!Array.isArray(parse)) return;
  parse.forEach((p: unknown, k) => {
    if (p !== 'roles' && p !== 'users' && p !== 'everyone') {
      addError(
        errors,
        ['allowed_mentions', 'parse', k],
        'ENUM_TYPE_COERCE',
        `Value "${String(p)}" is not a valid enum value.`,
      );
    }
  });
}

/** Discord's form validation of an execute-webhook body: 50035 errors, or 50006 for nothing to send. */
function validateWebhookBody(body: Record<string, unknown>, fileCount = 0): Response | undefined {
  const errors: FormErrors = {};
  maxLength(errors, ['content'], body.content, 2000);
  if (typeof body.username === 'string') validateUsername(errors, body.username);
  const embeds = Array.isArray(body.embeds) ? (body.embeds as Record<string, unknown>[]) : [];
  if (embeds.length > 10)
    addError(errors, ['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  let total = 0;
  embeds.slice(0, 10).forEach((embed, i) => {
    total += validateEmbed(errors, embed, i);
  });
  if (total > 6000)
    addError(errors, ['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
  validateAllowedMentions(errors, body.allowed_mentions);
  if (Object.keys(errors).length > 0) {
    return HttpResponse.json({ message: 'Invalid Form Body', code: 50035, errors }, { status: 400 });
  }
  if (chars(body.content) === 0 && embeds.length === 0 && fileCount === 0) {
    return HttpResponse.json({ message: 'Cannot send an empty message', code: 50006 }, { status: 400 });
  }
  return undefined;
}

const FILES_MAX = 10;
const FILE_BYTES_MAX = 10 * 1024 * 1024;

/** A multipart post: `payload_json` and `files[n]`; 413 (40005) for a file over 10 MiB, 30015 for over 10 files. */
async function readMultipart(
  request: Request,
): Promise<{ body: unknown; files: AcceptedWebhookFile[] } | Response> {
  const form = await request.formData();
  const payload = form.get('payload_json');
  const body: unknown =
    payload === null ? {} : JSON.parse(typeof payload === 'string' ? payload : await payload.text());
  const files: AcceptedWebhookFile[] = [];
  for (const [field, value] of form.entries()) {
    if (!/^files\[\d+\]$/.test(field) || typeof value === 'string') continue;
    if (value.size > FILE_BYTES_MAX) {
      return HttpResponse.json({ message: 'Request entity too large', code: 40005 }, { status: 413 });
    }
    files.push({
      field,
      filename: value.name,
      contentType: value.type,
      bytes: new Uint8Array(await value.arrayBuffer()),
    });
  }
  if (files.length > FILES_MAX) {
    return HttpResponse.json(
      { message: `Maximum number of attachments in a message reached (${FILES_MAX})`, code: 30015 },
      { status: 400 },
    );
  }
  return { body, files };
}

function snowflake(nowMs: number, increment: number): string {
  return ((BigInt(nowMs - DISCORD_EPOCH_MS) << 22n) | BigInt(increment & 0xfff)).toString();
}

/** The body of a post, JSON or multipart; Discord's 400 (or 413) when it cannot be read. */
async function readBody(
  request: Request,
): Promise<{ body: Record<string, unknown>; files: AcceptedWebhookFile[] } | Response> {
  let body: unknown;
  let files: AcceptedWebhookFile[] = [];
  try {
    if (request.headers.get('content-type')?.startsWith('multipart/form-data')) {
      const form = await readMultipart(request);
      if (form instanceof Response) return form;
      ({ body, files } = form);
    } else {
      body = JSON.parse(await request.text());
    }
  } catch {
    return HttpResponse.json(
      { message: 'The request body contains invalid JSON.', code: 50109 },
      { status: 400 },
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return HttpResponse.json({ message: 'Cannot send an empty message', code: 50006 }, { status: 400 });
  }
  return { body: body as Record<string, unknown>, files };
}

function acceptedMessage(
  ids: { id: string; webhookId: string },
  b: Record<string, unknown>,
  files: AcceptedWebhookFile[],
  nowMs: number,
): AcceptedWebhookMessage {
  return {
    ...ids,
    content: typeof b.content === 'string' ? b.content : undefined,
    username: typeof b.username === 'string' ? b.username.trim() : undefined,
    embeds: Array.isArray(b.embeds) ? (b.embeds as Record<string, unknown>[]) : [],
    allowedMentions: b.allowed_mentions,
    files,
    body: b,
    receivedAt: new Date(nowMs).toISOString(),
  };
}

/** The message object Discord answers under `wait=true`; attachment ids follow from `increment`. */
function messageObject(
  message: AcceptedWebhookMessage,
  nowMs: number,
  increment: number,
): Record<string, unknown> {
  const id = message.webhookId;
  return {
    id: message.id,
    type: 0,
    content: message.content ?? '',
    channel_id: SIMULATED_CHANNEL_ID,
    author: { bot: true, id, username: message.username ?? 'herald', avatar: null, discriminator: '0000' },
    attachments: message.files.map((f, i) => ({
      id: snowflake(nowMs, increment + i),
      filename: f.filename,
      size: f.bytes.byteLength,
      content_type: f.contentType,
      url: `https://cdn.discordapp.com/attachments/1234567890123456789/${message.id}/${f.filename}`,
    })),
    embeds: message.embeds.map((e) => ({ type: 'rich', ...e })),
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: false,
    timestamp: message.receivedAt.replace('Z', '000+00:00'),
    edited_timestamp: null,
    flags: 0,
    components: [],
    webhook_id: id,
  };
}

/** The rate-limit headers of an accepted post, from the bucket's recent posts (this one included). */
function rateLimitHeaders(
  bucket: string,
  limit: number,
  windowMs: number,
  recent: number[],
  nowMs: number,
): Record<string, string> {
  const resetAfterS = ((recent[0] ?? nowMs) + windowMs - nowMs) / 1000;
  return {
    'x-ratelimit-bucket': bucket,
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - recent.length)),
    'x-ratelimit-reset': ((nowMs + resetAfterS * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfterS.toFixed(3),
  };
}

export function webhookHandlers(opts: WebhookHandlerOptions = {}): RequestHandler[] {
  const inbox = opts.inbox ?? defaultInbox;
  const now = opts.now ?? Date.now;
  const windows = new Map<string, number[]>();
  const limit = opts.rateLimit?.limit ?? BUCKET_LIMIT;
  const windowMs = opts.rateLimit?.windowMs ?? BUCKET_WINDOW_MS;
  let increment = 0;

  /** Counts a post in its bucket: its headers, or the 429 when an enforced bucket is full. */
  const takeSlot = (id: string, token: string, nowMs: number): Record<string, string> | Response => {
    const bucket = hashSeed(id, token).toString(16).padStart(8, '0').repeat(4);
    const recent = (windows.get(bucket) ?? []).filter((t) => t > nowMs - windowMs);
    if (opts.rateLimit && recent.length >= limit) {
      const retryAfterS = Math.max(0.001, ((recent[0] ?? nowMs) + windowMs - nowMs) / 1000);
      return discordRateLimitResponse({ retryAfterS, bucket, nowMs });
    }
    recent.push(nowMs);
    windows.set(bucket, recent);
    return rateLimitHeaders(bucket, limit, windowMs, recent, nowMs);
  };

  return [
    webhookObjectHandler(opts),
    http.post(route('webhook', '/:id/:token'), async ({ request, params }) => {
      const id = String(params.id);
      const token = String(params.token);
      const refused = webhookRefusal(opts, id, token);
      if (refused) return refused;
      const read = await readBody(request);
      if (read instanceof Response) return read;
      const { body, files } = read;
      const invalid = validateWebhookBody(body, files.length);
      if (invalid) return invalid;

      const nowMs = now();
      const headers = takeSlot(id, token, nowMs);
      if (headers instanceof Response) return headers;
      const message = acceptedMessage(
        { id: snowflake(nowMs, increment++), webhookId: id },
        body,
        files,
        nowMs,
      );
      inbox.add(message);
      if (new URL(request.url).searchParams.get('wait') === 'true') {
        return HttpResponse.json(messageObject(message, nowMs, increment), { headers });
      }
      return new HttpResponse(null, { status: 204, headers });
    }),
  ];
}
