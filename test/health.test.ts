import { afterEach, describe, expect, it } from 'vitest';
import { readinessChecks, startHealthServer, type HealthServer } from '../src/health.ts';
import { createMetrics } from '../src/metrics.ts';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('health endpoints', () => {
  it('reports live, then ready only when every check passes', async () => {
    let adaptersUp = false;
    server = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      metrics: createMetrics({ defaultMetrics: false }),
      checks: [
        { name: 'adapters', check: () => adaptersUp },
        { name: 'store', check: async () => true },
      ],
    });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ status: 'not ready', checks: { adapters: false, store: true } });
    adaptersUp = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it('listens on loopback only unless a host is given', async () => {
    server = await startHealthServer({
      port: 0,
      metrics: createMetrics({ defaultMetrics: false }),
      checks: [],
    });
    expect(server.host).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
  });

  it('leaves Redis out of /readyz where it is not configured, and reports it where it is', async () => {
    const store = { getSlot: () => Promise.resolve(undefined) };
    const adapters = [{ isReady: () => true }];
    const metrics = createMetrics({ defaultMetrics: false });
    server = await startHealthServer({
      port: 0,
      metrics,
      checks: readinessChecks({ adapters: () => adapters, store, redis: undefined }),
    });
    const without = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    expect(without.status).toBe(200);
    expect(await without.json()).toEqual({ status: 'ready', checks: { adapters: true, store: true } });
    await server.close();
    const redis = { status: 'reconnecting' };
    server = await startHealthServer({
      port: 0,
      metrics,
      checks: readinessChecks({ adapters: () => adapters, store, redis }),
    });
    const down = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      status: 'not ready',
      checks: { adapters: true, store: true, redis: false },
    });
    redis.status = 'ready';
    expect((await fetch(`http://127.0.0.1:${server.port}/readyz`)).status).toBe(200);
  });

  it('treats a check that throws as not ready', async () => {
    server = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      metrics: createMetrics({ defaultMetrics: false }),
      checks: [{ name: 'store', check: () => Promise.reject(new Error('down')) }],
    });
    const res = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    expect(res.status).toBe(503);
  });

  it('exposes commands, upstream calls, latency histograms and job runs in Prometheus format', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.command({ command: 'weather', outcome: 'ok', durationMs: 52 });
    metrics.command({ command: 'weather', outcome: 'user_error', durationMs: 1 });
    metrics.onCall({
      service: 'weather',
      operation: 'current',
      method: 'GET',
      status: 200,
      code: 'ok',
      attempts: 1,
      durationMs: 50,
      cached: false,
    });
    metrics.onCall({
      service: 'weather',
      operation: 'current',
      method: 'GET',
      status: 503,
      code: 'upstream',
      attempts: 3,
      durationMs: 900,
      cached: false,
    });
    metrics.job({ job: 'analytics-summary', outcome: 'posted', durationMs: 1200 });
    server = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      metrics,
      checks: [],
      isMetricsOnPort: true,
    });
    const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
    expect(text).toContain('herald_commands_total{command="weather",outcome="ok"} 1');
    expect(text).toContain('herald_commands_total{command="weather",outcome="user_error"} 1');
    expect(text).toContain(
      'herald_upstream_requests_total{service="weather",operation="current",status="503",code="upstream",cached="false"} 1',
    );
    expect(text).toMatch(/herald_command_duration_seconds_bucket\{le="0.1",command="weather"\} 2/);
    expect(text).toContain('herald_job_runs_total{job="analytics-summary",outcome="posted"} 1');
  });
});
