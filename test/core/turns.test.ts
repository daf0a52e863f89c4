// The queue that starts commands' work one per event-loop turn (src/core/turns.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTurns } from '../../src/core/turns.ts';

const immediate = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('createTurns', () => {
  it('resolves in the order asked', async () => {
    const turns = createTurns();
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3].map((i) => turns.next().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('starts one per turn: what the first queues for the next turn runs before the third starts', async () => {
    const turns = createTurns();
    const log: string[] = [];
    await Promise.all(
      [0, 1, 2].map((i) =>
        turns.next().then(() => {
          log.push(`start ${i}`);
          setImmediate(() => log.push(`after ${i}`));
        }),
      ),
    );
    await immediate();
    await immediate();
    expect(log).toEqual(['start 0', 'start 1', 'after 0', 'start 2', 'after 1', 'after 2']);
  });

  it('starts again after it has run dry', async () => {
    const turns = createTurns();
    await turns.next();
    await immediate();
    await expect(turns.next()).resolves.toBeUndefined();
  });

  it('is not held by a test fake clock: a turn is the event loop, not time', async () => {
    vi.useFakeTimers();
    const turns = createTurns();
    await expect(turns.next()).resolves.toBeUndefined();
  });
});
