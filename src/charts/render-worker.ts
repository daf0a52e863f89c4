// The worker thread that turns a chart's SVG into PNG bytes. resvg renders synchronously, for a
// few hundred milliseconds per chart on a busy machine: here that time is the worker's, so
// commands and scheduled slots on the main thread keep being answered meanwhile.
import { parentPort } from 'node:worker_threads';
import { svgToPng } from './png.ts';

export interface RenderRequest {
  id: number;
  svg: string;
}

export type RenderResult = { id: number; png: Uint8Array } | { id: number; error: string };

parentPort?.on('message', ({ id, svg }: RenderRequest) => {
  let result: RenderResult;
  try {
    // resvg's bytes live outside the JS heap and cannot be transferred: one copy that can.
    result = { id, png: new Uint8Array(svgToPng(svg)) };
  } catch (err) {
    result = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(result, 'png' in result ? [result.png.buffer as ArrayBuffer] : []);
});
