// Optional health and metrics endpoints (HEALTH_PORT, or PORT when Slack is not listening on it),
// on loopback unless HEALTH_HOST widens it: /healthz: the process is up; /readyz: adapters
// connected, the store reachable and Redis ready where it is configured; /metrics, or with
// METRICS_PORT /metrics alone on that port, so a public port does not publish it.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpRoutes } from './core/adapter.ts';
import type { Metrics } from './metrics.ts';
import type { Store } from './store/index.ts';

// The CommonJS module, not an ES import: that one fills node:http's whole namespace and so loads
// Node's internal undici, http2, tls and zlib (about 13 MB resident; see sandbox/server.ts).
const { createServer } = process.getBuiltinModule('node:http');

export interface ReadinessCheck {
  name: string;
  check(): boolean | Promise<boolean>;
}

export interface HealthServer {
  /** The address it listens on. */
  readonly host: string;
  readonly port: number;
  /** The port /metrics is served on when it has its own. */
  readonly metricsPort: number | undefined;
  close(): Promise<void>;
}

/**
 * herald's readiness: every adapter connected, the store answering, and Redis ready, a check that
 * exists only where Redis is configured (so /readyz never claims a Redis herald does not use).
 */
export function readinessChecks(parts: {
  adapters: () => readonly { isReady(): boolean }[];
  store: Pick<Store, 'getSlot'>;
  redis: { readonly status: string } | undefined;
}): ReadinessCheck[] {
  const { redis } = parts;
  return [
    {
      name: 'adapters',
      check: () => parts.adapters().length > 0 && parts.adapters().every((a) => a.isReady()),
    },
    { name: 'store', check: async () => (await parts.store.getSlot('readyz', 'probe'), true) },
    ...(redis ? [{ name: 'redis', check: () => redis.status === 'ready' }] : []),
  ];
}

type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The paths adapters serve on the health server (Discord's interactions endpoint), by path. */
export function createRoutes(): HttpRoutes & { get(path: string): RouteHandler | undefined } {
  const byPath = new Map<string, RouteHandler>();
  return {
    add(path, handler) {
      if (byPath.has(path)) throw new Error(`${path} is served already`);
      byPath.set(path, handler);
      return () => byPath.delete(path);
    },
    get: (path) => byPath.get(path),
  };
}

export async function startHealthServer(opts: {
  port: number;
  /** Defaults to 127.0.0.1: only this machine. */
  host?: string;
  /** Serve /metrics on this port (same host) instead of `port`. */
  metricsPort?: number | undefined;
  checks: readonly ReadinessCheck[];
  /** A promise while they are still being made: the server listens first (main.ts). */
  metrics: Metrics | Promise<Metrics>;
  /** Adapters' paths, served before the health paths (any method). */
  routes?: ReturnType<typeof createRoutes>;
}): Promise<HealthServer> {
  const host = opts.host ?? '127.0.0.1';
  const serveMetrics = (res: ServerResponse): void => {
    Promise.resolve(opts.metrics)
      .then(async ({ registry }) => ({ text: await registry.metrics(), type: registry.contentType }))
      .then(
        ({ text, type }) => res.writeHead(200, { 'content-type': type }).end(text),
        () => res.writeHead(500).end(),
      );
  };
  const server: Server = createServer((req, res) => {
    const path = pathOf(req);
    const route = opts.routes?.get(path);
    if (route) {
      route(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (path === '/readyz') {
      void Promise.all(
        opts.checks.map(async (c) => {
          try {
            return [c.name, await c.check()] as const;
          } catch {
            return [c.name, false] as const;
          }
        }),
      ).then((results) => {
        const ready = results.every(([, ok]) => ok);
        res
          .writeHead(ready ? 200 : 503, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) }),
          );
      });
      return;
    }
    if (path === '/metrics' && opts.metricsPort === undefined) {
      serveMetrics(res);
      return;
    }
    notFound(res);
  });
  const metricsServer =
    opts.metricsPort === undefined
      ? undefined
      : createServer((req, res) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') res.writeHead(405, { allow: 'GET, HEAD' }).end();
          else if (pathOf(req) === '/metrics') serveMetrics(res);
          else notFound(res);
        });
  const servers = metricsServer ? [server, metricsServer] : [server];
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  try {
    await listen(server, opts.port, host);
    if (metricsServer) await listen(metricsServer, opts.metricsPort!, host);
  } catch (err) {
    await Promise.all(servers.filter((s) => s.listening).map(close));
    throw err;
  }
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    metricsPort: metricsServer ? (metricsServer.address() as AddressInfo).port : undefined,
    close: async () => void (await Promise.all(servers.map(close))),
  };
}

/** The request's path, without its query. */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] ?? '/';
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not found"}');
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}
