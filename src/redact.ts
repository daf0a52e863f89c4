// The one redaction module: every credential carrier of the eight services
// and the two chat platforms, and the functions that blank them out of free text and whole values
// (log.ts also blanks SECRET_HEADERS and SECRET_QUERY_PARAMS by key). Logs (src/log.ts), error
// text (src/http), adapters and replies (the dispatcher) all use it. A leaf: it imports nothing of
// herald, so every layer may import it.

export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'x-api-key',
  'xi-api-key',
  'idempotency-key',
];
export const SECRET_QUERY_PARAMS: readonly string[] = ['appid', 'access_token', 'key', 'app_id', 'app_key'];
export const REDACTED = '[REDACTED]';

/** Shorter values would blank ordinary words; real credentials are long. */
const MIN_SECRET_LENGTH = 6;

/**
 * Each registered secret and its percent-encoded form (computed once). An array rather than a
 * Map: every string of every upstream answer is checked against it, and a loop over an array
 * allocates nothing where a Map's iterator makes an entry per secret per string.
 */
const knownSecrets: { secret: string; encoded: string }[] = [];

/** Registers a credential value so that redactText blanks it wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH && !knownSecrets.some((k) => k.secret === value)) {
    knownSecrets.push({ secret: value, encoded: encodeURIComponent(value) });
  }
}

/**
 * Forgets every registered secret. The registry is one per process, as the configuration is; the
 * test suite runs many files in one process and forgets after each file (test/support/setup.ts).
 */
export function forgetSecrets(): void {
  knownSecrets.length = 0;
}

