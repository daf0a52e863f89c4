// The drawing half of src/charts: SVG from the spec here (bounded by CHART_LIMITS, a few ms),
// then PNG in the renderer process (render-process.mjs) under a time budget. Loaded on the first
// chart. The renderer starts with the first chart and ends after RENDERER_IDLE_MS without one, so
// charts cost memory only while they are being drawn.
import { fork, type ChildProcess } from 'node:child_process';
import type { Attachment } from '../core/reply.ts';
import { ChartInputError, type LineChartSpec } from './spec.ts';
import { chartSvg, FONT_FAMILY, fitAlt } from './svg.ts';

/** A chart to render, to the renderer. */
interface RenderRequest {
  id: number;
  svg: string;
}

/** What one render cost the renderer: CPU (the render and the collection after it), its RSS then. */
interface RenderUsage {
  cpuMs: number;
  rssBytes: number;
}

/** The renderer's answer: the PNG, or why there is none. */
type RenderResult = ({ id: number; png: Uint8Array } | { id: number; error: string }) & RenderUsage;

/** How long a chart may take, waiting and rendering, before the reply goes out without it. */
const CHART_TIME_BUDGET_MS = 10_000;

/**
 * How long the renderer outlives its last chart: a burst of charts (a /report, a minute's
 * scheduled posts) shares one start-up; past it, the renderer's memory goes back to the system.
 */
export const RENDERER_IDLE_MS = 10_000;

interface Pending {
  resolve(png: Uint8Array): void;
  reject(err: Error): void;
}

/** What the renderer has cost since this process started: for the bench and the tests. */
export interface RendererUsage {
  /** Renderer processes started. */
  starts: number;
  renders: number;
  /** CPU of every render, in the renderer process, in ms. */
  cpuMs: number;
  /** The renderer's RSS after its last render, 0 when none is running. */
  rssBytes: number;
  /** The running renderer's process id. */
  pid: number | undefined;
}

let renderer: ChildProcess | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();
const usage = { starts: 0, renders: 0, cpuMs: 0, rssBytes: 0 };

export function rendererUsage(): RendererUsage {
  return { ...usage, rssBytes: renderer ? usage.rssBytes : 0, pid: renderer?.pid };
}

/** The renderer keeps this process alive only while a chart is being drawn. */
function holdProcess(child: ChildProcess, hold: boolean): void {
  if (hold) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/** Ends the renderer (idle, over its budget, or failed); the next chart starts a new one. */
function stopRenderer(reason?: Error): void {
  const child = renderer;
  renderer = undefined;
  clearTimeout(idleTimer);
  for (const p of pending.values()) p.reject(reason ?? new Error('the chart renderer stopped'));
  pending.clear();
  // SIGKILL: resvg cannot be interrupted inside a render, and an idle renderer has nothing to keep.
  child?.kill('SIGKILL');
}

function settle(result: RenderResult): void {
  usage.renders++;
  usage.cpuMs += result.cpuMs;
  usage.rssBytes = result.rssBytes;
  const p = pending.get(result.id);
  pending.delete(result.id);
  if ('png' in result) p?.resolve(result.png);
  else p?.reject(new Error(`the chart could not be rendered: ${result.error}`));
  if (pending.size === 0 && renderer) {
    holdProcess(renderer, false);
    idleTimer = setTimeout(() => stopRenderer(), RENDERER_IDLE_MS).unref();
  }
}

function startRenderer(): ChildProcess {
  const child = fork(new URL('./render-process.mjs', import.meta.url), [FONT_FAMILY], {
    // --expose-gc: the renderer collects after each render (render-process.mjs says why).
    execArgv: ['--expose-gc'],
    env: {},
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  usage.starts++;
  child.on('message', (result: RenderResult) => settle(result));
  child.on('error', (err: Error) => {
    if (renderer === child) stopRenderer(err);
  });
  child.on('exit', () => {
    if (renderer === child) stopRenderer();
  });
  return child;
}

function svgToPngOffProcess(svg: string, budgetMs: number): Promise<Uint8Array> {
  const id = nextId++;
  clearTimeout(idleTimer);
  renderer ??= startRenderer();
  const child = renderer;
  holdProcess(child, true);
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (pending.has(id) && renderer === child)
        stopRenderer(new ChartInputError(`the chart took longer than its ${budgetMs} ms budget`));
    }, budgetMs);
    const done = () => clearTimeout(timer);
    pending.set(id, {
      resolve: (png) => (done(), resolve(png)),
      reject: (err) => (done(), reject(err)),
    });
    child.send({ id, svg } satisfies RenderRequest);
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
    bytes: await svgToPngOffProcess(svg, budgetMs),
    description: fitAlt(spec.alt),
  };
}
