// The fake Discord refuses what Discord refuses of a modal (interaction response type 9) and of a
// message's buttons, each with the page that says so beside its rule in fake-discord.ts: a test here
// sends the bad request and sees it refused, so herald's form tests cannot pass on what Discord rejects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';

const UA = 'DiscordBot (https://example.org/herald-tests, 1.0.0)';
let fake: FakeDiscord;
let n = 0;

beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(async () => {
  await fake.close();
});

const input = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 1,
  components: [
    { type: 4, custom_id: id, style: 1, label: 'When', required: true, max_length: 200, ...extra },
  ],
});

async function send(path: string, method: string, body: unknown) {
  const res = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers: { 'user-agent': UA, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

const modal = (data: Record<string, unknown>) =>
  send(`/v10/interactions/${++n}/modal-token-${n}/callback`, 'POST', { type: 9, data });

describe('the fake Discord’s rules for modals and buttons', () => {
  it('takes a modal of 5 text inputs within the limits', async () => {
    const ok = await modal({
      custom_id: 'h1:["schedule add",{}]',
      title: 'New schedule',
      components: ['a', 'b', 'c', 'd', 'e'].map((id) => input(id)),
    });
    expect(ok.status).toBe(204);
  });

  it('refuses a modal of 6 inputs, a custom_id over 100, a title over 45 and a label over 45 (50035)', async () => {
    const base = { custom_id: 'form', title: 'New schedule', components: [input('when')] };
    const refused = [
      { ...base, components: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => input(id)) },
      { ...base, custom_id: 'x'.repeat(101) },
      { ...base, title: 't'.repeat(46) },
      { ...base, components: [input('when', { label: 'l'.repeat(46) })] },
      { ...base, components: [input('when', { max_length: 10, value: 'v'.repeat(11) })] },
      { ...base, components: [input('y'.repeat(101))] },
    ];
    for (const data of refused) {
      const answer = await modal(data);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    }
  });

  it('refuses a message whose button custom_id is over 100 characters, or with 6 rows (50035)', async () => {
    const button = (id: string) => ({ type: 2, style: 2, label: 'Run now', custom_id: id });
    const path = `/v10/webhooks/${APP_ID}/buttons-token/messages/@original`;
    const long = await send(path, 'PATCH', {
      content: 'x',
      components: [{ type: 1, components: [button('x'.repeat(101))] }],
    });
    expect(long.status).toBe(400);
    const rows = Array.from({ length: 6 }, (_, i) => ({ type: 1, components: [button(`b${i}`)] }));
    expect((await send(path, 'PATCH', { content: 'x', components: rows })).status).toBe(400);
    const fine = await send(path, 'PATCH', { content: 'x', components: rows.slice(0, 5) });
    expect(fine.status).toBe(200);
  });
});
