// Each service client alone, called directly (no dispatcher, no command) against the sandbox with
// no injected latency: what one client and its one connection pool can push through, and its p99.
// Inputs are distinct per call, so neither the TTL cache nor coalescing saves a request. Each op
// is followed by its floor (floor.ts): plain undici.request replaying the requests it sent, in the
// same process against the same sandbox, so the two can be compared as ratios. The last
// op is the whole bot: one /weather command through the dispatcher per call. S7, the chat webhook,
// is not here: it goes through Discord's own client, paced to Discord's rate limit, so its floor is
// that limit rather than a raw request; the schedules bench measures it under Discord's limits.
import { loadConfig, type ServiceConfigs } from '../src/config/index.ts';
import { planServices, resolveServiceConfigs } from '../src/sandbox/resolve.ts';
import type { ClientDeps } from '../src/services/deps.ts';
import { createAnalyticsClient } from '../src/services/analytics/client.ts';
import { createEmailClient } from '../src/services/email/client.ts';
import { createGeocodingClient } from '../src/services/geocoding/client.ts';
import { createHostscanClient } from '../src/services/hostscan/client.ts';
import { createJobSearchClient } from '../src/services/job-search/client.ts';
import { VOICES_CACHE_TTL_MS, createSpeechClient } from '../src/services/speech/client.ts';
import { createWeatherClient } from '../src/services/weather/client.ts';
import { cityName, createBot, weatherCommand } from './commands.ts';
import { captureRequests, openFloor, type FloorResult, type Stretch } from './floor.ts';
import { closedLoop, cpuMsSince, spread, type Spread } from './stats.ts';
import type { Upstream } from './upstream.ts';

interface RawOp {
  name: string;
  method: 'GET' | 'POST';
  /** Builds a fresh client (its own pool) and returns one call per index, and its close. */
  open(
    configs: Required<ServiceConfigs>,
    deps: ClientDeps,
    upstreamUrl: string,
  ): { call(i: number): Promise<unknown>; close(): Promise<void> };
  note?: string;
}

/**
 * The latest 2,000 ids email.send created, for email.get to read back: the sandbox keeps the last
 * 10,000 emails, and the floor's sends (each with a fresh key) create more after the client's.
 */
const EMAIL_IDS: string[] = [];
let emailsSent = 0;
/** The raw op that is the whole bot rather than one client. */
export const WHOLE_BOT = 'bot /weather';

function rangeDays(i: number): { startDate: string; endDate: string } {
  const end = new Date(Date.UTC(2025, 0, 1) + (i % 3000) * 86_400_000);
  const start = new Date(end.getTime() - 6 * 86_400_000);
  return { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) };
}

