// A scheduled post into a Slack channel carries its reply's files (the /forecast chart, the /say
// mp3) through Slack's own client: the message, then filesUploadV2 (Slack's external upload: the
// bytes to an upload_url, the files completed into the channel), as one outbox entry whose text is
// never posted twice, however the steps fail and whichever replica retries.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { createMemoryRateBudget } from '../../src/store/rate-budget.ts';
import { BOT_TOKEN, startSlackFake, type SlackFake } from '../adapters/slack/fakes.ts';
import { channelBench, startWorld, type ChannelBench, type World } from './world.ts';

const SLACKER: Actor = { platform: 'slack', id: 'U0ADA', displayName: 'ada', roles: [] };
const HERE: ChatChannel = { platform: 'slack', id: 'C0GENERAL' };
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let world: World;
let slack: SlackFake;
let channels: ChannelClients;
beforeAll(async () => {
  [world, slack] = await Promise.all([startWorld(), startSlackFake()]);
  // Slack's pace of one post a second per channel is the rate budget's, as herald's entry points give it.
  channels = createChannelClients(
    { slack: { botToken: BOT_TOKEN, apiUrl: `${slack.server.url}/api` } },
    { rateBudget: createMemoryRateBudget({ perSecond: 50, invalidLimit: 1_000 }) },
  );
});
afterAll(async () => {
  await closeChannelClients(channels);
  await Promise.all([world.close(), slack.server.close()]);
});

let benches: ChannelBench[] = [];
afterEach(async () => {
  await Promise.all(benches.map((b) => b.runner.stop()));
  benches = [];
  slack.scopes.add('files:write');
});

function bench(opts: { store?: Store; maxWaitMs?: number } = {}): ChannelBench {
  const made = channelBench(world, channels, opts);
  benches.push(made);
  return made;
}

/** Adds `command` every day at 12:05 in the Slack channel, then runs the 12:05 slot (twice: once). */
async function runSlot(b: ChannelBench, command: string) {
  const { record } = await b.service.add({ when: 'every day at 12:05', command, channel: HERE }, SLACKER);
  b.clock.at = new Date('2026-03-27T12:05:10Z');
  const outcomes = [...(await b.runner.tick()), ...(await b.runner.tick())];
  return { record, outcomes, stored: await b.schedules.getSchedule(record.id) };
}

/** How many of each step the fake saw since `mark`, and the files it shared. */
function since(mark: number, sharedMark: number) {
  const paths = slack.server.requests.slice(mark).map((r) => r.pathname);
  const count = (path: string) => paths.filter((p) => p === path).length;
  return {
    posts: slack.server.requests.slice(mark).filter((r) => r.pathname === '/api/chat.postMessage'),
    tickets: count('/api/files.getUploadURLExternal'),
    uploads: paths.filter((p) => p.startsWith('/upload/v1/')).length,
    completes: count('/api/files.completeUploadExternal'),
    shared: slack.shared.slice(sharedMark),
    paths,
  };
}

const marks = () => [slack.server.requests.length, slack.shared.length] as const;

