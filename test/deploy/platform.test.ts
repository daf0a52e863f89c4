// herald on a platform: the start-up report names health endpoints a platform's probes cannot
// reach (PORT set, HEALTH_HOST not) and a SQLite store that will not outlive a restart (DYNO set,
// or a folder that cannot be written); METRICS_PORT keeps /metrics off the public port.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { configReport, type ReportLine } from '../../src/config/startup-report.ts';
import { startHealthServer, type HealthServer } from '../../src/health.ts';
import { createMetrics } from '../../src/metrics.ts';
import { planServices } from '../../src/sandbox/resolve.ts';
import { problemsOf } from '../support/config-problems.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-platform-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function report(env: Record<string, string>): ReportLine[] {
  const config = loadConfig({ STORE_URL: join(dir, 'data', 'herald.sqlite'), ...env });
  return configReport(config, planServices(config), { file: undefined, fromFile: 0 });
}
const warnings = (lines: ReportLine[]) => lines.filter((l) => l.warn).map((l) => l.text);

describe('health endpoints on a platform', () => {
  it('warns when PORT comes from the platform and HEALTH_HOST is unset, saying how to widen them', () => {
    expect(warnings(report({ PORT: '43117' }))).toEqual([
      "health endpoints on loopback only (127.0.0.1), where a platform's probes cannot reach them: set HEALTH_HOST=0.0.0.0 to serve them on every interface",
    ]);
  });

  it('does not warn once HEALTH_HOST is set, nor for a HEALTH_PORT chosen on this machine', () => {
    const widened = report({ PORT: '43117', HEALTH_HOST: '0.0.0.0' });
    expect(warnings(widened)).toEqual([]);
    expect(widened.map((l) => l.text)).toContain(
      'health endpoints: http://0.0.0.0:43117/healthz, /readyz, /metrics',
    );
    expect(warnings(report({ PORT: '43117', HEALTH_HOST: '127.0.0.1' }))).toEqual([]);
    expect(warnings(report({ HEALTH_PORT: '9090' }))).toEqual([]);
  });

  it('names the metrics port when METRICS_PORT keeps /metrics off the public one', () => {
    const lines = report({ PORT: '43117', HEALTH_HOST: '0.0.0.0', METRICS_PORT: '9464' });
    expect(lines.map((l) => l.text)).toContain(
      'health endpoints: http://0.0.0.0:43117/healthz, /readyz; /metrics on port 9464',
    );
  });

  it('refuses a METRICS_PORT without health endpoints or on a port already taken', () => {
    expect(problemsOf({ METRICS_PORT: '9464' })).toEqual([
      { variable: 'METRICS_PORT', message: 'needs the health endpoints: set HEALTH_PORT' },
    ]);
    expect(problemsOf({ PORT: '8080', METRICS_PORT: '8080' })).toEqual([
      { variable: 'METRICS_PORT', message: 'must differ from PORT' },
    ]);
    expect(problemsOf({ HEALTH_PORT: '9090', METRICS_PORT: '9090' })).toEqual([
      { variable: 'METRICS_PORT', message: 'must differ from HEALTH_PORT' },
    ]);
    const slackHttp = {
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: 'signing-secret-1',
      PORT: '3000',
    };
    expect(problemsOf({ ...slackHttp, METRICS_PORT: '3000' })).toEqual([
      { variable: 'METRICS_PORT', message: 'must differ from PORT' },
    ]);
    expect(problemsOf({ PORT: '8080', METRICS_PORT: 'nine' }).map((p) => p.variable)).toEqual([
      'METRICS_PORT',
    ]);
  });
});

