// Times written as plain text (an embed's timestamp where no token renders, a chart's axis) in the
// zone of the run's preferences, end to end through the dispatcher on the simulator, then each
// renderer: the console, Discord and Slack. A typed command: the reader's zone; a scheduled post:
// its tz:, then its channel's, then its creator's, and for to:me its creator's before the channel's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderConsole } from '../../adapters/console/render.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import type { ScheduledFor } from '../../src/core/preferences.ts';
import type { Reply } from '../../src/core/reply.ts';
import { renderDiscord } from '../../src/render/discord.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { MANAGER, ROLE_HOLDER, startWorld, type World } from '../schedule/world.ts';

const HERE: ChatChannel = { platform: 'discord', id: '1200000000000000001', guildId: '1100000000000000001' };
const DM: ChatChannel = { platform: 'discord', id: '1200000000000000002' };
const ADMIN = ROLE_HOLDER;
const TOKYO = /GMT\+9$/;
// The simulator observes on its own clock: either side of daylight saving time.
const NEW_YORK = /GMT-[45]$/;

let world: World;
beforeEach(async () => {
  world = await startWorld({ settings: { adminRoles: [ADMIN.roles[0]!], timezone: 'UTC' } });
});
afterEach(() => world.close());

/** The observation time each renderer writes: the console's footer, Slack's fallback, Discord's timestamp. */
function observed(reply: Reply) {
  const consoleFooter = renderConsole(reply).split('\n').at(-1)!;
  const context = renderSlack(reply).blocks.find((b) => b.type === 'context');
  const slackDate = JSON.stringify(context).match(/<!date\^(\d+)\^[^|]*\|([^>]*)>/);
  const discordAt = renderDiscord(reply).embeds?.[0]?.timestamp;
  return {
    console: consoleFooter.split(' · ').at(-1)!,
    slack: slackDate?.[2],
    slackUnix: Number(slackDate?.[1]),
    discord: discordAt,
  };
}

/** The zone named by the /forecast chart's alt text. */
const chartZone = (reply: Reply) =>
  /\(times in ([^)]+)\)/.exec(reply.attachments?.[0]?.description ?? '')?.[1];

describe("plain-text times in the run's zone", () => {
  it("a typed command: the reader's zone on the console and Slack; Discord's timestamp, which each reader sees in theirs", async () => {
    const before = observed(await world.type('/weather Oslo', MANAGER, HERE));
    expect(before.console).toMatch(/ UTC$/);
    await world.type('/settings tz:Asia/Tokyo', MANAGER);
    const reply = await world.type('/weather Oslo', MANAGER, HERE);
    const shown = observed(reply);
    expect(shown.console).toMatch(TOKYO);
    expect(shown.slack).toMatch(TOKYO);
    expect(shown.slack).toBe(shown.console);
    expect(shown.discord).toBe(new Date(shown.slackUnix * 1000).toISOString());
    expect(shown.discord).toBe(before.discord);
    expect(chartZone(await world.type('/forecast Oslo', MANAGER, HERE))).toBe('Asia/Tokyo');
    // A zone typed in /settings for the channel is the default of everyone who set none.
    await world.type('/settings scope:channel tz:America/New_York', ADMIN, HERE);
    expect(observed(await world.type('/weather Oslo', ADMIN, HERE)).console).toMatch(NEW_YORK);
  });

  it("a scheduled post: its tz:, then its channel's, then its creator's; to:me its creator's first", async () => {
    await world.type('/settings tz:Asia/Tokyo', MANAGER);
    const run = (line: string, schedule: ScheduledFor) =>
      world.dispatcher.run(line, MANAGER, new AbortController().signal, { schedule });
    const post = { creator: MANAGER, destination: `channel:discord:${HERE.id}`, timezone: 'UTC' };
    // Nobody set the channel's zone: the creator's.
    expect(observed(await run('/weather Oslo', post)).slack).toMatch(TOKYO);
    await world.type('/settings scope:channel tz:America/New_York', ADMIN, HERE);
    const inChannel = await run('/weather Oslo', post);
    expect(observed(inChannel).console).toMatch(NEW_YORK);
    expect(observed(inChannel).slack).toMatch(NEW_YORK);
    expect(chartZone(await run('/forecast Oslo', post))).toBe('America/New_York');
    const typed = { ...post, timezone: 'Europe/Berlin', isZoneTyped: true };
    expect(observed(await run('/weather Oslo', typed)).console).toMatch(/CES?T$/);
    expect(chartZone(await run('/forecast Oslo', typed))).toBe('Europe/Berlin');
    // to:me: the DM's own settings (set by an admin there) come after its creator's.
    await world.type(`/settings scope:channel:discord:${DM.id} tz:America/New_York`);
    const direct = { ...post, destination: `channel:discord:${DM.id}`, isDirect: true };
    expect(observed(await run('/weather Oslo', direct)).console).toMatch(TOKYO);
    expect(chartZone(await run('/forecast Oslo', direct))).toBe('Asia/Tokyo');
  });
});
