// A LineChartSpec drawn as SVG text: title, subtitle, legend, gridlines, axes with titles and
// units, lines (dashed where asked), optional bars on a right-hand axis, day boundaries.
// Written by hand rather than with a charting library: the two chart kinds herald draws need
// about 200 lines, while ECharts' server-side renderer cost far more CPU to load and memory here
// (docs/charts.md has the comparison).
import {
  CHART_HEIGHT,
  CHART_LIMITS,
  CHART_THEME,
  CHART_WIDTH,
  ChartInputError,
  type LineChartSpec,
} from './spec.ts';

export const FONT_FAMILY = 'DejaVu Sans';

const T = CHART_THEME;
/** The widest an x label or a day boundary's label is drawn. */
const X_LABEL_WIDTH = 120;
const PLOT = { left: 84, top: 104, bottom: CHART_HEIGHT - 72 } as const;

interface Frame {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Centre of x position i. */
  x(i: number): number;
  /** Width of one x position. */
  slot: number;
}

/** Every value drawable: finite and within CHART_LIMITS.maxValue; the counts within theirs. */
function checkChartSpec(spec: LineChartSpec): void {
  const L = CHART_LIMITS;
  if (spec.series.length > L.maxSeries) throw new ChartInputError(`more than ${L.maxSeries} series`);
  if (spec.xLabels.length > L.maxPoints) throw new ChartInputError(`more than ${L.maxPoints} x positions`);
  if ((spec.boundaries?.length ?? 0) > L.maxBoundaries)
    throw new ChartInputError(`more than ${L.maxBoundaries} boundaries`);
  for (const list of [...spec.series.map((x) => x.values), spec.bars?.values ?? []]) {
    if (list.length > L.maxPoints) throw new ChartInputError(`a series of more than ${L.maxPoints} values`);
    for (const v of list) {
      if (v !== null && !(Math.abs(v) <= L.maxValue))
        throw new ChartInputError(`a value (${String(v)}) is not finite or beyond ±${L.maxValue}`);
    }
  }
  if (spec.bars && !(spec.bars.max > 0 && spec.bars.max <= L.maxValue))
    throw new ChartInputError('the bars have no drawable maximum');
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Widths are estimated (0.6 em per character): enough to lay out a legend, no font metrics needed. */
function textWidth(text: string, size: number): number {
  return [...text].length * size * 0.6;
}

/**
 * Text cut to what fits `width` pixels at `size` (by the same estimate), ending in an ellipsis:
 * a 100 kB city name becomes a title's worth, not 100 kB of glyphs for resvg to shape.
 */
export function fitText(text: string, width: number, size: number): string {
  const max = Math.max(1, Math.floor(width / (size * 0.6)));
  // Cut by code units first so a huge text is never spread whole into code points.
  const head = [...text.slice(0, max * 2 + 2)];
  if (head.length <= max && text.length <= max * 2 + 2) return text;
  return `${head.slice(0, max - 1).join('')}…`;
}

/** The text alternative cut to CHART_LIMITS.maxAlt characters (the PNG's description too). */
export function fitAlt(alt: string): string {
  return alt.length <= CHART_LIMITS.maxAlt ? alt : `${alt.slice(0, CHART_LIMITS.maxAlt - 1)}…`;
}

function text(
  x: number,
  y: number,
  content: string,
  opts: { size?: number; fill?: string; anchor?: string; weight?: string; rotate?: boolean } = {},
): string {
  const attrs = [
    `x="${x.toFixed(1)}"`,
    `y="${y.toFixed(1)}"`,
    `font-size="${opts.size ?? 13}"`,
    `fill="${opts.fill ?? T.text}"`,
  ];
  if (opts.anchor) attrs.push(`text-anchor="${opts.anchor}"`);
  if (opts.weight) attrs.push(`font-weight="${opts.weight}"`);
  if (opts.rotate) attrs.push(`transform="rotate(-90 ${x.toFixed(1)} ${y.toFixed(1)})"`);
  return `<text ${attrs.join(' ')}>${escapeXml(content)}</text>`;
}

/** A "nice" tick step (1, 2, 2.5 or 5 times a power of ten) for about `count` intervals. */
export function niceStep(span: number, count = 5): number {
  const raw = span / count;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  const nice = scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 2.5 ? 2.5 : scaled <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * The axis' bounds and ticks covering every value (and 0 when `fromZero`). Values that are not
 * finite or beyond CHART_LIMITS.maxValue are not drawn and so do not count; a span too narrow
 * for its magnitude (1e15 beside 1e15 + 0.125) is widened as equal values are, and the ticks are
 * counted, never stepped until a float reaches the end.
 */
export function axisTicks(values: readonly number[], fromZero: boolean): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!(Math.abs(v) <= CHART_LIMITS.maxValue)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) [lo, hi] = [0, 1];
  if (fromZero) [lo, hi] = [Math.min(0, lo), Math.max(0, hi)];
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  if (hi - lo < Math.max(1e-6, magnitude * 1e-9)) {
    const pad = Math.max(1, magnitude * 1e-6);
    [lo, hi] = [lo - pad, hi + pad];
  }
  const step = niceStep(hi - lo);
  const first = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let k = 0; k < CHART_LIMITS.maxTicks; k += 1) {
    const v = first + k * step;
    ticks.push(Number(v.toPrecision(12)));
    if (v >= hi - step * 0.001) break;
  }
  return ticks;
}

