// The process lifecycle: how herald stops. SIGINT/SIGTERM start an orderly stop (a second signal
// exits at once with 130); a closed output (EPIPE on stdout, stderr or the log) ends the process
// at once with 141, as a program killed by SIGPIPE would, since nothing it says can be read any more.
//
// The order of a stop is fixed here, whatever order the parts started in: main.ts registers each
// part's closer under its phase as the part comes up, so nothing is closed before it exists.
import type { EventEmitter } from 'node:events';
import pino from 'pino';
import type { Logger } from './log.ts';

/** The stop phases, in order: each phase's closers run together, bounded by the phase's time. */
export const STOP_PHASES = [
  /** No new commands; the running ones answer. */
  'commands',
  /** Chat platforms disconnect. */
  'adapters',
  /** One last attempt to deliver what the outbox holds; the rest stays for the next start. */
  'outbox',
  /** Scheduled slots finish, their posts in flight answered (STOP_TIMEOUT_MS at most). */
  'jobs',
  /** The store closes after everything that writes to it. */
  'store',
  /** Service clients, the sandbox, the health server, Redis. */
  'connections',
] as const;
type StopPhase = (typeof STOP_PHASES)[number];

/** How long each phase may take, past which the stop goes on without it. */
export const PHASE_MS = 5_000;
/** The longest the running commands get. */
const MAX_DRAIN_MS = 30_000;
/** How long the final log flush may take. */
const FLUSH_MS = 2_000;
export const EXIT_SECOND_SIGNAL = 130;
/** 128 + SIGPIPE: what a shell reports for a program whose reader went away. */
export const EXIT_OUTPUT_CLOSED = 141;

/** The drain time of the running commands: their own deadline and one second, at most 30 s. */
export function drainMs(commandTimeoutMs: number): number {
  return Math.min(commandTimeoutMs + 1_000, MAX_DRAIN_MS);
}

export interface LifecycleOptions {
  log: Logger;
  commandTimeoutMs: number;
  /**
   * STOP_TIMEOUT_MS: how long the slots and their posts in flight may take to finish; a post cut off
   * would be sent again later. Keep Kubernetes' terminationGracePeriodSeconds above it.
   */
  jobsStopMs?: number;
  /** Defaults to process.exit. */
  exit?: (code: number) => void;
  /** Where the signals come from; defaults to process. */
  signals?: Pick<EventEmitter, 'on'>;
  /** Streams whose EPIPE ends the process; defaults to stdout, stderr and the log's destination. */
  outputs?: readonly Pick<EventEmitter, 'on'>[];
}

export interface Lifecycle {
  /** Registers a closer, run in `phase` of the stop. */
  onStop(phase: StopPhase, close: () => unknown): void;
  /** Starts the orderly stop once; later calls return the same stop. */
  stop(reason: string, code?: number): Promise<void>;
  readonly isStopping: boolean;
}

function bounded(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The log's own destination stream (pino keeps it under a public symbol), when it has one. */
function logStream(log: Logger): Pick<EventEmitter, 'on'> | undefined {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  return stream !== null && typeof stream === 'object' && 'on' in stream
    ? (stream as Pick<EventEmitter, 'on'>)
    : undefined;
}

export function createLifecycle(opts: LifecycleOptions): Lifecycle {
  const { log } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const closers = new Map<StopPhase, (() => unknown)[]>(STOP_PHASES.map((p) => [p, []]));
  let stopping: Promise<void> | undefined;
  let exited = false;
  const exitOnce = (code: number): void => {
    if (exited) return;
    exited = true;
    exit(code);
  };

  async function runStop(reason: string, code: number): Promise<void> {
    log.info({ reason }, 'herald stopping');
    for (const phase of STOP_PHASES) {
      const ms =
        phase === 'commands'
          ? drainMs(opts.commandTimeoutMs)
          : phase === 'jobs'
            ? (opts.jobsStopMs ?? PHASE_MS)
            : PHASE_MS;
      const work = closers.get(phase)!.map((close) => Promise.resolve().then(close));
      await bounded(Promise.allSettled(work), ms);
    }
    log.info({ reason }, 'herald stopped');
    await bounded(new Promise<void>((resolve) => log.flush(() => resolve())), FLUSH_MS);
    exitOnce(code);
  }

  const lifecycle: Lifecycle = {
    onStop(phase, close) {
      closers.get(phase)!.push(close);
    },
    stop(reason, code = 0) {
      stopping ??= runStop(reason, code);
      return stopping;
    },
    get isStopping() {
      return stopping !== undefined;
    },
  };

  const signals = opts.signals ?? process;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    signals.on(signal, () => {
      if (stopping) exitOnce(EXIT_SECOND_SIGNAL);
      else void lifecycle.stop(signal);
    });
  }
  const outputs =
    opts.outputs ?? [process.stdout, process.stderr, logStream(log)].filter((s) => s !== undefined);
  for (const output of outputs) {
    output.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') exitOnce(EXIT_OUTPUT_CLOSED);
    });
  }
  return lifecycle;
}
