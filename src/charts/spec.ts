// What a chart shows, as plain data: commands and jobs build a ChartSpec from their numbers and
// hand it to drawChart (src/charts/index.ts), which loads the drawing code only then. This file
// has no imports, so importing the types costs nothing at start-up.

/** Every chart is drawn at this size in pixels. */
export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 500;

/**
 * The bounds of what a chart draws. Providers' numbers are checked for their unit's sane range
 * before they get here; these keep the drawing itself bounded whatever it is handed, so one
 * hostile value or text costs a left-out chart, never a stuck process: resvg renders on the
 * event loop, and with these bounds a chart takes a few tens of milliseconds.
 */
export const CHART_LIMITS = Object.freeze({
  /** The largest magnitude drawn: a count of 10^15 is already beyond any real report. */
  maxValue: 1e15,
  /** x positions (days, 3-hour steps) and values per series: a 999-day summary fits. */
  maxPoints: 1_000,
  maxSeries: 4,
  maxBoundaries: 64,
  /** Ticks on an axis: about 5 are asked for; the loop stops here whatever the numbers do. */
  maxTicks: 12,
  /** Any one text a builder takes (a city, a metric's name): more than a title or legend shows. */
  maxText: 200,
  /** The text alternative, within Discord's 1,024-character attachment description. */
  maxAlt: 1_000,
});

/**
 * A builder's input text cut to CHART_LIMITS.maxText code units before anything else is done with
 * it: a 1 MB city name from a provider is never lower-cased, joined or measured whole.
 */
export function chartText(text: string): string {
  return text.length <= CHART_LIMITS.maxText ? text : `${text.slice(0, CHART_LIMITS.maxText - 1)}…`;
}

/** A chart that cannot be drawn from what it was given; callers leave it out (tryDrawChart). */
export class ChartInputError extends Error {
  override name = 'ChartInputError';
}

/**
 * One opaque, neutral card for every theme: Discord dark, Discord light and Slack all show it
 * as a light panel with dark text, so nothing depends on the client's background.
 */
export const CHART_THEME = Object.freeze({
  background: '#ffffff',
  border: '#d1d5db',
  text: '#111827',
  muted: '#4b5563',
  grid: '#e5e7eb',
  axis: '#6b7280',
  boundary: '#9ca3af',
  /** Colours of the line series in order: blue for the current period, orange for the one before. */
  series: ['#2563eb', '#ea580c', '#16a34a', '#9333ea'] as readonly string[],
  /** The bars of the secondary series (precipitation chance). */
  bars: '#93c5fd',
});

interface LineSeries {
  /** The legend's name for it: "Last 7 days", "Temperature". */
  name: string;
  /** One value per x position; null where there is no value. */
  values: readonly (number | null)[];
  /** Drawn dashed (e.g. the previous period). */
  dashed?: boolean;
}

/** Bars on a second, right-hand axis from 0 to `max` (precipitation chance in %). */
interface BarSeries {
  name: string;
  values: readonly (number | null)[];
  axisTitle: string;
  max: number;
  unit: string;
}

/** A vertical line before x position `index` (a day boundary), with a label at its top. */
interface Boundary {
  index: number;
  label: string;
}

export interface LineChartSpec {
  /** The attachment's file name: letters, digits, dot, dash and underscore, ending in .png. */
  filename: string;
  title: string;
  subtitle?: string;
  /** One label per x position. */
  xLabels: readonly string[];
  /** Show every n-th x label (1 when omitted or when the labels fit). */
  xLabelEvery?: number;
  xAxisTitle: string;
  /** The left axis title with its unit: "Sessions per day", "Temperature (°C)". */
  yAxisTitle: string;
  /** The unit printed after the left axis' numbers ("°" for temperatures); none when omitted. */
  yUnit?: string;
  /** The left axis includes 0 (counts); otherwise it spans the values only (temperatures). */
  yFromZero?: boolean;
  series: readonly LineSeries[];
  bars?: BarSeries;
  boundaries?: readonly Boundary[];
  /** The text alternative: what the chart shows, in one or two sentences. */
  alt: string;
}
