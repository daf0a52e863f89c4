// Commands end to end through the real dispatcher, registry, /weather command and weather client,
// exactly as an adapter drives them: a fake Invocation whose respond() takes the time. Each
// command's upstream time is the sandbox's own server-side time for its request (keyed by city),
// so "added" is what herald spends: end to end minus the upstream (an upper bound; the client-side
// wire time gives the lower one).
import pino from 'pino';
import { Agent, request } from 'undici';
import { buildCommands } from '../commands/index.ts';
import { loadConfig } from '../src/config/index.ts';
import type { Invocation } from '../src/core/adapter.ts';
import { createDispatcher } from '../src/core/dispatch.ts';
import type { Dispatcher } from '../src/core/dispatch-contract.ts';
import { createQuotas } from '../src/user-limits.ts';
import { createRegistry } from '../src/core/registry.ts';
import type { Reply } from '../src/core/reply.ts';
import { createLogger } from '../src/log.ts';
import { planServices, resolveServiceConfigs } from '../src/sandbox/resolve.ts';
import { closeServices, createServices, type Services } from '../src/services/index.ts';
import type { CapturedRequest } from './floor.ts';
import { cpuMsSince, inWaves, peakRss, spread, type Spread } from './stats.ts';
import type { Upstream } from './upstream.ts';
import { trackWireTimes, type WireTimes } from './wire.ts';

export interface Bot {
  dispatcher: Dispatcher;
  wire: WireTimes;
  close(): Promise<void>;
}

/**
 * The dispatcher as main.ts wires it, over `services`: real config defaults, the real commands and
 * per-user limiter, info logging.
 */
export function createBenchDispatcher(services: Services): Dispatcher {
  const config = loadConfig({ SANDBOX: 'on' });
  const commands = buildCommands({
    access: config.access,
    limits: config.limits,
    speechModelId: 'eleven_multilingual_v2',
    jobsCountry: 'gb',
  });
  // Production's logging cost: one command.finished line per command, JSON, written synchronously
  // as createLogger's own stderr destination does (so a crash loses no line), into /dev/null.
  const log = createLogger({
    level: 'info',
    destination: pino.destination({ dest: '/dev/null', sync: true }),
  });
  return createDispatcher({
    registry: createRegistry(commands),
    services,
    log,
    commandTimeoutMs: config.commandTimeoutMs,
    serviceVariables: config.serviceVariables,
    now: () => new Date(),
    // The real per-user limiter, sized so that the benchmark's users never hit it.
    rateLimit: createQuotas({ perUserPerMinute: 1_000_000, sayDailyChars: 1 }).commands,
  });
}

/** The same wiring as main.ts with every service simulated against `upstreamUrl`. */
export function createBot(upstreamUrl: string): Bot {
  const config = loadConfig({ SANDBOX: 'on' });
  const services: Services = createServices(resolveServiceConfigs(config, planServices(config), upstreamUrl));
  const dispatcher = createBenchDispatcher(services);
  const wire = trackWireTimes();
  return {
    dispatcher,
    wire,
    close: async () => {
      wire.stop();
      await closeServices(services);
    },
  };
}

const SYLLABLES = ['ka', 'lo', 'ri', 'ven', 'tor', 'mar', 'sel', 'din', 'bra', 'po'];

/** A distinct, pronounceable city name per index ("Kalolo…ton"), so no two commands share a lookup. */
export function cityName(prefix: string, index: number): string {
  const word = String(index)
    .padStart(5, '0')
    .split('')
    .map((d) => SYLLABLES[Number(d)])
    .join('');
  return `${prefix}${word}ton`;
}

interface Answer {
  endToEndMs: number;
  isOk: boolean;
}

/** One /weather command through the dispatcher; resolves once the reply was handed to respond(). */
export async function weatherCommand(bot: Bot, city: string, user: number): Promise<Answer> {
  let answer: Answer | undefined;
  const started = performance.now();
  const invocation: Invocation = {
    command: 'weather',
    rawInput: { city },
    actor: { platform: 'discord', id: `10000000000000${user}`, displayName: `user${user}`, roles: [] },
    channelId: '200000000000000001',
    signal: new AbortController().signal,
    respond(reply: Reply) {
      const isOk = reply.ephemeral !== true && (reply.embeds?.[0]?.title ?? '').includes('Weather in');
      answer = { endToEndMs: performance.now() - started, isOk };
      return Promise.resolve();
    },
  };
  await bot.dispatcher.onInvocation(invocation);
  if (!answer) throw new Error('the dispatcher returned without responding');
  return answer;
}

export interface LevelResult {
  concurrency: number;
  commands: number;
  answered: number;
  failed: number;
  commandsPerSecond: number;
  endToEndMs: Spread;
  /** The sandbox's own time per command, server-side. */
  upstreamMs: Spread;
  /** End to end minus the server-side upstream time: the upper bound of what herald adds. */
  addedMs: Spread;
  /** End to end minus the client-side wire time: the lower bound. */
  addedLowMs: Spread;
  upstreamRequests: number;
  peakRssMb: number;
  /** The bot's CPU per command, and the sandbox's CPU per upstream request, in µs. */
  botCpuUsPerCommand: number;
  sandboxCpuUsPerRequest: number;
}

