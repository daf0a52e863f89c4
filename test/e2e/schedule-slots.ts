// The part the /schedule end-to-end tests share once a schedule is added: the runner taken over two
// hourly slot boundaries, posting once in each.
import { expect } from 'vitest';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';

/**
 * Moves `clock` into the 13:00 and then the 14:00 slot of 27 March 2026 and ticks `runner` twice
 * in each: the first tick posts, the second finds the slot settled. Expects one post a slot, two
 * in all, and resolves with what `posts()` gained in each slot.
 */
export async function postInTwoSlots<T>(
  runner: ScheduleRunner,
  clock: { at: Date },
  posts: () => T[],
): Promise<T[][]> {
  const before = posts().length;
  const perSlot: T[][] = [];
  for (const slot of ['13:00', '14:00']) {
    clock.at = new Date(`2026-03-27T${slot}:05Z`);
    const done = posts().length;
    // A second tick in the same slot finds it settled: no second post.
    expect((await runner.tick()).map((o) => o.status)).toEqual(['posted']);
    expect(await runner.tick()).toEqual([]);
    perSlot.push(posts().slice(done));
  }
  expect(perSlot.map((gained) => gained.length)).toEqual([1, 1]);
  expect(posts().length - before).toBe(2);
  return perSlot;
}