const OPS: readonly RawOp[] = [
  {
    name: 'weather.current',
    method: 'GET',
    open(c, deps) {
      const client = createWeatherClient(c.weather, deps);
      return { call: (i) => client.current({ city: cityName('Raw', i) }), close: () => client.close() };
    },
  },
  {
    name: 'weather.forecast',
    method: 'GET',
    open(c, deps) {
      const client = createWeatherClient(c.weather, deps);
      return { call: (i) => client.forecast({ city: cityName('Raw', i) }), close: () => client.close() };
    },
  },
  {
    name: 'geocoding.forward',
    method: 'GET',
    open(c, deps) {
      const client = createGeocodingClient(c.geocoding, deps);
      return {
        call: (i) => client.forward({ query: `${i} High Street`, limit: 5 }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'hostscan.host',
    method: 'GET',
    open(c, deps) {
      const client = createHostscanClient(c.hostscan, deps);
      const ip = (i: number) =>
        `23.${Math.floor(i / 64_516) % 256}.${(Math.floor(i / 254) % 254) + 1}.${(i % 254) + 1}`;
      return { call: (i) => client.host(ip(i)), close: () => client.close() };
    },
  },
  {
    name: 'speech.voices',
    method: 'GET',
    note: 'no input to vary: its clock jumps past the TTL on every read, concurrent calls still share',
    open(c, deps) {
      let clockMs = Date.now();
      const client = createSpeechClient(c.speech, {
        ...deps,
        now: () => (clockMs += VOICES_CACHE_TTL_MS + 1),
      });
      return { call: () => client.voices(), close: () => client.close() };
    },
  },
  {
    name: 'jobSearch.search',
    method: 'GET',
    open(c, deps) {
      const client = createJobSearchClient(c.jobSearch, deps);
      return {
        call: (i) => client.search({ country: 'gb', page: (i % 5) + 1, what: `engineer ${i}` }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'email.send',
    method: 'POST',
    open(c, deps) {
      const client = createEmailClient(c.email, deps);
      return {
        call: async (i) => {
          const { id } = await client.send({
            to: [`person${i}@example.com`],
            subject: `Weekly report ${i}`,
            html: `<p>Report number ${i}</p>`,
          });
          EMAIL_IDS[emailsSent++ % 2_000] = id;
        },
        close: () => client.close(),
      };
    },
  },
  {
    name: 'email.get',
    method: 'GET',
    note: 'reads back the ids email.send created',
    open(c, deps) {
      const client = createEmailClient(c.email, deps);
      return {
        call: (i) => client.get(EMAIL_IDS[i % EMAIL_IDS.length] ?? '4ef9a417-02e9-4d39-ad75-9611e0fcc33c'),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'analytics.runReport',
    method: 'POST',
    open(c, deps) {
      const client = createAnalyticsClient(c.analytics, deps);
      return {
        call: (i) =>
          client.runReport({
            dimensions: ['date'],
            metrics: ['sessions', 'activeUsers'],
            dateRanges: [rangeDays(i)],
          }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'speech.synthesize',
    method: 'POST',
    open(c, deps) {
      const client = createSpeechClient(c.speech, deps);
      return {
        call: (i) => client.synthesize({ text: `Reminder number ${i}.` }),
        close: () => client.close(),
      };
    },
  },
  {
    name: WHOLE_BOT,
    method: 'GET',
    note: 'one /weather command through the real dispatcher, registry, command and weather client',
    open(_c, _deps, upstreamUrl) {
      const bot = createBot(upstreamUrl);
      bot.wire.stop(); // the bench's own wire timing is not the bot's cost
      return {
        call: async (i) => {
          const answer = await weatherCommand(bot, cityName('Whole', i), i % 500);
          if (!answer.isOk) throw new Error('the /weather command failed');
        },
        close: () => bot.close(),
      };
    },
  },
];

export interface RawResult {
  operation: string;
  method: 'GET' | 'POST';
  calls: number;
  failed: number;
  upstreamRequests: number;
  callsPerSecond: number;
  latencyMs: Spread;
  /** The client thread's CPU per call and the sandbox thread's per request, in µs. */
  clientCpuUsPerCall: number;
  sandboxCpuUsPerRequest: number;
  /** Upstream requests per second, and the client's CPU per upstream request (µs). */
  requestsPerSecond: number;
  clientCpuUsPerRequest: number;
  /** Plain undici.request replaying the same requests, right after the client (floor.ts). */
  floor: FloorResult;
  /** Each round's client ÷ floor: requests per second and CPU per request. */
  rounds?: { requestRatio: number; cpuRatio: number }[];
  note?: string;
}

/**
 * The client and its floor take turns, ROUNDS times each, so a change in the machine's load during
 * the run weighs on both alike; the figures are the sums over the rounds, the ratios the median of
 * the rounds' own (one round caught by a burst of other work does not decide it). Nine rounds of
 * about 2,000 calls: with five of 1,200 (about 0.2 s each) a young-generation collection landing in
 * one side's turn moved a client's CPU ratio by ±0.15 between runs of the same code.
 */
export const ROUNDS = 9;

function sum(stretches: readonly Stretch[]): Stretch {
  return stretches.reduce(
    (a, s) => ({
      ran: a.ran + s.ran,
      failed: a.failed + s.failed,
      wallMs: a.wallMs + s.wallMs,
      cpuMs: a.cpuMs + s.cpuMs,
    }),
    { ran: 0, failed: 0, wallMs: 0, cpuMs: 0 },
  );
}

export async function runRawClients(
  upstream: Upstream,
  opts: { concurrency: number; warmup: number; calls: number; maxMs: number; only?: readonly string[] },
): Promise<RawResult[]> {
  const config = loadConfig({ SANDBOX: 'on' });
  const configs = resolveServiceConfigs(
    config,
    planServices(config),
    upstream.url,
  ) as Required<ServiceConfigs>;
  const results: RawResult[] = [];
  let offset = 0;
  for (const op of OPS) {
    if (opts.only && !opts.only.includes(op.name)) continue;
    const client = op.open(configs, {}, upstream.url);
    const latencies: number[] = [];
    let failed = 0;
    const timed = async (i: number): Promise<void> => {
      const started = performance.now();
      try {
        await client.call(offset + i);
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
    };
    const capture = captureRequests(opts.warmup);
    await closedLoop(opts.warmup, opts.concurrency, timed);
    const sent = capture.stop();
    offset += opts.warmup;
    latencies.length = 0;
    const floor = await openFloor(sent, opts);
    const own: Stretch[] = [];
    const floors: Stretch[] = [];
    let requests = 0;
    let sandboxCpuMs = 0;
    const rounds: { requestRatio: number; cpuRatio: number }[] = [];
    const perRound = Math.ceil(opts.calls / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      failed = 0;
      await upstream.collect();
      const cpu = process.threadCpuUsage();
      const { ran, wallMs } = await closedLoop(perRound, opts.concurrency, timed, opts.maxMs / ROUNDS);
      own.push({ ran, failed, wallMs, cpuMs: cpuMsSince(cpu) });
      offset += ran;
      const collected = await upstream.collect();
      requests += collected.requests;
      sandboxCpuMs += collected.cpuMs;
      const base = await floor.measure(perRound, opts.maxMs / ROUNDS);
      floors.push(base);
      const mine = own.at(-1)!;
      rounds.push({
        requestRatio: collected.requests / mine.wallMs / (base.ran / base.wallMs),
        cpuRatio: mine.cpuMs / Math.max(1, collected.requests) / (base.cpuMs / Math.max(1, base.ran)),
      });
    }
    await client.close();
    await floor.close();
    const mine = sum(own);
    const base = sum(floors);
    results.push({
      operation: op.name,
      method: op.method,
      calls: mine.ran,
      failed: mine.failed,
      upstreamRequests: requests,
      callsPerSecond: (mine.ran / mine.wallMs) * 1000,
      latencyMs: spread(latencies),
      clientCpuUsPerCall: (mine.cpuMs * 1000) / Math.max(1, mine.ran),
      sandboxCpuUsPerRequest: (sandboxCpuMs * 1000) / Math.max(1, requests),
      requestsPerSecond: (requests / mine.wallMs) * 1000,
      clientCpuUsPerRequest: (mine.cpuMs * 1000) / Math.max(1, requests),
      floor: {
        calls: base.ran,
        failed: base.failed,
        callsPerSecond: (base.ran / base.wallMs) * 1000,
        cpuUsPerCall: (base.cpuMs * 1000) / Math.max(1, base.ran),
      },
      rounds,
      ...(op.note ? { note: op.note } : {}),
    });
  }
  return results;
}
