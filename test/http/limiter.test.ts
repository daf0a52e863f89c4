// The concurrency limit without a provider rate (guard.ts's semaphore): slots, order, give-ups.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/http/guard.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('limiter without a rate', () => {
  it('runs at most maxConcurrent at once, the waiters in arrival order', async () => {
    const limiter = createLimiter({ maxConcurrent: 2 });
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const signal = new AbortController().signal;
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }, signal),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.pending()).toBe(3);
    gates[1]!.resolve();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.pending()).toBe(0);
  });

  it('drops a waiter whose signal fires, without taking or losing a slot', async () => {
    const limiter = createLimiter({ maxConcurrent: 1 });
    const gate = deferred();
    const never = new AbortController().signal;
    const first = limiter.run(() => gate.promise.then(() => 'first'), never);
    const giveUp = new AbortController();
    const second = limiter.run(() => Promise.resolve('second'), giveUp.signal);
    const third = limiter.run(() => Promise.resolve('third'), never);
    expect(limiter.pending()).toBe(2);
    giveUp.abort(new Error('caller gave up'));
    await expect(second).rejects.toThrow('caller gave up');
    expect(limiter.pending()).toBe(1);
    gate.resolve();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
    // The slot came back: a later call runs at once.
    expect(await limiter.run(() => Promise.resolve('later'), never)).toBe('later');
    expect(limiter.pending()).toBe(0);
  });

  it('hands a freed slot to the longest waiting, never to a caller that arrives after it', async () => {
    const limiter = createLimiter({ maxConcurrent: 1 });
    const never = new AbortController().signal;
    const gate = deferred();
    const order: string[] = [];
    const task = (name: string, wait?: Promise<void>) => async () => {
      order.push(name);
      await wait;
      return name;
    };
    const first = limiter.run(task('first', gate.promise), never);
    const second = limiter.run(task('second'), never);
    gate.resolve();
    await first;
    // The slot is already the second's: a newcomer now queues behind it.
    const third = limiter.run(task('third'), never);
    expect(limiter.pending()).toBe(1);
    expect(await Promise.all([second, third])).toEqual(['second', 'third']);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(limiter.pending()).toBe(0);
  });

  it('frees the slot when a task fails, and refuses an already aborted signal', async () => {
    const limiter = createLimiter({ maxConcurrent: 1 });
    const never = new AbortController().signal;
    await expect(limiter.run(() => Promise.reject(new Error('boom')), never)).rejects.toThrow('boom');
    expect(await limiter.run(() => Promise.resolve(1), never)).toBe(1);
    await expect(limiter.run(() => Promise.resolve(2), AbortSignal.abort(new Error('gone')))).rejects.toThrow(
      'gone',
    );
  });
});
