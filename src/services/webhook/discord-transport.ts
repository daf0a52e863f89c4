// How @discordjs/rest's requests leave the process (its `makeRequest` option,
// https://discord.js.org/docs/packages/rest/main/RESTOptions:Interface): undici's `request` for JSON
// and empty requests, Node's fetch for file uploads, and answers shaped as the SDK reads them.
// Loaded with the SDK by discord-rest.ts; undici is only a type here. What the SDK's default
// transport (fetch) does not serve is cost, not contract (`discordTransport` below); the contract
// holds through this one: test/adapters/discord/contract.test.ts, test/adapters/discord/http-edit.test.ts.
import type { request as undiciRequest } from 'undici';

/**
 * An answer's headers as the SDK and herald read them (`get`, `has`, `forEach`), over undici's own
 * object (its names already lower-case) rather than a copy: the SDK reads six of them an answer.
 */
class AnswerHeaders {
  readonly #raw: Record<string, string | string[] | undefined>;
  constructor(raw: Record<string, string | string[] | undefined>) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }
  forEach(each: (value: string, name: string) => void): void {
    for (const name in this.#raw) {
      const value = this.get(name);
      if (value !== null) each(value, name);
    }
  }
}

type UndiciBody = Awaited<ReturnType<typeof undiciRequest>>['body'];

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
 * A success's answer, its body still unread. A class, so that an answer costs one object rather
 * than one and four closures: the SDK reads it (`json()`), and its `response` event takes a spread
 * copy of the fields alone, which herald reads only the status and headers of.
 */
class Success implements AnswerLike {
  readonly body: UndiciBody;
  readonly headers: AnswerHeaders;
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly #isUnread: boolean;
  constructor(status: number, headers: AnswerHeaders, body: UndiciBody, isUnread: boolean) {
    this.status = status;
    this.statusText = String(status);
    this.ok = status >= 200 && status < 300;
    this.headers = headers;
    this.body = body;
    this.#isUnread = isUnread;
  }
  get bodyUsed(): boolean {
    return this.body.bodyUsed;
  }
  text(): Promise<string> {
    return this.body.text();
  }
  json(): Promise<unknown> {
    return this.#isUnread ? this.body.dump() : this.body.json();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.body.arrayBuffer();
  }
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
    const headers = new AnswerHeaders(res.headers);
    if (status < 400) return new Success(status, headers, res.body, isAnswerUnread);
    const text = await res.body.text();
    return {
      headers,
      status,
      statusText: String(status),
      ok: false,
      body: null,
      bodyUsed: false,
      text: () => Promise.resolve(text),
      // A body that is not JSON rejects, as a Response's json() does.
      json: () => Promise.resolve().then(() => JSON.parse(text) as unknown),
      arrayBuffer: () => Promise.resolve(new TextEncoder().encode(text).buffer),
    };
  };
}
