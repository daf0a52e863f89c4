// The floor each client is measured against: plain `undici.request` calls sending the
// very requests the client sent (captured from undici's diagnostics channel while the client
// warmed up), over their own Agent, reading each answer as the client would (JSON parsed, bytes
// read), each with a fresh Idempotency-Key where the client sent one. Nothing else: no validation,
// no retries, no timeouts beyond undici's own.
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Agent, request } from 'undici';
import { closedLoop, cpuMsSince } from './stats.ts';

export interface CapturedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

interface UndiciRequest {
  origin: string | URL;
  method: string;
  path: string;
  headers: string[] | string;
  body: unknown;
}

function headerRecord(raw: string[] | string): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]!.toLowerCase()] = raw[i + 1]!;
    return out;
  }
  for (const line of raw.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  return out;
}

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error('the bench floor can only replay string or byte bodies');
}

/** Records up to `max` requests undici sends from now on, until stop(). */
export function captureRequests(max: number): { stop(): CapturedRequest[] } {
  const seen: CapturedRequest[] = [];
  const onCreate = (message: unknown) => {
    if (seen.length >= max) return;
    const req = (message as { request: UndiciRequest }).request;
    const headers = headerRecord(req.headers);
    delete headers['content-length'];
    delete headers.host;
    seen.push({
      url: new URL(req.path, req.origin).href,
      method: req.method,
      headers,
      body: bodyBytes(req.body),
    });
  };
  subscribe('undici:request:create', onCreate);
  return {
    stop() {
      unsubscribe('undici:request:create', onCreate);
      return seen;
    },
  };
}

export interface FloorResult {
  calls: number;
  failed: number;
  callsPerSecond: number;
  cpuUsPerCall: number;
}

/**
 * The request's headers with a new Idempotency-Key where it had one, as the client makes one per
 * call: a replayed key would be answered from the upstream's idempotency record, a cheaper and
 * different answer than the client got.
 */
function freshKey(headers: Record<string, string>): Record<string, string> {
  return headers['idempotency-key'] === undefined ? headers : { ...headers, 'idempotency-key': randomUUID() };
}

/** One measured stretch of calls: how many ran, in how long, with how much CPU. */
export interface Stretch {
  ran: number;
  failed: number;
  wallMs: number;
  cpuMs: number;
}

/**
 * The floor for `requests`, warmed up (`warmup` calls): each measure() replays them in turn with
 * `concurrency` in flight, so the client and its floor can take turns in one run (raw-clients.ts).
 */
export async function openFloor(
  requests: readonly CapturedRequest[],
  opts: { concurrency: number; warmup: number },
): Promise<{ measure(calls: number, maxMs: number): Promise<Stretch>; close(): Promise<void> }> {
  if (requests.length === 0) throw new Error('the bench floor captured no request to replay');
  const agent = new Agent({ pipelining: 1 });
  let failed = 0;
  let next = 0;
  const call = async (): Promise<void> => {
    const r = requests[next++ % requests.length]!;
    try {
      const res = await request(r.url, {
        method: r.method,
        headers: freshKey(r.headers),
        body: r.body,
        dispatcher: agent,
      });
      const isJson = (res.headers['content-type'] ?? '').toString().includes('json');
      if (isJson) await res.body.json();
      else await res.body.arrayBuffer();
      if (res.statusCode >= 300) failed++;
    } catch {
      failed++;
    }
  };
  await closedLoop(opts.warmup, opts.concurrency, call);
  return {
    async measure(calls, maxMs) {
      failed = 0;
      const cpu = process.threadCpuUsage();
      const { ran, wallMs } = await closedLoop(calls, opts.concurrency, call, maxMs);
      return { ran, failed, wallMs, cpuMs: cpuMsSince(cpu) };
    },
    close: () => agent.close(),
  };
}
