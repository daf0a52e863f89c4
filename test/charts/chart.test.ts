import { describe, expect, it } from 'vitest';
import { drawChart, type LineChartSpec } from '../../src/charts/index.ts';
import { CHART_HEIGHT, CHART_THEME, CHART_WIDTH } from '../../src/charts/spec.ts';
import { axisTicks, chartSvg, niceStep } from '../../src/charts/svg.ts';
import { countColour, decodePng, distinctColours, translucentPixels } from '../support/png.ts';

const DAYS = ['15 Nov', '16 Nov', '17 Nov', '18 Nov', '19 Nov', '20 Nov', '21 Nov'];

function twoSeries(overrides: Partial<LineChartSpec> = {}): LineChartSpec {
  return {
    filename: 'report.png',
    title: 'Sessions: last 7 days',
    subtitle: '15–21 Nov 2026, compared with 8–14 Nov 2026',
    xLabels: DAYS,
    xAxisTitle: 'Day',
    yAxisTitle: 'Sessions per day',
    yFromZero: true,
    series: [
      { name: 'Last 7 days', values: [1200, 1350, 1280, 1500, 1620, 900, 850] },
      { name: 'Previous 7 days', values: [1100, 1150, 1190, 1250, 1300, 800, 760], dashed: true },
    ],
    alt: 'Sessions per day, 15–21 Nov 2026 against 8–14 Nov 2026.',
    ...overrides,
  };
}

describe('drawChart', () => {
  it('draws a 1000×500 opaque PNG with both series in their own colours', async () => {
    const chart = await drawChart(twoSeries());
    expect(chart).toMatchObject({ filename: 'report.png', contentType: 'image/png' });
    expect(chart.description).toContain('15–21 Nov 2026');
    const img = decodePng(chart.bytes);
    expect([img.width, img.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(translucentPixels(img)).toBe(0);
    expect(distinctColours(img)).toBeGreaterThan(50);
    const [current, previous] = CHART_THEME.series;
    expect(countColour(img, current!)).toBeGreaterThan(500);
    expect(countColour(img, previous!)).toBeGreaterThan(300);
    // Text was drawn with the bundled font: dark pixels exist (titles, labels).
    expect(countColour(img, CHART_THEME.text, 40)).toBeGreaterThan(300);
  });

  it('draws only the series it is given: one series leaves the second colour absent', async () => {
    const spec = twoSeries();
    const img = decodePng((await drawChart({ ...spec, series: [spec.series[0]!] })).bytes);
    expect(countColour(img, CHART_THEME.series[0]!)).toBeGreaterThan(500);
    expect(countColour(img, CHART_THEME.series[1]!)).toBe(0);
  });

  it('draws precipitation bars on a second axis and day boundaries', async () => {
    const labels = Array.from({ length: 40 }, (_, i) => `${String((i * 3) % 24).padStart(2, '0')}h`);
    const spec: LineChartSpec = {
      filename: 'forecast.png',
      title: 'Oslo, NO: 5-day forecast',
      xLabels: labels,
      xLabelEvery: 2,
      xAxisTitle: 'Local time',
      yAxisTitle: 'Temperature (°C)',
      yUnit: '°',
      series: [{ name: 'Temperature', values: labels.map((_, i) => -3 + (i % 8)) }],
      bars: {
        name: 'Chance of precipitation',
        values: labels.map((_, i) => (i % 4 === 0 ? 80 : null)),
        axisTitle: 'Chance of precipitation (%)',
        max: 100,
        unit: '%',
      },
      boundaries: [8, 16, 24, 32].map((index) => ({ index, label: `day ${index / 8 + 1}` })),
      alt: 'Temperature over five days.',
    };
    const svg = chartSvg(spec);
    expect(svg.match(/stroke-dasharray="3 3"/g)).toHaveLength(4);
    expect(svg).toContain('>day 2</text>');
    expect(svg).toContain('>100%</text>');
    const img = decodePng((await drawChart(spec)).bytes);
    expect(countColour(img, CHART_THEME.bars, 6)).toBeGreaterThan(10 * 20 * 10);
  });

  it('escapes text, so a title cannot break the SVG', () => {
    const svg = chartSvg(twoSeries({ title: '<script>&"x"</script>' }));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;&#38;&#34;x&#34;');
  });

  it('leaves gaps for missing values and still draws a chart with no values', async () => {
    const svg = chartSvg(twoSeries({ series: [{ name: 'a', values: [1, null, 3, 4, null, null, 7] }] }));
    expect(svg).toMatch(/d="M[^"]*"/);
    expect(svg.match(/ M/g) ?? []).toHaveLength(0);
    const path = /<path d="([^"]*)"/.exec(svg)![1]!;
    expect(path.match(/M/g)).toHaveLength(3);
    const empty = await drawChart(twoSeries({ series: [{ name: 'a', values: DAYS.map(() => null) }] }));
    expect(decodePng(empty.bytes).width).toBe(CHART_WIDTH);
  });
});

describe('axis ticks', () => {
  it('picks 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(100)).toBe(20);
    expect(niceStep(12)).toBe(2.5);
    expect(niceStep(0.9)).toBe(0.2);
    expect(niceStep(0)).toBe(1);
  });

  it('covers the values, from zero for counts', () => {
    expect(axisTicks([850, 1620], true)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(axisTicks([-3.2, 4.1], false)).toEqual([-4, -2, 0, 2, 4, 6]);
    expect(axisTicks([5, 5], false)).toEqual([4, 4.5, 5, 5.5, 6]);
  });
});
