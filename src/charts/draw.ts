// The drawing half of src/charts: SVG from the spec here (bounded by CHART_LIMITS, a few ms),
// then PNG in a worker thread (render-worker.ts) under a time budget. Loaded on the first chart.
import { Worker } from 'node:worker_threads';
import type { Attachment } from '../core/reply.ts';
import type { RenderRequest, RenderResult } from './render-worker.ts';
import { ChartInputError, type LineChartSpec } from './spec.ts';
import { chartSvg, fitAlt } from './svg.ts';

/** How long a chart may take, waiting and rendering, before the reply goes out without it. */
const CHART_TIME_BUDGET_MS = 10_000;

interface Pending {
  resolve(png: Uint8Array): void;
  reject(err: Error): void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

/** Ends the worker (a chart over its budget, or the worker failed); the next chart starts a new one. */
function dropWorker(reason: Error): void {
  const w = worker;
  worker = undefined;
  for (const p of pending.values()) p.reject(reason);
  pending.clear();
  void w?.terminate();
}

function renderWorker(): Worker {
  if (worker) return worker;
  // The worker needs none of the process' flags (some, such as --input-type, a worker refuses).
  const w = new Worker(new URL('./render-worker.ts', import.meta.url), { execArgv: [] });
  // An idle worker does not keep the process alive: shutdown needs nothing from it.
  w.unref();
  w.on('message', (result: RenderResult) => {
    const p = pending.get(result.id);
    pending.delete(result.id);
    if ('png' in result) p?.resolve(result.png);
    else p?.reject(new Error(`the chart could not be rendered: ${result.error}`));
  });
  w.on('error', (err: Error) => {
    if (worker === w) dropWorker(err);
  });
  w.on('exit', () => {
    if (worker === w) dropWorker(new Error('the chart renderer stopped'));
  });
  worker = w;
  return w;
}

function svgToPngOffThread(svg: string, budgetMs: number): Promise<Uint8Array> {
  const id = nextId++;
  const w = renderWorker();
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (!pending.has(id)) return;
      // resvg cannot be interrupted inside a render: the worker goes, with what it was doing.
      dropWorker(new ChartInputError(`the chart took longer than its ${budgetMs} ms budget`));
    }, budgetMs);
    const done = () => clearTimeout(timer);
    pending.set(id, {
      resolve: (png) => (done(), resolve(png)),
      reject: (err) => (done(), reject(err)),
    });
    w.postMessage({ id, svg } satisfies RenderRequest);
  });
}

export async function renderChart(
  spec: LineChartSpec,
  budgetMs: number = CHART_TIME_BUDGET_MS,
): Promise<Attachment> {
  const svg = chartSvg(spec);
  return {
    filename: spec.filename,
    contentType: 'image/png',
    bytes: await svgToPngOffThread(svg, budgetMs),
    description: fitAlt(spec.alt),
  };
}
