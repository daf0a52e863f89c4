// A reply's time values, written by each renderer: Discord's `<t:unix:f>` / `<t:unix:R>` where
// Discord renders markdown, Slack's `<!date^unix^{date_short_pretty} {time}|fallback>` in mrkdwn,
// and plain text in the reader's zone where no token renders (titles, footers, headers, the console).
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../adapters/console/render.ts';
import { historyReply } from '../../commands/schedule-format.ts';
import { listReply } from '../../commands/schedule-list-format.ts';
import { timeValue, type Reply } from '../../src/core/reply.ts';
import { renderDiscord } from '../../src/render/discord.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { writeTimes } from '../../src/render/time.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';

const AT = new Date('2026-03-30T05:30:00Z');
const UNIX = Math.floor(AT.getTime() / 1000);
const BERLIN = 'Mon, 30 Mar 2026, 07:30 CEST';

const RECORD: ScheduleRecord = {
  id: 'k7p2mx',
  when: 'every weekday at 07:30',
  cron: '30 7 * * 1-5',
  words: 'every weekday (Monday to Friday) at 07:30',
  timezone: 'Europe/Berlin',
  destination: 'channel:discord:1200000000000000001',
  command: '/weather Oslo',
  creator: { platform: 'discord', id: '400000000000000001', displayName: 'Ada', roles: [] },
  paused: false,
  createdAt: AT.getTime() - 86_400_000,
  lastRun: { slotId: AT.toISOString(), at: AT.getTime(), outcome: 'posted' },
};

const LISTING = { schedules: [{ record: RECORD, nextRun: AT, skip: undefined }], builtIns: [] };
const HISTORY = [
  { slotId: AT.toISOString(), at: AT.getTime(), outcome: 'posted' as const, durationMs: 1200 },
];

describe('a time value', () => {
  it('is written for each form, and a value cut in half keeps only its words', () => {
    const text = `next ${timeValue(AT, 'Europe/Berlin', 'fR')}, last ${timeValue(AT, 'UTC')}`;
    expect(writeTimes(text, 'discord')).toBe(`next <t:${UNIX}:f> (<t:${UNIX}:R>), last <t:${UNIX}:f>`);
    expect(writeTimes(text, 'slack')).toBe(
      `next <!date^${UNIX}^{date_short_pretty} {time}|${BERLIN}>, last <!date^${UNIX}^{date_short_pretty} {time}|Mon, 30 Mar 2026, 05:30 UTC>`,
    );
    expect(writeTimes(text, 'plain')).toBe(`next ${BERLIN}, last Mon, 30 Mar 2026, 05:30 UTC`);
    expect(writeTimes(text.slice(0, 12), 'discord')).toBe(`next ${String(UNIX).slice(0, 6)}`);
    expect(writeTimes('no time here', 'slack')).toBe('no time here');
  });
});

describe('/schedule list and history on each platform', () => {
  it('Discord: tokens in field values and text, plain text in the reader zone in field names', () => {
    const list = renderDiscord(listReply(LISTING, 50, 1, 'Europe/Berlin'));
    const value = list.embeds[0]!.fields![0]!.value;
    expect(value).toContain(`Next: <t:${UNIX}:f> (<t:${UNIX}:R>)`);
    expect(value).toContain(`Last: posted <t:${UNIX}:f>`);
    expect(value).toContain('When: "every weekday at 07:30", Europe/Berlin');
    const history = renderDiscord(historyReply(RECORD, HISTORY, 'America/New_York'));
    const field = history.embeds[0]!.fields![0]!;
    expect(field.name).toBe('slot Mon, 30 Mar 2026, 01:30 GMT-4 · 1.2 s');
    expect(field.value).toBe(`posted <t:${UNIX}:f>`);
    expect(JSON.stringify(history)).not.toMatch(/[\uE000-\uE002]/);
  });

  it('Slack: date tokens with the fallback in mrkdwn, none in the plain_text header', () => {
    const reply: Reply = { ...historyReply(RECORD, HISTORY, 'Europe/Berlin') };
    reply.embeds![0]!.title = `History to ${timeValue(AT, 'Europe/Berlin')}`;
    const { blocks, text } = renderSlack(reply);
    const json = JSON.stringify(blocks);
    expect(json).toContain(`posted <!date^${UNIX}^{date_short_pretty} {time}|${BERLIN}>`);
    expect(blocks.find((b) => b.type === 'header')).toMatchObject({
      type: 'header',
      text: { type: 'plain_text', text: `History to ${BERLIN}` },
    });
    expect(json).not.toMatch(/[\uE000-\uE002]/);
    expect(text).not.toMatch(/[\uE000-\uE002]/);
  });

  it('Slack: a section the tokens would take past its limit gets the plain text instead', () => {
    const many = Array.from({ length: 120 }, () => timeValue(AT, 'UTC')).join(' ');
    const { blocks } = renderSlack({ text: many });
    const section = blocks.find((b) => b.type === 'section');
    expect(section && 'text' in section ? section.text?.text : '').toMatch(/^Mon, 30 Mar 2026, 05:30 UTC/);
  });

  it("the console: the operator's zone, no token", () => {
    const out = renderConsole(listReply(LISTING, 50, 1, 'Asia/Tokyo'));
    expect(out).toContain('Next: Mon, 30 Mar 2026, 14:30 GMT+9');
    expect(out).not.toMatch(/<t:|<!date|[\uE000-\uE002]/);
  });
});
