// /report and /forecast draw their charts from the sandbox's answers over loopback (real clients,
// real transport) and attach them as PNGs shown as the embed's image; without the chart the
// reply is the same text and embeds.
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecast } from '../../commands/forecast.ts';
import { report } from '../../commands/report.ts';
import { CHART_HEIGHT, CHART_THEME, CHART_WIDTH } from '../../src/charts/spec.ts';
import type { Reply } from '../../src/core/reply.ts';
import { analyticsHandlers } from '../../src/sandbox/analytics.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { weatherHandlers } from '../../src/sandbox/weather.ts';
import { createAnalyticsClient, type AnalyticsClient } from '../../src/services/analytics/client.ts';
import { createWeatherClient, type WeatherClient } from '../../src/services/weather/client.ts';
import { createContext, invoke, NOW } from '../commands/context.ts';
import { countColour, decodePng, translucentPixels } from '../support/png.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const TOKEN = 'herald-test-analytics-token-5d1f';
const KEY = 'herald-test-weather-key-81c2';
/** The property whose GA4 answer holds a hostile number: sessions "1e999" (Infinity to Number). */
const HOSTILE_PROPERTY = '987654321';

const wireRow = (dims: string[], values: string[]) => ({
  dimensionValues: dims.map((value) => ({ value })),
  metricValues: values.map((value) => ({ value })),
});

let server: SandboxServer;
let analytics: AnalyticsClient;
let hostile: AnalyticsClient;
let weather: WeatherClient;

beforeAll(async () => {
  const now = () => NOW.getTime();
  server = await startFake([
    http.post(route('analytics', `/properties/${HOSTILE_PROPERTY}\\:runReport`), () =>
      HttpResponse.json({
        dimensionHeaders: [{ name: 'date' }, { name: 'dateRange' }],
        metricHeaders: ['sessions', 'totalUsers', 'newUsers', 'eventCount', 'keyEvents'].map((name) => ({
          name,
          type: 'TYPE_INTEGER',
        })),
        rows: [
          wireRow(['20261120', 'current'], ['1e999', '5', '1', '40', '0']),
          wireRow(['20261113', 'previous'], ['9', '5', '1', '40', '0']),
        ],
        totals: [
          wireRow(['RESERVED_TOTAL', 'current'], ['1e999', '5', '1', '40', '0']),
          wireRow(['RESERVED_TOTAL', 'previous'], ['9', '5', '1', '40', '0']),
        ],
        rowCount: 2,
        metadata: { currencyCode: 'USD', timeZone: 'UTC' },
        kind: 'analyticsData#runReport',
      }),
    ),
    ...analyticsHandlers({ credential: TOKEN, now }),
    ...weatherHandlers({ credential: KEY, now }),
  ]);
  const base = sandboxBaseUrl(server.url, 'analytics');
  analytics = createAnalyticsClient({ baseUrl: base, accessToken: TOKEN, propertyId: '123456789' });
  hostile = createAnalyticsClient({ baseUrl: base, accessToken: TOKEN, propertyId: HOSTILE_PROPERTY });
  weather = createWeatherClient({ baseUrl: sandboxBaseUrl(server.url, 'weather'), apiKey: KEY });
});

afterAll(async () => {
  await Promise.all([analytics.close(), hostile.close(), weather.close()]);
  await server.close();
});

function onlyPng(reply: Reply) {
  expect(reply.attachments).toHaveLength(1);
  const [png] = reply.attachments!;
  expect(png!.contentType).toBe('image/png');
  expect(reply.embeds?.[0]?.image).toBe(png!.filename);
  const img = decodePng(png!.bytes);
  expect([img.width, img.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
  expect(translucentPixels(img)).toBe(0);
  return { png: png!, img };
}

describe('/report chart', () => {
  it('draws sessions per day against the previous period in two colours', async () => {
    const ctx = createContext({ services: { analytics } });
    const reply = await invoke(report, { range: '28d' }, ctx);
    const { png, img } = onlyPng(reply);
    expect(png.filename).toBe('report.png');
    expect(png.description).toMatch(/^Line chart of sessions per day: 25 Oct – 21 Nov 2026 \([\d,]+ in all/);
    expect(png.description).toMatch(/27 Sept? – 24 Oct 2026/);
    expect(countColour(img, CHART_THEME.series[0]!)).toBeGreaterThan(1000);
    expect(countColour(img, CHART_THEME.series[1]!)).toBeGreaterThan(500);
    // The totals are still in the embed: the chart is never the only copy of a number.
    expect(reply.embeds![0]!.fields!.map((f) => f.name)).toContain('Sessions');
  });

  it('shows a week for "yesterday", so the chart has more than one point', async () => {
    const reply = await invoke(report, { range: 'yesterday' }, createContext({ services: { analytics } }));
    expect(onlyPng(reply).png.description).toContain('15–21 Nov 2026');
  });

  it('leaves the chart out of a reply whose GA4 answer holds a hostile number ("1e999"), says "not available", and logs why', async () => {
    const ctx = createContext({ services: { analytics: hostile } });
    const reply = await invoke(report, {}, ctx);
    expect(reply.attachments ?? []).toEqual([]);
    expect(reply.embeds![0]!.image).toBeUndefined();
    expect(reply.embeds![0]!.fields).toHaveLength(5);
    expect(reply.embeds![0]!.fields![0]!.value).toMatch(/^\*\*not available\*\*\nnot available \(was 9\)/);
    expect(reply.embeds![0]!.fields![1]!.value).toMatch(/^\*\*5\*\*/);
    expect(ctx.logs.map((l) => l.msg)).toContain(
      'the chart could not be drawn; the reply goes out without it',
    );
  });
});

describe('/forecast chart', () => {
  it('draws the temperature of every 3-hour step with precipitation bars', async () => {
    const reply = await invoke(forecast, { city: 'Oslo' }, createContext({ services: { weather } }));
    const { png, img } = onlyPng(reply);
    expect(png.filename).toBe('forecast.png');
    expect(png.description).toMatch(
      /^Line chart of the temperature in Oslo, NO every 3 hours \(times in UTC\), from -?[\d.]+ to -?[\d.]+ °C/,
    );
    expect(countColour(img, CHART_THEME.series[0]!)).toBeGreaterThan(500);
    // The sandbox's Oslo has wet steps this week: their bars are drawn.
    expect(png.description).toMatch(/with bars for the chance of precipitation \(at most \d+ %\)/);
    expect(countColour(img, CHART_THEME.bars, 6)).toBeGreaterThan(2000);
    expect(reply.embeds![0]!.fields!.length).toBeGreaterThanOrEqual(5);
  });
});
