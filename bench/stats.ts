// Small measuring tools for the benchmark: percentiles, closed-loop and wave drivers, peak
// resident memory and per-thread CPU time.
import { readFileSync, writeFileSync } from 'node:fs';

/** The p-th percentile (0 to 100) of `values` by the nearest-rank method; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface Spread {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
  };
}

/**
 * Runs `op(0)` to `op(total - 1)` with `concurrency` of them in flight until all are done or
 * `maxMs` has passed (then no new one starts). Resolves with how many ran and the wall time.
 */
export async function closedLoop(
  total: number,
  concurrency: number,
  op: (index: number) => Promise<void>,
  maxMs = Number.POSITIVE_INFINITY,
): Promise<{ ran: number; wallMs: number }> {
  const started = performance.now();
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < total && performance.now() - started < maxMs) await op(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, lane));
  return { ran: next, wallMs: performance.now() - started };
}

/**
 * Runs `op(0)` to `op(total - 1)` in waves of `size` started together; a wave starts once the
 * previous one has finished, and none starts after `maxMs`. Resolves with how many ran.
 */
export async function inWaves(
  total: number,
  size: number,
  op: (index: number) => Promise<void>,
  maxMs = Number.POSITIVE_INFINITY,
): Promise<{ ran: number; wallMs: number }> {
  const started = performance.now();
  let next = 0;
  while (next < total && performance.now() - started < maxMs) {
    const wave: Promise<void>[] = [];
    for (let i = 0; i < size && next < total; i++) wave.push(op(next++));
    await Promise.all(wave);
  }
  return { ran: next, wallMs: performance.now() - started };
}

/**
 * The process's peak resident set between reset() and read(), in MB: Linux's VmHWM, reset through
 * /proc/self/clear_refs, so nothing samples on the event loop being measured. Elsewhere, the
 * current RSS at read() (a lower bound).
 */
export const peakRss = {
  reset(): void {
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // Not Linux, or not allowed: read() falls back to the current RSS.
    }
  },
  read(): number {
    try {
      const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
      if (kb !== undefined) return Number(kb) / 1024;
    } catch {
      // Fall through.
    }
    return process.memoryUsage.rss() / 1024 / 1024;
  },
};

/** CPU milliseconds (user + system) the calling thread has used since `mark` (process.threadCpuUsage()). */
export function cpuMsSince(mark: NodeJS.CpuUsage): number {
  const used = process.threadCpuUsage(mark);
  return (used.user + used.system) / 1000;
}

/** Rounds for the report: two decimals under 10, one under 100, else whole numbers. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
