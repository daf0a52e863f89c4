// The benchmark's upstream: the built-in sandbox on loopback, in a worker thread of the bench
// process so that its msw handlers do not run on the bot's event loop (a real upstream never
// does). It times every request server-side, from parsed headers to the last byte written, with
// node:http's diagnostics channels, and reports the times keyed by the weather query (`q`).
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { sandboxHandlers } from '../src/sandbox/index.ts';
import { startSandboxServer } from '../src/sandbox/server.ts';

export interface WorkerInput {
  latencyMs: number;
  credential: string;
}

export type WorkerCommand = { type: 'latency'; ms: number } | { type: 'collect' } | { type: 'close' };

export type WorkerEvent =
  | { type: 'ready'; url: string }
  | { type: 'collected'; requests: number; serverMs: [key: string, ms: number][]; cpuMs: number }
  | { type: 'closed' };

const port = parentPort!;
const input = workerData as WorkerInput;
const started = new WeakMap<object, number>();
let requests = 0;
let serverMs = new Map<string, number>();
let cpuMark = process.threadCpuUsage();

/** The weather query when there is one (the per-command key), else the path. */
function keyOf(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  return new URLSearchParams(url.slice(query + 1)).get('q') ?? url.slice(0, query);
}

subscribe('http.server.request.start', (message) => {
  const { request } = message as { request: IncomingMessage };
  requests++;
  started.set(request, performance.now());
});
subscribe('http.server.response.finish', (message) => {
  const { request } = message as { request: IncomingMessage };
  const at = started.get(request);
  if (at === undefined) return;
  const key = keyOf(request.url ?? '/');
  serverMs.set(key, (serverMs.get(key) ?? 0) + performance.now() - at);
});

const server = await startSandboxServer({
  handlers: sandboxHandlers({ credential: input.credential }),
  host: '127.0.0.1',
  port: 0,
  latencyMs: input.latencyMs,
});

function send(event: WorkerEvent): void {
  port.postMessage(event);
}

port.on('message', (command: WorkerCommand) => {
  if (command.type === 'latency') server.setLatency(command.ms);
  else if (command.type === 'collect') {
    // CPU time of this thread (the sandbox) since the last collect.
    const used = process.threadCpuUsage(cpuMark);
    send({ type: 'collected', requests, serverMs: [...serverMs], cpuMs: (used.user + used.system) / 1000 });
    requests = 0;
    serverMs = new Map();
    cpuMark = process.threadCpuUsage();
  } else {
    void server.close().then(() => {
      send({ type: 'closed' });
      port.close();
    });
  }
});
send({ type: 'ready', url: server.url });