describe('METRICS_PORT on the health server', () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves /metrics on its own port only, and the probes on the main one only', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    server = await startHealthServer({ port: 0, metricsPort: 0, metrics, checks: [] });
    const main = `http://127.0.0.1:${server.port}`;
    const side = `http://127.0.0.1:${server.metricsPort}`;
    expect(server.metricsPort).not.toBe(server.port);
    expect((await fetch(`${main}/metrics`)).status).toBe(404);
    expect((await fetch(`${main}/healthz`)).status).toBe(200);
    const scraped = await fetch(`${side}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe(metrics.registry.contentType);
    expect((await fetch(`${side}/healthz`)).status).toBe(404);
    expect((await fetch(`${side}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('serves /metrics on the main port only when told to', async () => {
    server = await startHealthServer({
      port: 0,
      metrics: createMetrics({ defaultMetrics: false }),
      checks: [],
      isMetricsOnPort: true,
    });
    expect(server.metricsPort).toBeUndefined();
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(200);
    await server.close();
    server = await startHealthServer({
      port: 0,
      metrics: createMetrics({ defaultMetrics: false }),
      checks: [],
    });
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(404);
  });

  it('fails to start, leaving no port open, when the metrics port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(
        startHealthServer({
          port: 0,
          metricsPort: port,
          metrics: createMetrics({ defaultMetrics: false }),
          checks: [],
        }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });
});

describe('a SQLite store that will not outlive a restart', () => {
  const LOST =
    /^the store's SQLite file .+ (is on a Heroku dyno's disk \(DYNO is set\), which is emptied at every restart|cannot be written here \(a container without a volume\?\)), so schedules and what scheduled reports remember will be lost: set REDIS_URL to keep them$/;

  it('is named on a Heroku dyno (DYNO set), in one sentence that says to set REDIS_URL', () => {
    const lost = warnings(report({ DYNO: 'web.1' }));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(LOST);
    expect(lost[0]).toContain('DYNO is set');
  });

  it('is not named when the store is Redis, on a dyno or not', () => {
    expect(warnings(report({ DYNO: 'web.1', REDIS_URL: 'redis://127.0.0.1:6379' }))).toEqual([]);
    expect(warnings(report({ STORE_URL: 'redis://127.0.0.1:6379' }))).toEqual([]);
    expect(warnings(report({}))).toEqual([]);
  });

  it('is named when the store folder cannot be created (a file stands where a folder should)', async () => {
    const file = join(dir, 'not-a-folder');
    await writeFile(file, '');
    const lost = warnings(report({ STORE_URL: join(file, 'data', 'herald.sqlite') }));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(LOST);
    expect(lost[0]).toContain('cannot be written here');
  });

  it.skipIf(process.getuid?.() === 0)('is named when the store folder is read-only', async () => {
    const readOnly = join(dir, 'read-only');
    await mkdir(readOnly);
    await chmod(readOnly, 0o555);
    try {
      expect(warnings(report({ STORE_URL: join(readOnly, 'herald.sqlite') }))[0]).toMatch(LOST);
    } finally {
      await chmod(readOnly, 0o755);
    }
  });
});

describe("a Redis whose TLS certificate is not checked (Heroku's self-signed one)", () => {
  const UNCHECKED = /^Redis's TLS certificate is not checked \(REDIS_TLS_VERIFY=false\)/;
  const texts = (lines: ReportLine[]) => lines.map((l) => l.text);

  it('is said in the start-up report, with what it gives up', () => {
    const lines = texts(report({ REDIS_URL: 'rediss://:p@redis.example:6380', REDIS_TLS_VERIFY: 'false' }));
    expect(lines.filter((t) => UNCHECKED.test(t))).toEqual([
      "Redis's TLS certificate is not checked (REDIS_TLS_VERIFY=false): the connection is encrypted, but a server posing as Redis would not be refused",
    ]);
    expect(lines.join('\n')).not.toContain(':p@');
  });

  it('is not said when the certificate is checked (the default) or the URL is plain redis://', () => {
    expect(
      texts(report({ REDIS_URL: 'rediss://redis.example:6380' })).filter((t) => UNCHECKED.test(t)),
    ).toEqual([]);
    const plain = report({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_TLS_VERIFY: 'false' });
    expect(texts(plain).filter((t) => UNCHECKED.test(t))).toEqual([]);
  });

  it('takes only true or false', () => {
    expect(loadConfig({}).redisTlsVerify).toBe(true);
    expect(loadConfig({ REDIS_TLS_VERIFY: 'true' }).redisTlsVerify).toBe(true);
    expect(loadConfig({ REDIS_TLS_VERIFY: 'false' }).redisTlsVerify).toBe(false);
    expect(problemsOf({ REDIS_TLS_VERIFY: 'no' }).map((p) => p.variable)).toEqual(['REDIS_TLS_VERIFY']);
  });
});