describe('Slack channel: scheduled posts carry their files', () => {
  it('posts a /forecast once and its PNG chart lands in the same channel, just below it', async () => {
    const b = bench();
    const [mark, sharedMark] = marks();
    const { outcomes, stored } = await runSlot(b, '/forecast Oslo');
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    const seen = since(mark, sharedMark);
    expect(seen.posts).toHaveLength(1);
    expect(seen.shared).toHaveLength(1);
    const [chart] = seen.shared;
    expect(chart).toMatchObject({ channel: 'C0GENERAL', threadTs: undefined });
    expect(chart!.title).toMatch(/\.png$/);
    expect([...chart!.bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    // The scopes read, the message, then the files: uploaded and completed just below the text.
    const at = (path: string) => seen.paths.indexOf(path);
    expect(at('/api/auth.test')).toBeLessThan(at('/api/chat.postMessage'));
    expect(at('/api/chat.postMessage')).toBeLessThan(at('/api/files.getUploadURLExternal'));
    expect(at('/api/files.getUploadURLExternal')).toBeLessThan(at('/api/files.completeUploadExternal'));
    // No "left out" line: the chart is there.
    const post = new URLSearchParams(seen.posts[0]!.body);
    expect(`${post.get('text')} ${post.get('blocks')}`).not.toMatch(/left out|carry no files/);
    expect(stored?.lastRun).toMatchObject({ outcome: 'posted', messageId: '1714560000.000200' });
  });

  it('uploads a /say mp3 with exactly the bytes the command made', async () => {
    const expected = (await world.type('/say Good morning, team')).attachments?.[0]?.bytes;
    expect(expected?.length).toBeGreaterThan(0);
    const b = bench();
    const [mark, sharedMark] = marks();
    const { outcomes } = await runSlot(b, '/say Good morning, team');
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    const seen = since(mark, sharedMark);
    expect(seen.posts).toHaveLength(1);
    expect(seen.shared.map((f) => f.title)).toEqual(['say.mp3']);
    expect(seen.shared[0]!.bytes).toEqual(new Uint8Array(expected!));
  });

  it.each([
    ['files.getUploadURLExternal', 'files.getUploadURLExternal'],
    ['the upload_url', 'upload'],
    ['chat.postMessage', 'chat.postMessage'],
    ['files.completeUploadExternal', 'files.completeUploadExternal'],
  ])(
    'waits out a 429 from %s for its Retry-After, then posts the text once and the file once',
    async (_step, method) => {
      const b = bench();
      const [mark, sharedMark] = marks();
      slack.next(method, {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': '1' },
      });
      const { outcomes } = await runSlot(b, '/say Good morning, team');
      expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['delivered']);
      expect(b.sleeps).toEqual([1_000]);
      const seen = since(mark, sharedMark);
      expect(seen.posts).toHaveLength(method === 'chat.postMessage' ? 2 : 1);
      expect(seen.shared).toHaveLength(1);
    },
  );

  it('a failure after the text, before the files, resends only the files: on another replica too', async () => {
    const store = createMemoryStore();
    // A wait longer than 10 ms puts the post back in the outbox, for any replica to take up.
    const [a, b] = [bench({ store, maxWaitMs: 10 }), bench({ store, maxWaitMs: 10 })];
    const [mark, sharedMark] = marks();
    slack.next('files.completeUploadExternal', {
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '30' },
    });
    const first = await runSlot(a, '/say Good morning, team');
    expect(first.outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['pending']);
    expect(since(mark, sharedMark).posts).toHaveLength(1);
    expect(since(mark, sharedMark).shared).toHaveLength(0);
    const [entry] = await store.listOutbox('pending');
    const ts = [...slack.posted.values()].flat().at(-1);
    expect(entry?.receipt).toBe(ts);

    b.clock.at = new Date('2026-03-27T12:06:00Z');
    const drained = await b.runner.drainOutbox({ includeBackingOff: true });
    expect(drained.map((r) => r.outcome)).toEqual(['delivered']);
    expect(drained.map((r) => r.receipt)).toEqual([ts]);
    const seen = since(mark, sharedMark);
    expect(seen.posts).toHaveLength(1);
    expect(seen.shared.map((f) => f.title)).toEqual(['say.mp3']);
  });

  it('stops before anything shows when the app lacks files:write, and the run says so', async () => {
    slack.scopes.delete('files:write');
    const b = bench();
    const [mark, sharedMark] = marks();
    const { outcomes, stored } = await runSlot(b, '/say Good morning, team');
    expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['given_up']);
    expect(since(mark, sharedMark).posts).toHaveLength(0);
    expect(stored?.lastRun?.outcome).toBe('failed');
    // Slack's word is for good: the schedule pauses, and says which scope to add.
    expect(stored?.paused).toBe(true);
    expect(stored?.lastRun?.error).toBe(
      `herald's Slack app lacks the files:write scope to post in <#C0GENERAL>; add it to the app and reinstall it. So schedule ${stored!.id} (/say Good morning, team) is paused; once that is fixed, /schedule resume ${stored!.id}.`,
    );
  });

  it('gives up when Slack answers not_in_channel at the files, with the text posted once', async () => {
    const b = bench();
    const [mark, sharedMark] = marks();
    slack.next('files.completeUploadExternal', { status: 200, body: { ok: false, error: 'not_in_channel' } });
    const { outcomes, stored } = await runSlot(b, '/say Good morning, team');
    expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['given_up']);
    const seen = since(mark, sharedMark);
    expect(seen.posts).toHaveLength(1);
    expect(seen.completes).toBe(1);
    expect(stored?.paused).toBe(true);
    expect(stored?.lastRun?.error).toBe(
      `herald is not a member of <#C0GENERAL>; invite it there (/invite @herald). So schedule ${stored!.id} (/say Good morning, team) is paused; once that is fixed, /schedule resume ${stored!.id}.`,
    );
  });
});
