// Every credential carrier of the eight services (DESIGN.md, "Security"), in one list, and the
// functions that blank them out of headers, URLs and free text before anything is logged or thrown.

export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'x-api-key',
  'xi-api-key',
  'idempotency-key',
];
export const SECRET_QUERY_PARAMS: readonly string[] = ['appid', 'access_token', 'key', 'app_id', 'app_key'];
export const REDACTED = '[REDACTED]';

const knownSecrets = new Set<string>();

/** Registers a credential value so that redactText blanks it wherever it appears. */
export function registerSecret(value: string | undefined): void {
  // Very short values would blank ordinary words; real credentials are long.
  if (value && value.length >= 6) knownSecrets.add(value);
}

export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.includes(name.toLowerCase())
      ? REDACTED
      : Array.isArray(value)
        ? value.join(', ')
        : value;
  }
  return out;
}

const QUERY_PARAM_RE = new RegExp(`([?&](?:${SECRET_QUERY_PARAMS.join('|')})=)[^&#\\s"']*`, 'gi');
const WEBHOOK_TOKEN_RE = /(\/webhooks\/[^/\s?#"']+\/)[^/\s?#"']+/gi;
const BEARER_RE = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

// One cheap scan decides whether the three patterns need to run at all (most log strings are clean).
const ANY_CARRIER_RE = new RegExp(`[?&](?:${SECRET_QUERY_PARAMS.join('|')})=|/webhooks/|Bearer\\s`, 'i');

/** Blanks credential query parameters, the webhook token segment and bearer tokens in any text. */
export function redactText(text: string): string {
  const hasCarrier = ANY_CARRIER_RE.test(text);
  if (!hasCarrier) {
    let hasSecret = false;
    for (const secret of knownSecrets) {
      if (text.includes(secret) || text.includes(encodeURIComponent(secret))) {
        hasSecret = true;
        break;
      }
    }
    if (!hasSecret) return text;
  }
  let out = text
    .replace(QUERY_PARAM_RE, `$1${REDACTED}`)
    .replace(WEBHOOK_TOKEN_RE, `$1${REDACTED}`)
    .replace(BEARER_RE, `$1${REDACTED}`);
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.replaceAll(encoded, REDACTED);
  }
  return out;
}

/** A URL without its query string and with the webhook token blanked: safe for logs. */
export function redactUrl(url: string): string {
  return redactText(url);
}