const compact = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 });
const grouped = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** One style for a whole axis: "12,500" up to a million, "1.5M" from there. */
function tickLabel(value: number, unit: string, axisMax: number): string {
  return `${(axisMax >= 1_000_000 ? compact : grouped).format(value)}${unit}`;
}

function frameFor(spec: LineChartSpec): Frame {
  const n = Math.max(1, spec.xLabels.length);
  const left = PLOT.left;
  const right = CHART_WIDTH - (spec.bars ? 80 : 32);
  const slot = (right - left) / n;
  return { left, right, top: PLOT.top, bottom: PLOT.bottom, slot, x: (i) => left + (i + 0.5) * slot };
}

function header(spec: LineChartSpec): string[] {
  const out = [text(24, 38, fitText(spec.title, CHART_WIDTH - 48, 22), { size: 22, weight: 'bold' })];
  if (spec.subtitle)
    out.push(text(24, 62, fitText(spec.subtitle, CHART_WIDTH - 48, 14), { size: 14, fill: T.muted }));
  let x = PLOT.left;
  const y = 88;
  // Each legend entry gets an equal share of the row: its key (36 px) and a gap (28 px) included.
  const entries = spec.series.length + (spec.bars ? 1 : 0);
  const nameWidth = (CHART_WIDTH - PLOT.left - 32) / Math.max(1, entries) - 64;
  const legend = spec.series.map((s) => ({ ...s, name: fitText(s.name, nameWidth, 13) }));
  legend.forEach((s, i) => {
    const color = T.series[i % T.series.length]!;
    out.push(
      `<line x1="${x}" y1="${y - 5}" x2="${x + 28}" y2="${y - 5}" stroke="${color}" stroke-width="3"${s.dashed ? ' stroke-dasharray="7 4"' : ''}/>`,
      text(x + 36, y, s.name, { size: 13 }),
    );
    x += 36 + textWidth(s.name, 13) + 28;
  });
  if (spec.bars) {
    out.push(
      `<rect x="${x}" y="${y - 12}" width="16" height="14" fill="${T.bars}"/>`,
      text(x + 24, y, fitText(spec.bars.name, nameWidth, 13), { size: 13 }),
    );
  }
  return out;
}

function leftAxis(spec: LineChartSpec, f: Frame, ticks: number[], y: (v: number) => number): string[] {
  const out: string[] = [];
  const axisMax = Math.max(...ticks.map(Math.abs));
  for (const t of ticks) {
    out.push(
      `<line x1="${f.left}" y1="${y(t).toFixed(1)}" x2="${f.right}" y2="${y(t).toFixed(1)}" stroke="${T.grid}"/>`,
      text(f.left - 8, y(t) + 4, tickLabel(t, fitText(spec.yUnit ?? '', 24, 12), axisMax), {
        size: 12,
        fill: T.muted,
        anchor: 'end',
      }),
    );
  }
  const mid = (f.top + f.bottom) / 2;
  out.push(
    text(22, mid, fitText(spec.yAxisTitle, f.bottom - f.top, 13), {
      size: 13,
      fill: T.muted,
      anchor: 'middle',
      rotate: true,
    }),
  );
  return out;
}

