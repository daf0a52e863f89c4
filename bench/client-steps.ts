// `npx node bench/client-steps.ts`: CPU and heap allocation per step of one client call, each step
// run alone many times with the real module where it is one (the queue, the deadline, the share,
// the abort race, the secret walk) and the client's own code where it is internal: what one
// weather.current call pays on top of undici, step by step, and the per-answer steps (JSON, zod,
// the secret walk, the mapping) of the two largest answers, jobSearch.search's and
// analytics.runReport's. Allocation is what the young generation collects (GC is the largest
// single share of the clients' CPU in a profile).
import { GCProfiler } from 'node:v8';
import { Agent, request } from 'undici';
import { createDeadline, raceAbort } from '../src/abort.ts';
import { createLimiter } from '../src/http/guard.ts';
import { joinUrl } from '../src/http/path.ts';
import { createShare } from '../src/http/share.ts';
import { redactSecrets, redactValue, registerSecret } from '../src/redact.ts';
import { SANDBOX_CREDENTIAL } from '../src/sandbox/resolve.ts';
import { sandboxHandlers } from '../src/sandbox/index.ts';
import { startSandboxServer } from '../src/sandbox/server.ts';
import { toReport } from '../src/services/analytics/client.ts';
import { RunReportResponse } from '../src/services/analytics/schemas.ts';
import { toJobSearchResult } from '../src/services/job-search/client.ts';
import { JobSearchResponse } from '../src/services/job-search/schemas.ts';
import { CurrentWeatherResponse } from '../src/services/weather/schemas.ts';

const N = Number(process.env.N ?? 100_000);
const BATCH = 50;

interface Sample {
  bytes: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The real answers the bench's calls read (weather.current; jobSearch.search and
 * analytics.runReport as bench/raw-clients.ts sends them), and the headers undici hands back.
 */
async function sampleAnswers(): Promise<{ weather: Sample; jobs: Sample; report: Sample }> {
  const server = await startSandboxServer({
    handlers: sandboxHandlers({ credential: SANDBOX_CREDENTIAL }),
    host: '127.0.0.1',
    port: 0,
  });
  const agent = new Agent();
  const take = async (path: string, init: { method?: 'POST'; body?: string } = {}): Promise<Sample> => {
    const res = await request(`${server.url}${path}`, {
      dispatcher: agent,
      ...init,
      headers: {
        'x-api-key': SANDBOX_CREDENTIAL,
        authorization: `Bearer ${SANDBOX_CREDENTIAL}`,
        'content-type': 'application/json',
      },
    });
    return { bytes: Buffer.from(await res.body.arrayBuffer()), headers: res.headers };
  };
  try {
    return {
      weather: await take(`/weather/data/2.5/weather?q=London&units=metric&appid=${SANDBOX_CREDENTIAL}`),
      jobs: await take(
        `/jobs/v1/api/jobs/gb/search/1?results_per_page=5&what=engineer+7&app_id=${SANDBOX_CREDENTIAL}&app_key=${SANDBOX_CREDENTIAL}`,
      ),
      report: await take('/analytics/v1beta/properties/123456789:runReport', {
        method: 'POST',
        body: JSON.stringify({
          dimensions: [{ name: 'date' }],
          metrics: [{ name: 'sessions' }, { name: 'activeUsers' }],
          dateRanges: [{ startDate: '2025-03-01', endDate: '2025-03-07' }],
        }),
      }),
    };
  } finally {
    await agent.close();
    await server.close();
  }
}

interface Figure {
  cpuUs: number;
  allocBytes: number;
}

/** Runs `step` N times, BATCH at a time awaited together (as concurrent calls are). */
async function measure(step: (i: number) => unknown): Promise<Figure> {
  const run = async (offset: number, total: number) => {
    for (let done = 0; done < total; done += BATCH) {
      const batch: unknown[] = [];
      for (let i = 0; i < BATCH; i++) batch.push(step(offset + done + i));
      await Promise.all(batch);
    }
  };
  await run(0, Math.min(N, 20_000));
  const gc = new GCProfiler();
  gc.start();
  const cpu = process.threadCpuUsage();
  await run(N, N);
  const used = process.threadCpuUsage(cpu);
  const stats = gc.stop()?.statistics ?? [];
  // Bytes allocated between collections: each one's heap before it minus the previous one's after.
  let alloc = 0;
  for (let i = 1; i < stats.length; i++) {
    alloc +=
      stats[i]!.beforeGC.heapStatistics.usedHeapSize - stats[i - 1]!.afterGC.heapStatistics.usedHeapSize;
  }
  return { cpuUs: (used.user + used.system) / N, allocBytes: stats.length > 1 ? alloc / N : Number.NaN };
}

