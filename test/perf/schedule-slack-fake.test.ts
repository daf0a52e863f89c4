// The schedules bench's Slack fake (bench/schedule-slack-fake.ts) refuses what Slack refuses: a
// channel's post past its short burst inside one a second, and any post past the workspace's
// posts a minute, each with HTTP 429, Retry-After and `ok: false`, not posted; a post that did not
// wait out its Retry-After is counted (apart when it crossed the 429 on the wire); a missing or wrong token is refused at HTTP 200. Its clock is
// held still here, so that no refill happens between requests.
import { afterEach, expect, it } from 'vitest';
import { request } from 'undici';
import {
  CHANNEL_BURST,
  SLACK_BOT_TOKEN,
  WORKSPACE_PER_MINUTE,
  slackWebApiFake,
  type SlackWebApiFake,
} from '../../bench/schedule-slack-fake.ts';

let fake: SlackWebApiFake | undefined;
afterEach(() => void fake?.server.close());

const clock = { t: 1_000_000 };

/** chat.postMessage as the WebClient sends it: a form, the token as Bearer. */
const post = async (channel: string, text: string, token: string | null = SLACK_BOT_TOKEN) => {
  const res = await request(`${fake!.server.url}/api/chat.postMessage`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: new URLSearchParams({
      channel,
      text,
      blocks: JSON.stringify([{ type: 'section', text: { type: 'mrkdwn', text } }]),
      unfurl_links: 'false',
      unfurl_media: 'false',
    }).toString(),
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: (await res.body.json()) as Record<string, unknown>,
  };
};

it("answers a channel's post past its burst inside one a second with a 429 and Retry-After, not posted", async () => {
  fake = await slackWebApiFake({ now: () => clock.t });
  const answers = [];
  for (let i = 0; i <= CHANNEL_BURST; i++) answers.push(await post('C0BENCH0001', `p${i}`));
  expect(answers.map((a) => a.status)).toEqual([...Array<number>(CHANNEL_BURST).fill(200), 429]);
  expect(answers[0]!.body).toMatchObject({
    ok: true,
    channel: 'C0BENCH0001',
    ts: expect.any(String) as string,
  });
  expect(answers[CHANNEL_BURST]!.headers['retry-after']).toBe('1');
  expect(answers[CHANNEL_BURST]!.body).toEqual({ ok: false, error: 'ratelimited' });
  // Another channel keeps its own pace.
  expect((await post('C0BENCH0002', 'other')).status).toBe(200);
  // Not waiting out the Retry-After is counted, and refused again.
  expect((await post('C0BENCH0001', 'again')).status).toBe(429);
  expect(fake.limited).toEqual({ channel: 2, workspace: 0, early: 1, earlyInWorkspace: 0, crossed: 0 });
  const burst = Array.from({ length: CHANNEL_BURST }, (_, i) => `p${i}`);
  expect(fake.posts.map((p) => p.text)).toEqual([...burst, 'other']);
  // One second later the channel has earned one post back.
  clock.t += 1_000;
  expect((await post('C0BENCH0001', 'later')).status).toBe(200);
});

it("answers a post past the workspace's posts a minute with a 429 and Retry-After, whatever the channel", async () => {
  fake = await slackWebApiFake({ now: () => clock.t });
  for (let i = 0; i < WORKSPACE_PER_MINUTE; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: 50 }, (_, j) => post(`C0W${String(i + j).padStart(6, '0')}`, 'p')),
    );
    expect(batch.every((a) => a.status === 200)).toBe(true);
  }
  const over = await post('C0WFRESH01', 'one too many');
  expect(over.status).toBe(429);
  expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(over.body).toEqual({ ok: false, error: 'ratelimited' });
  // Another channel inside the workspace's Retry-After: counted, and refused too.
  expect((await post('C0WFRESH02', 'another')).status).toBe(429);
  expect(fake.limited).toEqual({ channel: 0, workspace: 2, early: 0, earlyInWorkspace: 1, crossed: 0 });
  expect(fake.posts).toHaveLength(WORKSPACE_PER_MINUTE);
  // A minute's share later (60 s / the limit), the workspace takes one more.
  clock.t += 60_000 / WORKSPACE_PER_MINUTE;
  expect((await post('C0WFRESH03', 'later')).status).toBe(200);
});

it("counts apart a post that came inside a Retry-After before the 429's answer had left (sent before it could be known)", async () => {
  fake = await slackWebApiFake({ now: () => clock.t });
  for (let i = 0; i < CHANNEL_BURST; i++) await post('C0BENCH0003', `p${i}`);
  const both = await Promise.all([post('C0BENCH0003', 'over'), post('C0BENCH0003', 'with it')]);
  expect(both.map((a) => a.status)).toEqual([429, 429]);
  expect(fake.limited).toMatchObject({ channel: 2, early: 0, crossed: 1 });
  // Sent once the answer was in: not waited out.
  await post('C0BENCH0003', 'after it');
  expect(fake.limited).toMatchObject({ channel: 3, early: 1, crossed: 1 });
});

it('refuses a missing or wrong token, a post with no channel and unreadable blocks, at HTTP 200 with ok false', async () => {
  fake = await slackWebApiFake({ now: () => clock.t });
  expect((await post('C0BENCH0001', 'p', null)).body).toEqual({ ok: false, error: 'not_authed' });
  const wrong = await post('C0BENCH0001', 'p', 'xoxb-not-this-one');
  expect(wrong).toMatchObject({ status: 200, body: { ok: false, error: 'invalid_auth' } });
  expect((await post('', 'p')).body).toEqual({ ok: false, error: 'channel_not_found' });
  const unreadable = await request(`${fake.server.url}/api/chat.postMessage`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Bearer ${SLACK_BOT_TOKEN}`,
    },
    body: new URLSearchParams({ channel: 'C0BENCH0001', text: 'p', blocks: '[{' }).toString(),
  });
  expect(await unreadable.body.json()).toEqual({ ok: false, error: 'invalid_blocks' });
  expect(fake.posts).toHaveLength(0);
});
