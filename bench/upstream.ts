// The main thread's handle on the sandbox worker: its origin, its injected latency, and the
// requests it served with their server-side times since the last collect().
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { WorkerCommand, WorkerEvent, WorkerInput } from './sandbox-worker.ts';

export interface Collected {
  /** Requests the upstream received. */
  requests: number;
  /** Server-side milliseconds per weather query (or path), summed over its requests. */
  serverMs: Map<string, number>;
  /** CPU milliseconds the sandbox thread used since the last collect. */
  cpuMs: number;
}

export interface Upstream {
  readonly url: string;
  setLatency(ms: number): void;
  collect(): Promise<Collected>;
  close(): Promise<void>;
}

export async function startUpstream(input: WorkerInput): Promise<Upstream> {
  const worker = new Worker(new URL('./sandbox-worker.ts', import.meta.url), { workerData: input });
  const next = async (type: WorkerEvent['type']): Promise<WorkerEvent> => {
    for (;;) {
      const [event] = (await once(worker, 'message')) as [WorkerEvent];
      if (event.type === type) return event;
    }
  };
  const send = (command: WorkerCommand) => worker.postMessage(command);
  const ready = await Promise.race([
    next('ready'),
    once(worker, 'error').then(([err]) => Promise.reject(err as Error)),
  ]);
  if (ready.type !== 'ready') throw new Error('the sandbox worker did not start');
  return {
    url: ready.url,
    setLatency: (ms) => send({ type: 'latency', ms }),
    async collect() {
      const answer = next('collected');
      send({ type: 'collect' });
      const event = await answer;
      if (event.type !== 'collected') throw new Error('unexpected sandbox worker answer');
      return { requests: event.requests, serverMs: new Map(event.serverMs), cpuMs: event.cpuMs };
    },
    async close() {
      const closed = next('closed');
      send({ type: 'close' });
      await closed;
      await worker.terminate();
    },
  };
}
