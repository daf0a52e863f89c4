// /schedule list shows what a schedule does beyond posting: whom its posts ping (ping:), which
// runs it skips (skip:holidays:xx, a /schedule skip still to come) and where its posts land
// (mode:edit, thread:yes), as the console, Discord and Slack show it, within their limits and
// pinging no one: Discord's embed shows a mention as the name and never pings with it, and Slack's
// is written in words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderConsole } from '../../adapters/console/render.ts';
import type { Reply } from '../../src/core/reply.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { renderDiscord } from '../../src/render/discord.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { MANAGER, startWorld, type World } from './world.ts';

const ROLE = '500000000000000009';
const USER = '400000000000000007';
let world: World;
beforeEach(async () => {
  // The day before Christmas Eve: the next weekday run is the 24th, then the 28th after the holidays.
  world = await startWorld({
    now: () => new Date('2026-12-23T12:00:00Z'),
    settings: { adminUsers: [MANAGER.id] },
  });
});
afterEach(() => world.close());

const idOf = (reply: Reply) => /^Schedule (\w+) added/.exec(reply.text)![1]!;
const fieldOf = (list: Reply, id: string) =>
  list.embeds!.flatMap((e) => e.fields ?? []).find((f) => f.name.startsWith(id))!;

describe('/schedule list', () => {
  it("shows a schedule's pings and its skips, and the next run after them, on every platform", async () => {
    const line = `/schedule add "every weekday at 07:30" tz:Europe/Berlin /weather Oslo to:ops`;
    const id = idOf(
      await world.type(`${line} skip:holidays:de mode:edit ping:"<@&${ROLE}> <@${USER}>"`, MANAGER),
    );
    const plain = idOf(await world.type(line, MANAGER));
    expect((await world.type(`/schedule skip ${id}`, MANAGER)).text).toMatch(
      /^Schedule \w+ skips its run at Thu, 24 Dec/,
    );
    const list = await world.type('/schedule list', MANAGER);
    const lines = fieldOf(list, id).value.split('\n');
    expect(lines[1]).toMatch(/→ ops \(mode:edit\)$/);
    expect(lines).toContain(`Pings: <@&${ROLE}>, <@${USER}>`);
    const skips = lines.find((l) => l.startsWith('Skips: '))!;
    expect(skips).toMatch(
      /^Skips: public holidays \(skip:holidays:de\); the run at .*\(\/schedule skip by Ada\)$/,
    );
    // Past the skipped 24th, Christmas Day and Boxing Day, and the weekend: Monday the 28th.
    expect(lines.find((l) => l.startsWith('Next: '))).toMatch(/Mon, 28 Dec 2026, 06:30 UTC/);
    const other = fieldOf(list, plain).value;
    expect(other).not.toMatch(/Pings:|Skips:|mode:edit/);

    // The console: the skipped run in the reader's zone, the mentions as typed.
    const raw = await world.dispatcher.run('/schedule list', MANAGER, new AbortController().signal);
    const shown = renderConsole(raw);
    expect(shown).toContain(
      'Skips: public holidays (skip:holidays:de); the run at Thu, 24 Dec 2026, 06:30 UTC',
    );
    // Discord: the mention shows as its name in the embed, and the message pings no one.
    const discord = renderDiscord(raw);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    const value = discord.embeds.flatMap((e) => e.fields ?? []).find((f) => f.name.startsWith(id))!.value;
    expect(value).toContain(`Pings: <@&${ROLE}>, <@${USER}>`);
    expect(value).toMatch(/the run at <t:\d+:f> \(\/schedule skip by Ada\)/);
    // Slack: the date as Slack's token; nothing that could mention.
    const slack = JSON.stringify(renderSlack(raw).blocks);
    expect(slack).toMatch(
      /the run at <!date\^\d+\^\{date_short_pretty\} \{time\}\|Thu, 24 Dec 2026, 06:30 UTC>/,
    );
  });

  it("reads each schedule's /schedule skip once for its skip and its next run", async () => {
    const id = idOf(await world.type('/schedule add "every weekday at 07:30" /weather Oslo to:ops', MANAGER));
    await world.type(`/schedule skip ${id}`, MANAGER);
    const getValue = vi.spyOn(world.store, 'getValue');
    const lines = fieldOf(await world.type('/schedule list', MANAGER), id).value.split('\n');
    expect(lines.find((l) => l.startsWith('Skips: '))).toMatch(/the run at Thu, 24 Dec .*by Ada/);
    expect(lines.find((l) => l.startsWith('Next: '))).toMatch(/Fri, 25 Dec 2026, 07:30 UTC/);
    expect(getValue.mock.calls.filter(([key]) => key === `schedule-skip:${id}`)).toHaveLength(1);
  });

  it("writes a Slack schedule's mentions in words, and keeps many of them within Discord's field", async () => {
    const groups = Array.from({ length: 12 }, (_, i) => `<!subteam^S0ONCALL${i}|oncall-${i}>`);
    const id = idOf(
      await world.type(
        `/schedule add "every day at 07:30" /weather Oslo to:ops ping:"<@U0ADA|ada> ${groups.join(' ')}"`,
        MANAGER,
      ),
    );
    const list = await world.type('/schedule list', MANAGER);
    const field = fieldOf(list, id);
    expect(field.value).toContain(
      'Pings: user U0ADA, user group S0ONCALL0, user group S0ONCALL1, user group S0ONCALL2, user group S0ONCALL3 and 8 more',
    );
    expect(field.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    const slack = JSON.stringify(renderSlack(list).blocks);
    expect(slack).not.toMatch(/<!subteam|<@U0ADA/);
  });
});
