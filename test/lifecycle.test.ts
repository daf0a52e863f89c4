// The process lifecycle on its own: the stop's fixed order, its bounds (on a fake clock), the
// second signal, and a closed output.
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createLifecycle,
  drainMs,
  EXIT_OUTPUT_CLOSED,
  EXIT_SECOND_SIGNAL,
  PHASE_MS,
  STOP_PHASES,
  type LifecycleOptions,
} from '../src/lifecycle.ts';
import { createLogger } from '../src/log.ts';

function harness(over: Partial<LifecycleOptions> = {}) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const log = createLogger({ level: 'info', destination });
  const signals = new EventEmitter();
  const stdout = new EventEmitter();
  const exits: number[] = [];
  const lifecycle = createLifecycle({
    log,
    commandTimeoutMs: 1_000,
    exit: (code) => void exits.push(code),
    signals,
    outputs: [stdout],
    ...over,
  });
  const messages = () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
  return { lifecycle, signals, stdout, exits, messages, destination };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the stop', () => {
  it('runs the phases in their fixed order, whatever order the parts registered in', async () => {
    const { lifecycle, exits, messages } = harness();
    const order: string[] = [];
    for (const phase of [...STOP_PHASES].reverse()) {
      lifecycle.onStop(phase, async () => {
        await Promise.resolve();
        order.push(phase);
      });
    }
    // Closers of one phase run together: a later, slower one still ends before the next phase.
    lifecycle.onStop('store', async () => {
      for (let i = 0; i < 3; i++) await Promise.resolve();
      order.push('store, second closer');
    });
    await lifecycle.stop('end of input');
    expect(order).toEqual([
      'commands',
      'adapters',
      'outbox',
      'jobs',
      'store',
      'store, second closer',
      'connections',
    ]);
    expect(exits).toEqual([0]);
    expect(messages()).toEqual(['herald stopping', 'herald stopped']);
  });

  it('does not let a hanging or failing part hold up the rest: each phase is bounded', async () => {
    const { lifecycle, exits } = harness();
    const closed: string[] = [];
    lifecycle.onStop('commands', () => new Promise(() => undefined));
    lifecycle.onStop('adapters', () => Promise.reject(new Error('socket gone')));
    lifecycle.onStop('jobs', () => new Promise(() => undefined));
    lifecycle.onStop('store', () => void closed.push('store'));
    const stopped = lifecycle.stop('SIGTERM');
    await vi.advanceTimersByTimeAsync(drainMs(1_000) - 1);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(PHASE_MS);
    expect(closed).toEqual(['store']);
    await stopped;
    expect(exits).toEqual([0]);
  });

  it('waits for a scheduled post in flight up to STOP_TIMEOUT_MS before it closes the store', async () => {
    // SIGTERM 1 s into a post Discord answers after 8 s: the store stays open until it is recorded.
    const { lifecycle } = harness({ jobsStopMs: 30_000 });
    const events: string[] = [];
    lifecycle.onStop('jobs', async () => {
      await new Promise((r) => setTimeout(r, 7_000));
      events.push('post answered and recorded');
    });
    lifecycle.onStop('store', () => void events.push('store closed'));
    const stopped = lifecycle.stop('SIGTERM');
    await vi.advanceTimersByTimeAsync(7_000);
    await stopped;
    expect(events).toEqual(['post answered and recorded', 'store closed']);

    // A post still unanswered at STOP_TIMEOUT_MS does not hold the stop any longer.
    const late = harness({ jobsStopMs: 10_000 });
    const closed: string[] = [];
    late.lifecycle.onStop('jobs', () => new Promise(() => undefined));
    late.lifecycle.onStop('store', () => void closed.push('store'));
    const stopping = late.lifecycle.stop('SIGTERM');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(closed).toEqual(['store']);
  });

  it('gives the running commands their deadline and one second, at most 30 s', () => {
    expect(drainMs(25_000)).toBe(26_000);
    expect(drainMs(60_000)).toBe(30_000);
  });

  it('starts once: a second stop returns the same stop, with the first exit code', async () => {
    const { lifecycle, exits } = harness();
    const first = lifecycle.stop('invalid configuration', 2);
    expect(lifecycle.isStopping).toBe(true);
    expect(lifecycle.stop('end of input')).toBe(first);
    await first;
    expect(exits).toEqual([2]);
  });
});

describe('signals', () => {
  it('SIGTERM and SIGINT start the stop; a second signal exits at once with 130', async () => {
    const { lifecycle, signals, exits } = harness();
    lifecycle.onStop('commands', () => new Promise(() => undefined));
    signals.emit('SIGTERM');
    expect(lifecycle.isStopping).toBe(true);
    expect(exits).toEqual([]);
    signals.emit('SIGINT');
    expect(exits).toEqual([EXIT_SECOND_SIGNAL]);
    // The stop that was under way does not exit a second time.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(exits).toEqual([EXIT_SECOND_SIGNAL]);
  });
});

describe('a closed output', () => {
  it('EPIPE ends the process at once with 141, without waiting for a stop', () => {
    const { lifecycle, stdout, exits } = harness();
    lifecycle.onStop('commands', () => new Promise(() => undefined));
    stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([EXIT_OUTPUT_CLOSED]);
  });

  it("watches the log's own destination too (where stderr's EPIPE shows), not only stdout", () => {
    const { destination, exits } = harness({ outputs: undefined, signals: new EventEmitter() });
    destination.emit('error', Object.assign(new Error('write EAGAIN'), { code: 'EAGAIN' }));
    expect(exits).toEqual([]);
    destination.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([EXIT_OUTPUT_CLOSED]);
  });
});
