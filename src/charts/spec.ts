// What a chart shows, as plain data: commands and jobs build a ChartSpec from their numbers and
// hand it to drawChart (src/charts/index.ts), which loads the drawing code only then. This file
// has no imports, so importing the types costs nothing at start-up.

/** Every chart is drawn at this size in pixels (issue 13: about 1,000×500). */
export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 500;

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

export interface LineSeries {
  /** The legend's name for it: "Last 7 days", "Temperature". */
  name: string;
  /** One value per x position; null where there is no value. */
  values: readonly (number | null)[];
  /** Drawn dashed (e.g. the previous period). */
  dashed?: boolean;
}

/** Bars on a second, right-hand axis from 0 to `max` (precipitation chance in %). */
export interface BarSeries {
  name: string;
  values: readonly (number | null)[];
  axisTitle: string;
  max: number;
  unit: string;
}

/** A vertical line before x position `index` (a day boundary), with a label at its top. */
export interface Boundary {
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