function xAxis(spec: LineChartSpec, f: Frame): string[] {
  const out = [`<line x1="${f.left}" y1="${f.bottom}" x2="${f.right}" y2="${f.bottom}" stroke="${T.axis}"/>`];
  const labels = spec.xLabels.map((l) => fitText(l, X_LABEL_WIDTH, 12));
  const fit = Math.ceil((labels.reduce((m, l) => Math.max(m, textWidth(l, 12)), 0) + 8) / f.slot);
  const every = Math.max(1, Math.min(spec.xLabelEvery ?? 1, labels.length), fit);
  labels.forEach((label, i) => {
    if (i % every !== 0) return;
    out.push(text(f.x(i), f.bottom + 18, label, { size: 12, fill: T.muted, anchor: 'middle' }));
  });
  out.push(
    text((f.left + f.right) / 2, CHART_HEIGHT - 18, fitText(spec.xAxisTitle, f.right - f.left, 13), {
      size: 13,
      fill: T.muted,
      anchor: 'middle',
    }),
  );
  return out;
}

function boundaries(spec: LineChartSpec, f: Frame): string[] {
  return (spec.boundaries ?? []).flatMap((b) => {
    const x = f.left + b.index * f.slot;
    return [
      `<line x1="${x.toFixed(1)}" y1="${f.top}" x2="${x.toFixed(1)}" y2="${f.bottom}" stroke="${T.boundary}" stroke-dasharray="3 3"/>`,
      text(x + 5, f.top + 14, fitText(b.label, X_LABEL_WIDTH, 12), {
        size: 12,
        fill: T.muted,
        weight: 'bold',
      }),
    ];
  });
}

function bars(spec: LineChartSpec, f: Frame): string[] {
  const b = spec.bars;
  if (!b) return [];
  const h = f.bottom - f.top;
  const out: string[] = [];
  b.values.forEach((v, i) => {
    if (v === null || v <= 0) return;
    const height = (Math.min(v, b.max) / b.max) * h;
    const w = f.slot * 0.6;
    out.push(
      `<rect x="${(f.x(i) - w / 2).toFixed(1)}" y="${(f.bottom - height).toFixed(1)}" width="${w.toFixed(1)}" height="${height.toFixed(1)}" fill="${T.bars}"/>`,
    );
  });
  for (let q = 0; q <= 4; q++) {
    const value = (b.max * q) / 4;
    const y = f.bottom - (h * q) / 4;
    out.push(text(f.right + 8, y + 4, `${value}${fitText(b.unit, 24, 12)}`, { size: 12, fill: T.muted }));
  }
  out.push(
    text(CHART_WIDTH - 14, (f.top + f.bottom) / 2, fitText(b.axisTitle, f.bottom - f.top, 13), {
      size: 13,
      fill: T.muted,
      anchor: 'middle',
      rotate: true,
    }),
  );
  return out;
}

function lines(spec: LineChartSpec, f: Frame, y: (v: number) => number): string[] {
  const out: string[] = [];
  const dots = spec.xLabels.length <= 31;
  spec.series.forEach((s, si) => {
    const color = T.series[si % T.series.length]!;
    let d = '';
    let pen = false;
    s.values.forEach((v, i) => {
      if (v === null) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${f.x(i).toFixed(1)} ${y(v).toFixed(1)}`;
      pen = true;
      if (dots)
        out.push(`<circle cx="${f.x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="${color}"/>`);
    });
    const dash = s.dashed ? ' stroke-dasharray="7 4"' : '';
    if (d !== '')
      out.unshift(
        `<path d="${d}" fill="none" stroke="${color}" stroke-width="3" stroke-linejoin="round"${dash}/>`,
      );
  });
  return out;
}

/** The whole chart as an SVG document of CHART_WIDTH × CHART_HEIGHT. */
export function chartSvg(spec: LineChartSpec): string {
  checkChartSpec(spec);
  const f = frameFor(spec);
  const values = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const ticks = axisTicks(values, spec.yFromZero ?? false);
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const y = (v: number) => f.bottom - ((v - lo) / (hi - lo || 1)) * (f.bottom - f.top);
  const body = [
    `<rect width="${CHART_WIDTH}" height="${CHART_HEIGHT}" fill="${T.background}"/>`,
    `<rect x="0.5" y="0.5" width="${CHART_WIDTH - 1}" height="${CHART_HEIGHT - 1}" fill="none" stroke="${T.border}"/>`,
    ...header(spec),
    ...leftAxis(spec, f, ticks, y),
    ...bars(spec, f),
    ...boundaries(spec, f),
    ...xAxis(spec, f),
    ...lines(spec, f, y),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${FONT_FAMILY}">`,
    `<title>${escapeXml(fitAlt(spec.alt))}</title>`,
    ...body,
    '</svg>',
  ].join('\n');
}
