// /schedule list of many schedules: pages, each one Discord message shown whole (its 6,000 embed
// characters, 10 embeds of 25 fields), reached with page: or the buttons; none left out.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderDiscord } from '../../src/render/discord.ts';
import { customIdFor } from '../../adapters/discord/custom-id.ts';
import type { Reply } from '../../src/core/reply.ts';
import { newScheduleId } from '../../src/schedule/schedules.ts';
import { MANAGER, startWorld, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await startWorld({ settings: { max: 1000 } });
});
afterEach(() => world.close());

/** Every id /schedule list shows in a reply. */
const idsOf = (reply: Reply) =>
  (reply.embeds ?? []).flatMap((e) => (e.fields ?? []).map((f) => /^(\S+)/.exec(f.name)![1]!));

describe('/schedule list of 300 schedules', () => {
  it('pages the list: every schedule on one page, each page one Discord message with nothing left out', async () => {
    const commands = [
      '/weather Oslo',
      '/forecast "Rio de Janeiro" units:imperial',
      '/voices',
      '/jobs rust where:Berlin country:de',
    ];
    // Four added as a user adds them, then stored again under new ids up to 300 (adding each through
    // the dispatcher costs seconds and shows nothing more).
    for (const command of commands)
      await world.type(`/schedule add "every weekday at 07:30" ${command}`, MANAGER);
    const added = await world.store.listSchedules();
    for (let i = added.length; i < 300; i++)
      await world.store.addSchedule(
        { ...added[i % added.length]!, id: newScheduleId(), createdAt: added[0]!.createdAt + i },
        1000,
      );
    const stored = (await world.store.listSchedules()).map((r) => r.id);
    expect(stored).toHaveLength(300);

    const first = await world.type('/schedule list');
    const pages = Number(/Page 1 of (\d+)\./.exec(first.text)?.[1]);
    expect(pages).toBeGreaterThan(1);
    expect(first.text).toBe(
      `300 schedules (at most 1000). Page 1 of ${pages}. /schedule list page:2 shows the next.`,
    );
    const pager = (reply: Reply) => reply.actions?.filter((a) => a.command === 'schedule list');
    expect(pager(first)).toEqual([{ label: 'Next page', command: 'schedule list', input: { page: 2 } }]);
    // Each of the page's first 7 schedules has its buttons: 3 each and the pager, within Discord's 25.
    const [one] = idsOf(first);
    expect(first.actions?.slice(0, 3)).toEqual([
      { label: `Run ${one} now`, command: 'schedule run', input: { id: one } },
      { label: `Pause ${one}`, command: 'schedule pause', input: { id: one } },
      { label: `Remove ${one}`, command: 'schedule remove', input: { id: one } },
    ]);
    expect(first.actions).toHaveLength(7 * 3 + 1);

    const seen: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const reply = await world.type(`/schedule list page:${page}`);
      // As an interaction's answer: its buttons clickable (the adapter's custom ids).
      const message = renderDiscord(reply, { customIdFor });
      expect(message.content ?? '', `page ${page}`).not.toMatch(/left out|shortened/);
      expect(message.embeds?.flatMap((e) => e.fields ?? [])).toHaveLength(idsOf(reply).length);
      seen.push(...idsOf(reply));
      if (page > 1)
        expect(pager(reply)?.[0]).toEqual({
          label: 'Previous page',
          command: 'schedule list',
          input: { page: page - 1 },
        });
    }
    expect(seen).toEqual(stored);
    expect(pager(await world.type(`/schedule list page:${pages}`))?.map((a) => a.label)).toEqual([
      'Previous page',
    ]);
    expect((await world.type(`/schedule list page:${pages + 1}`)).text).toBe(
      `300 schedules (at most 1000). There are ${pages} pages; page ${pages + 1} is past the last.`,
    );
  }, 60_000);

  it('keeps a short list on one page as before, with no page buttons; its schedule has its own', async () => {
    await world.type('/schedule add daily /voices', MANAGER);
    const reply = await world.type('/schedule list');
    expect(reply.text).toBe('1 schedule (at most 1000).');
    expect(reply.actions?.map((a) => a.command)).toEqual([
      'schedule run',
      'schedule pause',
      'schedule remove',
    ]);
    expect(reply.ephemeral).toBe(true);
    expect(reply.embeds?.[0]?.title).toBe('Schedules');
  });
});
