// The charts the bench draws (and the README's example): /report's and /forecast's specs built
// from the built-in sandbox's answers, fetched through the real clients on loopback. Building a
// spec draws nothing, so the drawing code is still unloaded when this returns.
import { fetchSummary, summaryChart } from '../src/analytics-summary/summary.ts';
import { forecastChart } from '../src/charts/forecast-chart.ts';
import type { LineChartSpec } from '../src/charts/spec.ts';
import { placeLabel } from '../commands/weather-format.ts';
import { sandboxHandlers } from '../src/sandbox/index.ts';
import { sandboxBaseUrl } from '../src/sandbox/layout.ts';
import { startSandboxServer } from '../src/sandbox/server.ts';
import { createAnalyticsClient } from '../src/services/analytics/client.ts';
import { createWeatherClient } from '../src/services/weather/client.ts';

const KEY = 'herald-bench-chart-samples';
/** A fixed day, so the example chart is the same on every run. */
const NOW = new Date('2026-11-22T09:00:00Z');

export async function sampleChartSpecs(): Promise<{ report: LineChartSpec; forecast: LineChartSpec }> {
  const server = await startSandboxServer({
    handlers: sandboxHandlers({ credential: KEY, now: () => NOW.getTime() }),
  });
  const analytics = createAnalyticsClient({
    baseUrl: sandboxBaseUrl(server.url, 'analytics'),
    accessToken: KEY,
    propertyId: '123456789',
  });
  const weather = createWeatherClient({ baseUrl: sandboxBaseUrl(server.url, 'weather'), apiKey: KEY });
  try {
    const [summary, oslo] = await Promise.all([
      fetchSummary(analytics, { range: '28d', metrics: ['sessions'] }, NOW),
      weather.forecast({ city: 'Oslo', units: 'metric' }),
    ]);
    if (oslo === undefined) throw new Error('the sandbox has no forecast for Oslo');
    return {
      report: summaryChart(summary, 'sessions', 'report.png'),
      forecast: forecastChart({
        place: placeLabel(oslo.city, oslo.country),
        units: oslo.units,
        zone: 'Europe/Oslo',
        steps: oslo.steps,
      }),
    };
  } finally {
    await Promise.all([analytics.close(), weather.close()]);
    await server.close();
  }
}
