// herald's one public HTTP server (HEALTH_PORT, or PORT), on loopback unless HEALTH_HOST widens it:
// /healthz: the process is up; /readyz: adapters connected, the store reachable and Redis ready where
// it is configured; the platforms' endpoints adapters add (Discord's interactions, Slack's events);
// and /metrics only where asked for (METRICS_PORT, a server of its own, or METRICS_ON_PUBLIC_PORT).
// Anyone may open a connection to it, so it bounds what a connection can hold: headers and bodies
// have a few seconds to arrive, a body is read only once the route has admitted it by its headers
// (src/request-body.ts), open connections are capped in total and, where set, per address, and
// past a number of connections no signed request has come through yet, the one that has waited
// longest is dropped as a new one opens.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpRoute, HttpRoutes } from './core/adapter.ts';
import type { Metrics } from './metrics.ts';
import { BODY_DEADLINE_MS, createBodyBudget, readBody, type BodyBudget } from './request-body.ts';
import type { Store } from './store/index.ts';

// The CommonJS module, not an ES import: that one fills node:http's whole namespace and so loads
// Node's internal undici, http2, tls and zlib (about 13 MB resident; see sandbox/server.ts).
const { createServer } = process.getBuiltinModule('node:http');

/** A request's headers must have arrived within this (Node's default is a minute). */
export const HEADERS_TIMEOUT_MS = 5_000;
/** The whole request within this (Node's default is 300 s); a body has BODY_DEADLINE_MS of it. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** How often Node looks for requests past those timeouts (its default, 30 s, would let them run on). */
const TIMEOUT_CHECK_MS = 1_000;
const READ_BUFFER_BYTES = 16 * 1024;
/** The request line and headers at most (431 past it). */
export const MAX_HEADER_BYTES = 8 * 1024;
/** Open connections at most, all clients together (HTTP_MAX_CONNECTIONS). */
export const MAX_CONNECTIONS = 4_096;
/**
 * Connections through which no request has yet been verified, at most
 * (HTTP_MAX_UNVERIFIED_CONNECTIONS): Node's own memory for a connection is what held connections
 * cost, whatever they send, so their number is what bounds it (the RSS row of
 * `npm run bench -- interactions slow`; docs/DISCORD-HTTP.md, "Where the memory goes").
 */
export const MAX_UNVERIFIED_CONNECTIONS = 1_000;

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

/** The paths adapters serve on the public server (Discord's interactions, Slack's events), by path. */
export function createRoutes(): HttpRoutes & { get(path: string): HttpRoute | undefined } {
  const byPath = new Map<string, HttpRoute>();
  return {
    add(path, route) {
      if (byPath.has(path)) throw new Error(`${path} is served already`);
      byPath.set(path, route);
      return () => byPath.delete(path);
    },
    get: (path) => byPath.get(path),
  };
}

/** What bounds the connections to the public server; each has a default. */
export interface ConnectionLimits {
  maxConnections?: number;
  /** Unset: no cap per address (behind a proxy every connection has the proxy's address). */
  maxConnectionsPerAddress?: number | undefined;
  maxUnverifiedConnections?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  bodyDeadlineMs?: number;
  budget?: BodyBudget;
}

/**
 * Answers `status` and closes the connection once the answer is written, so that nothing more of
 * the request (its body) is read.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res.shouldKeepAlive = false;
  res.writeHead(status, { ...headers, connection: 'close' }).end(() => req.socket.destroy());
}

/** What serving a route needs besides the route: the body's bounds, and who to tell of a success. */
interface RouteLimits extends Required<Pick<ConnectionLimits, 'bodyDeadlineMs' | 'budget'>> {
  /** The connection carried a request its route answered with success: it was signed. */
  verified(socket: Socket): void;
}

/**
 * Reads a route's body within its admission and hands both to the route. A route answers success
 * only to a request whose signature it verified, so a success marks its connection verified.
 */
function serveRoute(route: HttpRoute, req: IncomingMessage, res: ServerResponse, limits: RouteLimits) {
  res.once('finish', () => {
    if (res.statusCode < 400) limits.verified(req.socket);
  });
  const admission = route.admit(req);
  if ('status' in admission) {
    refuse(req, res, admission.status, admission.headers);
    return;
  }
  void readBody(req, {
    maxBytes: admission.maxBytes,
    budget: limits.budget,
    deadlineMs: limits.bodyDeadlineMs,
  }).then((read) => (read.ok ? route.handle(req, res, read.body) : refuse(req, res, read.status)));
}

