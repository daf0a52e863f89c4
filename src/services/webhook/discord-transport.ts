// How @discordjs/rest's requests leave the process (its `makeRequest` option,
// https://discord.js.org/docs/packages/rest/main/RESTOptions:Interface): undici's `request` for JSON
// and empty requests, Node's fetch for file uploads, and answers shaped as the SDK reads them.
// Loaded with the SDK by discord-rest.ts; undici is only a type here.
import type { request as undiciRequest } from 'undici';

/** An answer's headers as the SDK and herald read them (`get`, `has`, `forEach`), names lower-case. */
class AnswerHeaders {
  readonly #byName = new Map<string, string>();
  constructor(raw: Record<string, string | string[] | undefined>) {
    for (const name in raw) {
      const value = raw[name];
      if (value !== undefined) this.#byName.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }
  get(name: string): string | null {
    return this.#byName.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#byName.has(name.toLowerCase());
  }
  forEach(each: (value: string, name: string) => void): void {
    this.#byName.forEach(each);
  }
}

/** What the SDK reads of an answer (its `ResponseLike`). */
export interface AnswerLike {
  body: unknown;
  bodyUsed: boolean;
  headers: AnswerHeaders;
  status: number;
  statusText: string;
  ok: boolean;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * How the SDK's requests leave. A file upload (FormData) goes through Node's fetch, as the SDK
 * documents it (undici's `request` refuses the FormData of another copy of undici); every JSON or
 * empty request through undici's `request`, far cheaper in CPU than fetch's web streams (the row
 * "server CPU per /weather command" of `npm run bench -- interactions`; figures in
 * docs/DISCORD-HTTP.md). A failure's body is read at once, so that both the SDK and herald's
 * `response` listener can read it. With `isAnswerUnread`, a success's body is let go unparsed: an
 * interaction response's answer is the message herald just sent, of which it needs only the
 * status.
 */
export function discordTransport(request: typeof undiciRequest, isAnswerUnread: boolean) {
  return async (url: string, init: RequestInit): Promise<Response | AnswerLike> => {
    if (init.body instanceof FormData) return fetch(url, init);
    const res = await request(url, {
      method: init.method as never,
      headers: init.headers as Record<string, string>,
      body: init.body as string | null,
      signal: init.signal ?? undefined,
    });
    const status = res.statusCode;
    const base = {
      headers: new AnswerHeaders(res.headers),
      status,
      statusText: String(status),
      ok: status >= 200 && status < 300,
    };
    if (status < 400) {
      const { body } = res;
      return {
        ...base,
        body,
        get bodyUsed() {
          return body.bodyUsed;
        },
        text: () => body.text(),
        json: () => (isAnswerUnread ? body.dump() : body.json()),
        arrayBuffer: () => body.arrayBuffer(),
      };
    }
    const text = await res.body.text();
    return {
      ...base,
      body: null,
      bodyUsed: false,
      text: () => Promise.resolve(text),
      // A body that is not JSON rejects, as a Response's json() does.
      json: () => Promise.resolve().then(() => JSON.parse(text) as unknown),
      arrayBuffer: () => Promise.resolve(new TextEncoder().encode(text).buffer),
    };
  };
}