const QUERY_PARAM_RE = new RegExp(`([?&](?:${SECRET_QUERY_PARAMS.join('|')})=)[^&#\\s"']*`, 'gi');
// Discord's webhook and interaction tokens are the path segment after the id.
const PATH_TOKEN_RE = /(\/(?:webhooks|interactions)\/[^/\s?#"']+\/)[^/\s?#"']+/gi;
const BEARER_RE = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
// Slack bot, user, app-level and refresh tokens, whatever the configuration says.
const SLACK_TOKEN_RE = /\bx(?:ox[a-z]|app)-[A-Za-z0-9-]+/gi;
// A Slack response_url is a capability: whoever holds it can post as the app for 30 minutes.
const SLACK_RESPONSE_URL_RE = /(https:\/\/hooks\.slack\.com\/)\S+/gi;

// One cheap scan decides whether the patterns need to run at all (most strings are clean).
const ANY_CARRIER_RE = new RegExp(
  `[?&](?:${SECRET_QUERY_PARAMS.join('|')})=|/webhooks/|/interactions/|Bearer\\s|\\bx(?:ox[a-z]|app)-|hooks\\.slack\\.com/`,
  'i',
);

function blankValue(text: string, secret: string, encoded: string): string {
  let out = text.includes(secret) ? text.replaceAll(secret, REDACTED) : text;
  if (encoded !== secret && out.includes(encoded)) out = out.replaceAll(encoded, REDACTED);
  return out;
}

const usable = (extra: readonly string[]) => extra.filter((s) => s.length >= MIN_SECRET_LENGTH);

function holdsAny(text: string, extra: readonly string[]): boolean {
  for (const { secret, encoded } of knownSecrets) {
    if (text.includes(secret) || (encoded !== secret && text.includes(encoded))) return true;
  }
  // Most calls name no extra secret: no array is made for them (a reply's every string comes here).
  if (extra.length === 0) return false;
  return usable(extra).some((s) => text.includes(s) || text.includes(encodeURIComponent(s)));
}

function blankAll(text: string, extra: readonly string[]): string {
  let out = text;
  for (const { secret, encoded } of knownSecrets) out = blankValue(out, secret, encoded);
  for (const secret of usable(extra)) out = blankValue(out, secret, encodeURIComponent(secret));
  return out;
}

/**
 * Blanks every registered secret (and `extra`), plain or percent-encoded, and nothing else: for
 * data such as an upstream's answer, where `&key=` may be part of a city name.
 */
export function redactSecrets(text: string, extra: readonly string[] = []): string {
  return holdsAny(text, extra) ? blankAll(text, extra) : text;
}

/**
 * Whether redactText could change `text` (a carrier or a registered secret in it): false means it
 * returns `text` as it is. A carrier or secret inside any line of a joined text is inside the
 * whole, so one scan of the joined text clears all its lines at once.
 */
export function mayNeedRedaction(text: string): boolean {
  return ANY_CARRIER_RE.test(text) || holdsAny(text, []);
}

/**
 * Blanks every credential carrier (query parameters, Discord path tokens, bearer values, Slack
 * tokens and response URLs) and every registered secret, plain or percent-encoded, in any text.
 * `extra` adds secrets known only to the caller (an adapter's own token in its tests).
 * Redact a whole text before cutting it: a secret cut in two no longer matches.
 */
export function redactText(text: string, extra: readonly string[] = []): string {
  if (!ANY_CARRIER_RE.test(text)) return redactSecrets(text, extra);
  const out = text
    .replace(QUERY_PARAM_RE, `$1${REDACTED}`)
    .replace(PATH_TOKEN_RE, `$1${REDACTED}`)
    .replace(BEARER_RE, `$1${REDACTED}`)
    .replace(SLACK_TOKEN_RE, REDACTED)
    .replace(SLACK_RESPONSE_URL_RE, `$1${REDACTED}`);
  return blankAll(out, extra);
}

/**
 * What stands in for an object or array nested deeper than a walk goes (redactValue's, the log's):
 * what is not walked is not checked, so it is not handed on either.
 */
export const TOO_DEEP = '[TOO DEEP]';

/** The deepest level redactValue walks: a reply is 5 levels deep, a mapped upstream answer fewer. */
const MAX_VALUE_DEPTH = 8;

/**
 * A copy of a value (a reply, an embed, a record) with redactText applied to every string in it,
 * down to MAX_VALUE_DEPTH; an object or array below that is replaced by TOO_DEEP. Bytes, dates and
 * other class instances are kept as they are. The value itself is returned when nothing in it
 * needed blanking, so clean replies cost no copy.
 */
export function redactValue<T>(value: T, blank: (text: string) => string = redactText): T {
  return redactAny(value, 0, blank) as T;
}

function redactAny(value: unknown, depth: number, blank: (text: string) => string): unknown {
  if (typeof value === 'string') return blank(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_VALUE_DEPTH) return TOO_DEEP;
  // Walked in place and copied only where a string changed: every upstream answer comes here, and
  // nearly all are clean, so the walk makes no array or entry list of its own.
  if (Array.isArray(value)) {
    const list = value as unknown[];
    let out: unknown[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      const r = redactAny(v, depth + 1, blank);
      if (r !== v) (out ??= list.slice())[i] = r;
    }
    return out ?? list;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  // A plain object's enumerable keys are its own (its prototype is Object.prototype or none).
  for (const k in record) {
    const v = record[k];
    const r = redactAny(v, depth + 1, blank);
    if (r !== v) (out ??= { ...record })[k] = r;
  }
  return out ?? value;
}

/** The base64 alphabet's two variants: standard (+/) and URL-safe (-_). */
const toBase64Url = (b64: string) => b64.replaceAll('+', '-').replaceAll('/', '_');

/**
 * The forms a secret can take inside binary bytes: its UTF-8 bytes, percent-encoded, and base64
 * (standard and URL-safe) at each of the three alignments it can start at in a longer base64
 * stream, each cut to the characters that depend on the secret's bytes alone.
 */
function binaryForms(secret: string): Buffer[] {
  const raw = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret, encodeURIComponent(secret)]);
  for (let lead = 0; lead < 3; lead += 1) {
    const b64 = Buffer.concat([Buffer.alloc(lead), raw]).toString('base64');
    // Characters before `skip` carry bits of the lead bytes; after `end`, of whatever follows.
    const skip = [0, 2, 3][lead]!;
    const end = Math.floor((lead + raw.length) / 3) * 4;
    const core = b64.slice(skip, end);
    if (core.length >= MIN_SECRET_LENGTH - 1) forms.add(core).add(toBase64Url(core));
  }
  return [...forms].map((form) => Buffer.from(form, 'utf8'));
}

/**
 * Whether binary bytes (an mp3, any answer taken as bytes) hold a registered secret, or one of
 * `extra`, raw, percent-encoded or base64-encoded: such an answer is refused, never kept or sent.
 */
export function bytesHoldSecret(bytes: Uint8Array, extra: readonly string[] = []): boolean {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const secret of [...knownSecrets.map((k) => k.secret), ...usable(extra)]) {
    for (const form of binaryForms(secret)) if (haystack.includes(form)) return true;
  }
  return false;
}
