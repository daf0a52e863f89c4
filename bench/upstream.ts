// The benchmark's upstream: the built-in sandbox on loopback, in the bench's own process. The bot
// under test runs in a child process (bot-process.ts), so the sandbox's handlers never share the
// bot's event loop or memory, as with a real upstream. Every request is timed server-side, from
// parsed headers to the last byte written (node:http's diagnostics channels), keyed by the weather
// query `q`, so each command's upstream time can be taken out of its end-to-end time.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { sandboxHandlers } from '../src/sandbox/index.ts';
import { startSandboxServer } from '../src/sandbox/server.ts';
import { cpuMsSince } from './stats.ts';

export interface Collected {
  /** Requests the upstream received since the last collect. */
  requests: number;
  /** Server-side milliseconds per weather query (or path), summed over its requests. */
  serverMs: [key: string, ms: number][];
  /** CPU milliseconds the sandbox's thread used since the last collect. */
  cpuMs: number;
}

export interface Upstream {
  readonly url: string;
  setLatency(ms: number): void | Promise<void>;
  collect(): Promise<Collected>;
  close(): Promise<void>;
}

/** The weather query when there is one (the per-command key), else the path. */
function keyOf(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  return new URLSearchParams(url.slice(query + 1)).get('q') ?? url.slice(0, query);
}

export async function startUpstream(opts: { latencyMs: number; credential: string }): Promise<Upstream> {
  const started = new WeakMap<object, number>();
  let requests = 0;
  let serverMs = new Map<string, number>();
  let cpu = process.threadCpuUsage();
  const onStart = (message: unknown) => {
    requests++;
    started.set((message as { request: IncomingMessage }).request, performance.now());
  };
  const onFinish = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    const at = started.get(request);
    if (at === undefined) return;
    const key = keyOf(request.url ?? '/');
    serverMs.set(key, (serverMs.get(key) ?? 0) + performance.now() - at);
  };
  subscribe('http.server.request.start', onStart);
  subscribe('http.server.response.finish', onFinish);
  const server = await startSandboxServer({
    handlers: sandboxHandlers({ credential: opts.credential }),
    host: '127.0.0.1',
    port: 0,
    latencyMs: opts.latencyMs,
  });
  return {
    url: server.url,
    setLatency: (ms) => server.setLatency(ms),
    collect() {
      const out: Collected = { requests, serverMs: [...serverMs], cpuMs: cpuMsSince(cpu) };
      requests = 0;
      serverMs = new Map();
      cpu = process.threadCpuUsage();
      return Promise.resolve(out);
    },
    async close() {
      unsubscribe('http.server.request.start', onStart);
      unsubscribe('http.server.response.finish', onFinish);
      await server.close();
    },
  };
}
