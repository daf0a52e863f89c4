// Path building: every interpolated value is percent-encoded as one whole segment, so no input
// can add a segment, a query or a fragment, or climb with `..`.

/** Encodes one value so that it stays inside its path segment. */
export function encodeSegment(value: string | number): string {
  const text = String(value);
  const encoded = encodeURIComponent(text);
  // `.` and `..` survive encodeURIComponent and are dot-segments that URL normalisation removes.
  return /^\.+$/.test(text) ? encoded.replaceAll('.', '%2E') : encoded;
}

/** Tag for request paths: path`/emails/${id}` encodes `id` as one segment. */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += encodeSegment(values[i] as string | number) + (strings[i + 1] ?? '');
  }
  return out;
}

/** Joins a base URL that may carry a path (`https://h/v1beta`) with an encoded request path. */
export function joinUrl(baseUrl: string, requestPath: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const rest = requestPath.startsWith('/') ? requestPath : `/${requestPath}`;
  return base + rest;
}
