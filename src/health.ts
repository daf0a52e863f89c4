// Optional health and metrics endpoints (HEALTH_PORT, or PORT when Slack is not listening on it):
// /healthz: the process is up; /readyz: adapters connected and the store reachable; /metrics.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

export interface ReadinessCheck {
  name: string;
  check(): boolean | Promise<boolean>;
}

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startHealthServer(opts: {
  port: number;
  host?: string;
  checks: readonly ReadinessCheck[];
  metrics: Metrics;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
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
    if (path === '/metrics') {
      opts.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': opts.metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
