// Path building: every interpolated value is percent-encoded as one whole segment, so no input
// can add a segment, a query or a fragment, or climb with `..`.

/** A value that cannot be a path segment at all: `.`, `..` or empty. */
export class UnsafePathSegmentError extends Error {
  constructor(value: string) {
    super(`"${value.slice(0, 20)}" cannot be used as a path segment`);
    this.name = 'UnsafePathSegmentError';
  }
}

/** Encodes one value so that it stays inside its path segment. */
function encodeSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/**
 * Tag for request paths: path`/emails/${id}` encodes `id` as one segment. A value that is empty,
 * or that leaves its segment as `.` or `..`, is refused: URL parsing drops or climbs such segments,
 * and WHATWG URL (which undici uses) treats `%2e%2e` as `..`, so no encoding would keep them.
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const text = String(values[i]);
    if (text === '') throw new UnsafePathSegmentError(text);
    out += encodeSegment(text) + (strings[i + 1] ?? '');
  }
  if (values.length > 0 && out.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new UnsafePathSegmentError(values.map(String).join(', '));
  }
  return out;
}

/** Joins a base URL that may carry a path (`https://h/v1beta`) with an encoded request path. */
export function joinUrl(baseUrl: string, requestPath: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const rest = requestPath.startsWith('/') ? requestPath : `/${requestPath}`;
  return base + rest;
}
