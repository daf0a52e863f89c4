// The benchmark's own arithmetic: the numbers in the README table are only as good as these.
import { describe, expect, it } from 'vitest';
import { cityName } from '../../bench/commands.ts';
import type { IdenticalResult, LevelResult } from '../../bench/commands.ts';
import type { RawResult } from '../../bench/raw-clients.ts';
import { topSelf } from '../../bench/profile-top.ts';
import { checkTargets } from '../../bench/report.ts';
import { closedLoop, inWaves, percentile, spread } from '../../bench/stats.ts';

describe('bench stats', () => {
  it('ranks a CPU profile by self time, per function and per file', () => {
    const frame = (functionName: string, url: string, lineNumber: number) => ({
      functionName,
      url,
      lineNumber,
    });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', '', -1) },
        {
          id: 2,
          callFrame: frame('parseJson', new URL('../../src/http/client.ts', import.meta.url).href, 88),
        },
        { id: 3, callFrame: frame('answer', new URL('../../src/http/client.ts', import.meta.url).href, 198) },
        { id: 4, callFrame: frame('', 'node:internal/streams/readable', 9) },
      ],
      samples: [2, 2, 3, 4, 2, 1, 2, 3],
    };
    expect(topSelf(profile, 'function').slice(0, 2)).toEqual([
      ['parseJson src/http/client.ts:89', 50],
      ['answer src/http/client.ts:199', 25],
    ]);
    expect(topSelf(profile, 'file')).toEqual([
      ['src/http/client.ts', 75],
      ['node:internal/streams/readable', 12.5],
      ['(native)', 12.5],
    ]);
  });

  it('takes percentiles by nearest rank, whatever the input order', () => {
    const values = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 10)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
    expect(spread([3, 1, 2])).toEqual({ p50: 2, p95: 3, p99: 3, max: 3 });
  });

  it('fires each wave at once and starts the next only when the previous has finished', async () => {
    let inFlight = 0;
    let peak = 0;
    const waves: number[] = [];
    const { ran } = await inWaves(10, 4, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      waves.push(inFlight);
      await new Promise((r) => setTimeout(r, 2 + (i % 3)));
      inFlight--;
    });
    expect(ran).toBe(10);
    expect(peak).toBe(4);
    // Waves of 4, 4 and 2: inside a wave the count only rises; it starts from 1 each time.
    expect(waves).toEqual([1, 2, 3, 4, 1, 2, 3, 4, 1, 2]);
  });

  it('keeps at most the given number in flight in a closed loop, and runs each index once', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const { ran } = await closedLoop(25, 5, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      seen.push(i);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
    });
    expect(ran).toBe(25);
    expect(peak).toBe(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('stops starting new work once the time bound has passed', async () => {
    const { ran } = await closedLoop(1_000, 2, () => new Promise((r) => setTimeout(r, 10)), 30);
    expect(ran).toBeGreaterThanOrEqual(2);
    expect(ran).toBeLessThan(20);
  });

  it('gives every command index its own city, so no lookup can hit the cache', () => {
    const names = new Set(Array.from({ length: 20_000 }, (_, i) => cityName('Dun', i)));
    expect(names.size).toBe(20_000);
    expect(cityName('Ash', 7)).toMatch(/^Ash[a-z]+ton$/);
  });

  it('marks each target met or missed from the measured values', () => {
    const flat = (v: number) => ({ p50: v, p95: v, p99: v, max: v });
    const level = (concurrency: number, addedMs: number, peakRssMb: number): LevelResult => ({
      concurrency,
      commands: 10,
      answered: 10,
      failed: 0,
      commandsPerSecond: 100,
      endToEndMs: flat(50 + addedMs),
      upstreamMs: flat(50),
      addedMs: flat(addedMs),
      addedLowMs: flat(addedMs),
      upstreamRequests: 10,
      peakRssMb,
      botCpuUsPerCommand: 100,
      sandboxCpuUsPerRequest: 100,
    });
    const identical: IdenticalResult = {
      commands: 100,
      upstreamRequests: 1,
      endToEndMs: flat(51),
      cachedRepeats: 10,
      cachedUpstreamRequests: 0,
      cachedMs: flat(0.2),
    };
    // The client's req/s and CPU per request beside its floor's (1,000 req/s and 40 µs).
    const raw = (operation: string, requestsPerSecond: number, cpuUs: number): RawResult => ({
      operation,
      method: 'GET',
      calls: 100,
      failed: 0,
      upstreamRequests: 100,
      callsPerSecond: requestsPerSecond,
      latencyMs: flat(1),
      clientCpuUsPerCall: cpuUs,
      sandboxCpuUsPerRequest: 50,
      requestsPerSecond,
      clientCpuUsPerRequest: cpuUs,
      floor: { calls: 100, failed: 0, callsPerSecond: 1_000, cpuUsPerCall: 40 },
    });
    const startup = [
      { how: 'node', runs: 1, readyMs: { min: 300, median: 300, max: 300 }, idleRssMb: 120, idleFileMb: 60 },
    ];
    const checks = checkTargets(
      [level(200, 7.9, 150), level(1000, 101, 150)],
      identical,
      // 0.8× and 1.6× are met exactly; the bot is held to 1.2 × 1.87× of its floor's CPU.
      [
        raw('weather.current', 800, 64),
        raw('email.send', 790, 65),
        raw('bot /weather', 500, 89),
        raw('bot /weather', 500, 90),
        // Shares concurrent calls (2 requests for 100 calls): not comparable with its floor.
        { ...raw('speech.voices', 50, 900), upstreamRequests: 2 },
      ],
      startup,
    );
    const met = Object.fromEntries(checks.map((c) => [c.target.split(' (')[0]!.split(' [')[0]!, c.isMet]));
    expect(met).toEqual({
      'weather.current: req/s ÷ raw undici': true,
      'weather.current: CPU/request ÷ raw undici': true,
      'email.send: req/s ÷ raw undici': false,
      'email.send: CPU/request ÷ raw undici': false,
      'bot /weather: CPU per command ÷ raw request': false,
      'unanswered or failed of 1000 concurrent': true,
      'peak RSS at 1000 concurrent': true,
      'upstream requests for 100 identical /weather': true,
      'cached repeat /weather, p99': true,
      'start to console ready, median': true,
      'idle RSS': false,
    });
    // 2.225× is within 1.2 × 1.87 = 2.24, 2.25× is not.
    expect(checks.filter((c) => c.target.startsWith('bot')).map((c) => c.isMet)).toEqual([true, false]);
    // A section left out of the run leaves its rows out rather than marking them missed.
    expect(checkTargets([], undefined, [], [])).toEqual([]);
  });
});
