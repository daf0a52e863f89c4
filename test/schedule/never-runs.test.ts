// A schedule that would never run (31 February) is refused when it is added, in one sentence, and
// takes no SCHEDULE_MAX place; a yearly one is taken.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await startWorld({ settings: { max: 1 } });
});
afterEach(() => world.close());

describe('/schedule add of a schedule with no run in the next 366 days', () => {
  it('refuses 0 0 31 2 * in one sentence, with nothing stored and nothing upstream', async () => {
    const reply = await world.type('/schedule add "0 0 31 2 *" /weather Oslo');
    expect(reply.text).toBe(
      '"0 0 31 2 *" has no run in the next 366 days; check its day of the month and month.',
    );
    expect(reply.ephemeral).toBe(true);
    expect(await world.store.listSchedules()).toEqual([]);
    expect(world.upstream()).toEqual([]);
    // The one place SCHEDULE_MAX allows is still free.
    const yearly = await world.type('/schedule add "0 9 1 1 *" /weather Oslo');
    expect(yearly.text).toMatch(/^Schedule \w{6} added/);
  });
});
