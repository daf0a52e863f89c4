// The schedules bench's Discord fake (bench/schedule-fakes.ts) refuses what Discord refuses: past
// the global 50 requests a second, a 429 with X-RateLimit-Global and X-RateLimit-Scope `global`;
// past a webhook's 5 posts in 2 s, a 429 of scope `user` with its bucket's headers; each counted
// as an invalid request, and not posted.
import { afterEach, expect, it } from 'vitest';
import { request } from 'undici';
import { GLOBAL_PER_SECOND, webhookFake, type WebhookFake } from '../../bench/schedule-fakes.ts';

let fake: WebhookFake | undefined;
afterEach(() => void fake?.server.close());

const post = async (url: string, webhook: string, content: string) => {
  const res = await request(`${url}/${webhook}/token-${webhook}?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content, allowed_mentions: { parse: [] } }),
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: (await res.body.json()) as Record<string, unknown>,
  };
};

it('answers a burst over the global limit with global 429s, counted as invalid and not posted', async () => {
  fake = await webhookFake({ rateLimited: true });
  const url = fake.server.url;
  // Two posts to each webhook: no webhook's bucket of 5 is reached, only the global limit.
  const answers = await Promise.all(
    Array.from({ length: GLOBAL_PER_SECOND + 10 }, (_, i) =>
      post(url, `11000000000000000${i % 30}`, `p${i}`),
    ),
  );
  const refused = answers.filter((a) => a.status === 429);
  expect(refused.length).toBeGreaterThanOrEqual(5);
  for (const r of refused) {
    expect(r.headers).toMatchObject({ 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' });
    expect(r.body).toMatchObject({ global: true, retry_after: expect.any(Number) as number });
  }
  expect(fake.limited).toEqual({ count: refused.length, global: refused.length, invalid: refused.length });
  expect(fake.arrivals).toHaveLength(answers.length - refused.length);
});

it("answers a webhook's sixth post in 2 s with a 429 of scope user and the bucket's headers", async () => {
  fake = await webhookFake({ rateLimited: true });
  const answers = [];
  for (let i = 0; i < 6; i++) answers.push(await post(fake.server.url, '1100000000000000042', `p${i}`));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
  expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
  expect(answers[5]!.headers).toMatchObject({ 'x-ratelimit-scope': 'user', 'x-ratelimit-limit': '5' });
  expect(answers[5]!.body).toMatchObject({ global: false });
  expect(fake.limited).toEqual({ count: 1, global: 0, invalid: 1 });
});