/** Drops a connection past `max` from one address. */
function capPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Keeps at most `max` open connections through which no request has been verified: past it, the
 * one open longest is dropped as a new one opens, so connections held open without a signature
 * cannot add up, while a signed request on a new connection still gets in (it is the newest) and
 * a load balancer's verified connections are never dropped. Returns what marks one verified.
 */
export function dropLongestUnverified(server: Server, max: number): (socket: Socket) => void {
  // A Set iterates in insertion order: the first is the one open longest.
  const unverified = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    // Already dropped by the cap per address.
    if (socket.destroyed) return;
    unverified.add(socket);
    socket.once('close', () => unverified.delete(socket));
    if (unverified.size <= max) return;
    const longest = unverified.values().next().value!;
    unverified.delete(longest);
    longest.destroy();
  });
  return (socket) => void unverified.delete(socket);
}

/** A server bounded by `limits`, and what marks one of its connections verified. */
function boundedServer(
  limits: ConnectionLimits,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): { server: Server; verified: (socket: Socket) => void } {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, limits.headersTimeoutMs ?? TIMEOUT_CHECK_MS),
      // What a request may buffer before it is read: a refused body stops here, not at Node's 64 KiB.
      highWaterMark: READ_BUFFER_BYTES,
      // Discord's and Slack's headers take about a kilobyte, a proxy's a few more; Node allows 16 KiB.
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    listener,
  );
  server.maxConnections = limits.maxConnections ?? MAX_CONNECTIONS;
  if (limits.maxConnectionsPerAddress !== undefined) capPerAddress(server, limits.maxConnectionsPerAddress);
  const verified = dropLongestUnverified(
    server,
    limits.maxUnverifiedConnections ?? MAX_UNVERIFIED_CONNECTIONS,
  );
  return { server, verified };
}

export async function startHealthServer(opts: {
  port: number;
  /** Defaults to 127.0.0.1: only this machine. */
  host?: string;
  /** Serve /metrics on this port (same host), on a server of its own. */
  metricsPort?: number | undefined;
  /** Serve /metrics on `port` too: only when asked for, since `port` may be public. */
  isMetricsOnPort?: boolean;
  checks: readonly ReadinessCheck[];
  /** A promise while they are still being made: the server listens first (main.ts). */
  metrics: Metrics | Promise<Metrics>;
  /** Adapters' paths, served before the health paths. */
  routes?: ReturnType<typeof createRoutes>;
  limits?: ConnectionLimits;
}): Promise<HealthServer> {
  const host = opts.host ?? '127.0.0.1';
  const limits = opts.limits ?? {};
  const routeLimits: RouteLimits = {
    budget: limits.budget ?? createBodyBudget(),
    bodyDeadlineMs: limits.bodyDeadlineMs ?? BODY_DEADLINE_MS,
    verified: () => {},
  };
  const serveMetrics = (res: ServerResponse) => writeMetrics(res, opts.metrics);
  const { server, verified } = boundedServer(limits, (req, res) => {
    const path = pathOf(req);
    const route = opts.routes?.get(path);
    if (route) {
      serveRoute(route, req, res, routeLimits);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(req, res, 405, { allow: 'GET, HEAD' });
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (path === '/readyz') {
      serveReadiness(res, opts.checks);
      return;
    }
    if (path === '/metrics' && opts.isMetricsOnPort === true) {
      serveMetrics(res);
      return;
    }
    notFound(res);
  });
  const metricsServer =
    opts.metricsPort === undefined
      ? undefined
      : boundedServer(limits, (req, res) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') refuse(req, res, 405, { allow: 'GET, HEAD' });
          else if (pathOf(req) === '/metrics') serveMetrics(res);
          else notFound(res);
        }).server;
  routeLimits.verified = verified;
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

/** The metrics in Prometheus's text format; 500 when they cannot be read. */
function writeMetrics(res: ServerResponse, metrics: Metrics | Promise<Metrics>): void {
  Promise.resolve(metrics)
    .then(async ({ registry }) => ({ text: await registry.metrics(), type: registry.contentType }))
    .then(
      ({ text, type }) => res.writeHead(200, { 'content-type': type }).end(text),
      () => res.writeHead(500).end(),
    );
}

/** 200 when every check passes, 503 otherwise; each check's result by name. */
function serveReadiness(res: ServerResponse, checks: readonly ReadinessCheck[]): void {
  void Promise.all(
    checks.map(async (c) => {
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
      .end(JSON.stringify({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) }));
  });
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
