// The whole bot against a hostile weather provider on loopback: a forecast of ±1e308 degrees, one
// with a 100 kB city name, and times beyond what a Date holds. herald answers each (the chart left
// out or cut to fit, the numbers "not available"), keeps answering the commands after them, and
// exits 0 at end of input.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { readFixture } from '../support/service-harness.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { runHerald, startHerald, type Run } from '../support/spawn-herald.ts';

const KEY = 'e2e-hostile-weather-key-5b1e';
const HUGE_CITY = 'Ω'.repeat(100_000);
/** Whole seconds, as OpenWeatherMap's `dt` is, but 9e12 s is past what a Date holds. */
const NO_TIME = 9e12;

type Forecast = { list: Record<string, unknown>[]; city: Record<string, unknown> };

function hostileForecast(city: string): Forecast {
  const forecast = readFixture<Forecast>('weather', 'forecast-zocca.json');
  if (city === 'Tromso') {
    return { ...forecast, list: [{ ...forecast.list[0], dt: NO_TIME }, ...forecast.list] };
  }
  if (city === 'Oslo') {
    return {
      ...forecast,
      list: forecast.list.map((step, i) => ({
        ...step,
        main: { ...(step['main'] as object), temp: i % 2 === 0 ? 1e308 : -1e308 },
      })),
    };
  }
  return { ...forecast, city: { ...forecast.city, name: HUGE_CITY } };
}

let server: SandboxServer;
let dir: string;

function env(): Record<string, string> {
  return {
    WEATHER_BASE_URL: sandboxBaseUrl(server.url, 'weather'),
    WEATHER_API_KEY: KEY,
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    AUDIO_DIR: join(dir, 'audio'),
    STORE_URL: join(dir, 'herald.sqlite'),
  };
}

describe('herald against a hostile weather provider, end to end', () => {
  let run: Run;
  /** Set by a test: the forecast answer waits for it (a signal sent while the command runs). */
  let hold: Promise<void> | undefined;

  beforeAll(async () => {
    server = await startFake([
      http.get(route('weather', '/forecast'), async ({ request }) => {
        await hold;
        return HttpResponse.json(hostileForecast(new URL(request.url).searchParams.get('q') ?? ''));
      }),
      http.get(route('weather', '/weather'), ({ request }) => {
        const current = readFixture('weather', 'current-zocca.json');
        const tromso = new URL(request.url).searchParams.get('q') === 'Tromso';
        return HttpResponse.json(tromso ? { ...current, dt: NO_TIME } : current);
      }),
    ]);
    dir = await mkdtemp(join(tmpdir(), 'herald-hostile-'));
    run = await runHerald(
      env(),
      '/forecast Oslo\n/forecast Bergen\n/weather Zocca\n/forecast Tromso\n/weather Tromso\n',
      { dropServiceVars: true, timeoutMs: 60_000 },
    );
  }, 90_000);

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 at end of input, having answered every line', () => {
    expect(run.signal, run.stderr.slice(-2_000)).toBeNull();
    expect(run.code, run.stderr.slice(-2_000)).toBe(0);
    const blocks = run.stdout.trimEnd().split(/\n\n(?=> \/)/);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual([
      '> /forecast Oslo',
      '> /forecast Bergen',
      '> /weather Zocca',
      '> /forecast Tromso',
      '> /weather Tromso',
    ]);
    expect(blocks[2]).toMatch(/Zocca/);
  });

  it('shows ±1e308 degrees as "not available" and leaves the chart out, logged', () => {
    const oslo = run.stdout.split(/\n\n(?=> \/)/)[0]!;
    expect(oslo).toContain('not available');
    expect(oslo).not.toMatch(/e\+?308|Infinity|NaN/);
    expect(run.stderr).toContain('the chart could not be drawn; the reply goes out without it');
  });

  it('draws the chart of a forecast whose city name is 100 kB, its title cut to fit the picture', async () => {
    const bergen = run.stdout.split(/\n\n(?=> \/)/)[1]!;
    const saved = / to (\/\S*?\.png)\b/.exec(bergen);
    expect(saved, bergen.slice(0, 500)).not.toBeNull();
    const png = await readFile(saved![1]!);
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('answers a forecast and a current weather whose times are past what a Date holds, without those times', () => {
    const [forecast, current] = run.stdout.split(/\n\n(?=> \/)/).slice(3);
    expect(forecast).toMatch(/forecast for Zocca/);
    expect(current).toMatch(/Weather in Zocca/);
    expect(current).not.toMatch(/Observed/);
    expect(run.stderr).not.toContain('"level":50');
  });

  it('ends on SIGTERM sent while /forecast waits for the ±1e308 answer: the command answers, exit 0', async () => {
    let release!: () => void;
    hold = new Promise((done) => (release = done));
    const h = startHerald(env(), { dropServiceVars: true });
    h.child.stdin.write('/forecast Oslo\n');
    const asked = () => server.requests.filter((r) => r.query.get('q') === 'Oslo').length;
    const before = asked();
    await vi.waitFor(() => expect(asked()).toBeGreaterThan(before), { timeout: 30_000, interval: 50 });
    h.child.kill('SIGTERM');
    await vi.waitFor(() => expect(h.err()).toContain('herald stopping'), { timeout: 10_000, interval: 50 });
    release();
    hold = undefined;
    expect(await h.exited, h.err().slice(-2_000)).toBe(0);
    expect(h.out()).toContain('not available');
  }, 60_000);
});
