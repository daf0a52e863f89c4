// The drawing half of src/charts: SVG from the spec, then PNG. Loaded on the first chart only.
import type { Attachment } from '../core/reply.ts';
import { svgToPng } from './png.ts';
import type { LineChartSpec } from './spec.ts';
import { chartSvg } from './svg.ts';

export function renderChart(spec: LineChartSpec): Attachment {
  return {
    filename: spec.filename,
    contentType: 'image/png',
    bytes: svgToPng(chartSvg(spec)),
    description: spec.alt,
  };
}