registerSecret(SANDBOX_CREDENTIAL);
const samples = await sampleAnswers();
const { bytes, headers } = samples.weather;
const jobsParsed = JSON.parse(samples.jobs.bytes.toString('utf8')) as unknown;
const jobsWire = JobSearchResponse.parse(jobsParsed);
const reportParsed = JSON.parse(samples.report.bytes.toString('utf8')) as unknown;
const reportWire = RunReportResponse.parse(reportParsed);
const reportInput = {
  dimensions: ['date'],
  metrics: ['sessions', 'activeUsers'],
  dateRanges: [{ startDate: '2025-03-01', endDate: '2025-03-07' }],
};
const never = new AbortController().signal;
const limiter = createLimiter({ maxConcurrent: 1024 });
const share = createShare(Date.now);
const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
const wire = CurrentWeatherResponse.parse(parsed);
const baseHeaders = {
  'content-type': 'application/json',
  accept: 'application/json',
  'user-agent': 'herald/0.1',
  'x-api-key': SANDBOX_CREDENTIAL,
};

const steps: [string, (i: number) => unknown][] = [
  ['nothing (an async no-op)', async () => undefined],
  ['limiter.run (a free slot, with a signal)', () => limiter.run(() => Promise.resolve(1), never)],
  ['createDeadline + done', () => createDeadline(20_000, never).done()],
  ['raceAbort on a resolved promise', () => raceAbort(Promise.resolve(1), never, () => new Error('x'))],
  [
    'share.get, a miss kept for 10 min',
    (i) =>
      share.get(`current http://x/weather?q=City${i}`, 600_000, () =>
        Promise.resolve({ value: { i }, bytes: 200 }),
      ),
  ],
  [
    'share.get, no TTL (POST-like, no cache)',
    (i) =>
      share.get(`current http://x/weather?q=City${i}`, undefined, () =>
        Promise.resolve({ value: { i }, bytes: 200 }),
      ),
  ],
  [
    'buildUrl (joinUrl + URLSearchParams)',
    (i) => {
      const query: Record<string, string> = { q: `City${i}`, units: 'metric', appid: SANDBOX_CREDENTIAL };
      const params = new URLSearchParams();
      for (const k in query) params.append(k, query[k]!);
      return `${joinUrl('http://127.0.0.1:1/weather/data/2.5', '/weather')}?${params.toString()}`;
    },
  ],
  [
    'request headers ({...base, ...req.headers})',
    () => ({ ...baseHeaders, ...({} as Record<string, string>) }),
  ],
  [
    'flatten response headers',
    () => {
      const out: Record<string, string> = {};
      for (const k in headers) {
        const v = headers[k];
        if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      return out;
    },
  ],
  ['bytes -> string (toString)', () => bytes.toString('utf8')],
  ['JSON.parse of the string', () => JSON.parse(bytes.toString('utf8')) as unknown],
  ['zod safeParse (the wire schema)', () => CurrentWeatherResponse.safeParse(parsed)],
  ['secret walk (redactValue of the wire value)', () => redactValue(wire, redactSecrets)],
  [
    `jobs: JSON.parse (${samples.jobs.bytes.length} B)`,
    () => JSON.parse(samples.jobs.bytes.toString('utf8')) as unknown,
  ],
  ['jobs: zod safeParse', () => JobSearchResponse.safeParse(jobsParsed)],
  ['jobs: secret walk', () => redactValue(jobsWire, redactSecrets)],
  ['jobs: map to listings', () => toJobSearchResult(jobsWire)],
  [
    `report: JSON.parse (${samples.report.bytes.length} B)`,
    () => JSON.parse(samples.report.bytes.toString('utf8')) as unknown,
  ],
  ['report: zod safeParse', () => RunReportResponse.safeParse(reportParsed)],
  ['report: secret walk', () => redactValue(reportWire, redactSecrets)],
  ['report: map to rows', () => toReport(reportWire, reportInput)],
  ['performance.now + call record object', () => ({ at: performance.now(), operation: 'current', ok: true })],
];

const only = process.env.STEP;
process.stdout.write(`per step, ${N} runs in batches of ${BATCH}: CPU µs and bytes allocated per run\n`);
for (const [name, step] of steps) {
  if (only && !name.includes(only)) continue;
  const f = await measure(step);
  process.stdout.write(
    `${name.padEnd(46)} ${f.cpuUs.toFixed(2).padStart(7)} µs ${Math.round(f.allocBytes).toString().padStart(7)} B\n`,
  );
}