interface LevelOptions {
  concurrency: number;
  total: number;
  prefix: string;
  maxMs: number;
}

/** `total` distinct /weather commands, in waves of `concurrency` fired at once. */
export function runLevel(bot: Bot, upstream: Upstream, opts: LevelOptions): Promise<LevelResult> {
  return measureWaves(bot.wire, upstream, opts, (city, i) => weatherCommand(bot, city, i % 500));
}

/**
 * The floor of a level: the weather request the bot sends (`template`, captured), sent with plain
 * undici.request for each city of a wave fired at once, its JSON answer parsed, nothing else; timed
 * and matched to the sandbox's own times exactly as the commands are. What is "added" here is what
 * this machine adds with no bot at all: loopback, undici, and the sandbox's queue before it parses
 * a request (the sandbox shares the same cores).
 */
export async function runFloorLevel(
  wire: WireTimes,
  upstream: Upstream,
  template: CapturedRequest,
  opts: LevelOptions,
): Promise<LevelResult> {
  const templateUrl = new URL(template.url);
  const agent = new Agent({ connections: 1024, keepAliveTimeout: 30_000 });
  const send = async (city: string): Promise<Answer> => {
    const started = performance.now();
    templateUrl.searchParams.set('q', city);
    const res = await request(templateUrl.href, {
      method: 'GET',
      headers: template.headers,
      dispatcher: agent,
    });
    const body = (await res.body.json()) as { name?: unknown };
    return {
      endToEndMs: performance.now() - started,
      isOk: res.statusCode === 200 && typeof body.name === 'string',
    };
  };
  try {
    // One wave first, unmeasured: its connections open and its code compiled, as the bot's were.
    await measureWaves(
      wire,
      upstream,
      { ...opts, total: opts.concurrency, prefix: `${opts.prefix}Warm` },
      send,
    );
    return await measureWaves(wire, upstream, opts, send);
  } finally {
    await agent.close();
  }
}

async function measureWaves(
  wire: WireTimes,
  upstream: Upstream,
  opts: LevelOptions,
  command: (city: string, index: number) => Promise<Answer>,
): Promise<LevelResult> {
  await upstream.collect();
  wire.take();
  const answers: { city: string; answer: Answer }[] = [];
  peakRss.reset();
  const cpu = process.threadCpuUsage();
  const { ran, wallMs } = await inWaves(
    opts.total,
    opts.concurrency,
    async (i) => {
      const city = cityName(opts.prefix, i);
      answers.push({ city, answer: await command(city, i) });
    },
    opts.maxMs,
  );
  const botCpuMs = cpuMsSince(cpu);
  const peakRssMb = peakRss.read();
  const wireMs = wire.take();
  const collected = await upstream.collect();
  const { requests, cpuMs } = collected;
  const serverMs = new Map(collected.serverMs);
  const upstreamMs: number[] = [];
  const addedMs: number[] = [];
  const addedLowMs: number[] = [];
  for (const { city, answer } of answers) {
    const server = serverMs.get(city);
    const client = wireMs.get(city);
    if (server !== undefined) {
      upstreamMs.push(server);
      addedMs.push(answer.endToEndMs - server);
    }
    if (client !== undefined) addedLowMs.push(answer.endToEndMs - client);
  }
  return {
    concurrency: opts.concurrency,
    commands: ran,
    answered: answers.length,
    failed: answers.filter((a) => !a.answer.isOk).length,
    commandsPerSecond: (answers.length / wallMs) * 1000,
    endToEndMs: spread(answers.map((a) => a.answer.endToEndMs)),
    upstreamMs: spread(upstreamMs),
    addedMs: spread(addedMs),
    addedLowMs: spread(addedLowMs),
    upstreamRequests: requests,
    peakRssMb,
    botCpuUsPerCommand: (botCpuMs * 1000) / Math.max(1, answers.length),
    sandboxCpuUsPerRequest: (cpuMs * 1000) / Math.max(1, requests),
  };
}

export interface IdenticalResult {
  commands: number;
  upstreamRequests: number;
  endToEndMs: Spread;
  cachedRepeats: number;
  cachedUpstreamRequests: number;
  cachedMs: Spread;
}

/** 100 concurrent identical /weather commands, then sequential repeats answered from the cache. */
export async function runIdentical(bot: Bot, upstream: Upstream, repeats: number): Promise<IdenticalResult> {
  const city = 'Valparaiso';
  await upstream.collect();
  const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => weatherCommand(bot, city, i)));
  const first = await upstream.collect();
  const cached: number[] = [];
  for (let i = 0; i < repeats; i++) cached.push((await weatherCommand(bot, city, i % 100)).endToEndMs);
  const second = await upstream.collect();
  if (burst.some((a) => !a.isOk)) throw new Error('an identical /weather command failed');
  return {
    commands: burst.length,
    upstreamRequests: first.requests,
    endToEndMs: spread(burst.map((a) => a.endToEndMs)),
    cachedRepeats: repeats,
    cachedUpstreamRequests: second.requests,
    cachedMs: spread(cached),
  };
}
