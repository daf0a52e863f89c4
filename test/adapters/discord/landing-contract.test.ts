// Where a schedule's post lands, against the fake Discord (fake-discord.ts): the fake refuses what
// Discord refuses (editing another author's or another webhook's message, a second thread on one
// message, a webhook's thread outside a forum channel), and herald's clients (discord-channel.ts,
// discord-webhook.ts) edit a board, post anew when it is gone, start a thread once however often a
// first post is retried, and say in one sentence that a webhook starts threads only in a forum
// channel.
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.ts';
import type { Landing, PostProgress } from '../../../src/services/webhook/client.ts';
import { createDiscordChannelClient } from '../../../src/services/webhook/discord-channel.ts';
import { createWebhookClient } from '../../../src/services/webhook/discord-webhook.ts';
import { BOT_TOKEN, CHANNEL_ID, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';

const UA = 'DiscordBot (https://example.org/herald-tests, 1.0.0)';
const HOOK_ID = '1349081729583431690';
const OTHER_HOOK = '1349081729583431691';
const FORUM_HOOK = '1349081729583431692';
const HOOK_TOKEN = 'landing-test-webhook-token-7e1f';

let fake: FakeDiscord;
beforeEach(async () => {
  fake = await startFakeDiscord();
  for (const id of [HOOK_ID, OTHER_HOOK, FORUM_HOOK]) fake.webhooks.set(id, HOOK_TOKEN);
  fake.forumWebhooks.add(FORUM_HOOK);
});
afterEach(() => fake.close());

/** A raw request to the fake, as any client could send it. */
async function raw(method: string, path: string, body?: object, bot = true) {
  const res = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers: {
      'user-agent': UA,
      'content-type': 'application/json',
      ...(bot ? { authorization: `Bot ${BOT_TOKEN}` } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
const hook = (id: string, query = '?wait=true') => `/webhooks/${id}/${HOOK_TOKEN}${query}`;

const message = (content: string) => ({ content, username: 'herald' });

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(err)}`);
  return err;
}

describe('the fake Discord refuses what Discord refuses', () => {
  it("editing another webhook's message, or a deleted one: 404, code 10008", async () => {
    const mine = await raw('POST', hook(HOOK_ID), { content: 'board' });
    const id = String(mine.json.id);
    expect((await raw('PATCH', hook(OTHER_HOOK, `/messages/${id}`), { content: 'x' }, false)).json).toEqual({
      message: 'Unknown Message',
      code: 10008,
    });
    expect((await raw('PATCH', hook(HOOK_ID, `/messages/${id}`), { content: 'edited' }, false)).status).toBe(
      200,
    );
    fake.messages.delete(id);
    expect((await raw('PATCH', hook(HOOK_ID, `/messages/${id}`), { content: 'again' }, false)).status).toBe(
      404,
    );
  });

  it("the bot editing a webhook's message: 403, code 50005; a message in another channel: 10008", async () => {
    const hooked = String((await raw('POST', hook(HOOK_ID), { content: 'by the webhook' }, false)).json.id);
    const edit = await raw('PATCH', `/v10/channels/${CHANNEL_ID}/messages/${hooked}`, { content: 'x' });
    expect([edit.status, edit.json.code]).toEqual([403, 50005]);
    const own = String(
      (await raw('POST', `/v10/channels/${CHANNEL_ID}/messages`, { content: 'mine' })).json.id,
    );
    const elsewhere = await raw('PATCH', `/v10/channels/1187421520894746799/messages/${own}`, {
      content: 'x',
    });
    expect([elsewhere.status, elsewhere.json.code]).toEqual([404, 10008]);
  });

  it('a second thread on one message: 400, code 160004; a name over 100 characters: 50035', async () => {
    const own = String(
      (await raw('POST', `/v10/channels/${CHANNEL_ID}/messages`, { content: 'first' })).json.id,
    );
    const threads = `/v10/channels/${CHANNEL_ID}/messages/${own}/threads`;
    expect((await raw('POST', threads, { name: 'x'.repeat(101) })).json.code).toBe(50035);
    const started = await raw('POST', threads, { name: '/weather Oslo' });
    // The thread started from a message has the message's id.
    expect(started.json).toMatchObject({ id: own, type: 11, parent_id: CHANNEL_ID });
    const again = await raw('POST', threads, { name: '/weather Oslo' });
    expect([again.status, again.json.code]).toEqual([400, 160004]);
  });

  it("a webhook's thread_name outside a forum: 220003; a forum post without a thread: 220001; an unknown thread_id: 10003", async () => {
    expect((await raw('POST', hook(HOOK_ID), { content: 'x', thread_name: 'report' }, false)).json.code).toBe(
      220003,
    );
    expect((await raw('POST', hook(FORUM_HOOK), { content: 'x' }, false)).json.code).toBe(220001);
    const started = await raw('POST', hook(FORUM_HOOK), { content: 'x', thread_name: 'report' }, false);
    const thread = String(started.json.channel_id);
    expect(fake.threads.get(thread)).toBe(`forum:${FORUM_HOOK}`);
    expect(
      (await raw('POST', hook(FORUM_HOOK, `?wait=true&thread_id=${thread}`), { content: 'y' }, false)).status,
    ).toBe(200);
    expect(
      (await raw('POST', hook(HOOK_ID, `?wait=true&thread_id=${thread}`), { content: 'y' }, false)).json.code,
    ).toBe(10003);
  });
});

describe("herald's clients land posts as Discord allows", () => {
  const channelClient = () => createDiscordChannelClient({ apiUrl: fake.apiUrl, token: BOT_TOKEN });
  const webhookClient = (id: string) =>
    createWebhookClient({ baseUrl: `${fake.apiUrl}/webhooks`, id, token: HOOK_TOKEN });
  const lands = (how: Landing['how'], at?: Landing['at']): Landing => ({
    how,
    title: '/weather Oslo',
    ...(at ? { at } : {}),
  });

  it('edits the board in place, every part named; a deleted board is posted anew and named for the next edit', async () => {
    const client = channelClient();
    const first = await client.post(CHANNEL_ID, message('07:30'), { lands: lands('edit') });
    expect(first.landed).toEqual({ messageId: first.id, channelId: CHANNEL_ID });
    const edited = await client.post(CHANNEL_ID, message('08:00'), { lands: lands('edit', first.landed) });
    expect(edited).toEqual({ id: first.id, channelId: CHANNEL_ID });
    const patch = fake.calls.find((c) => c.kind === 'message-edit');
    expect(patch?.json).toMatchObject({
      content: '08:00',
      embeds: [],
      attachments: [],
      allowed_mentions: { parse: [] },
    });
    expect(patch?.json?.username).toBeUndefined();
    fake.messages.delete(first.id);
    const anew = await client.post(CHANNEL_ID, message('08:30'), { lands: lands('edit', first.landed) });
    expect(anew.id).not.toBe(first.id);
    expect(anew.landed).toEqual({ messageId: anew.id, channelId: CHANNEL_ID });
    await client.close();
  });

  it('starts one thread on the first post however often it is retried, then replies in it', async () => {
    const client = channelClient();
    // The thread start fails once after the first post was made: the retry starts it on that post.
    let failed = false;
    fake.rest.use(
      http.post('*/api/v10/channels/:channel/messages/:message/threads', () => {
        if (failed) return undefined;
        failed = true;
        return HttpResponse.json({ message: '500: Internal Server Error', code: 0 }, { status: 500 });
      }),
    );
    const progress: PostProgress = { record: (id) => Promise.resolve(void (progress.posted = id)) };
    await failureOf(client.post(CHANNEL_ID, message('07:30'), { lands: lands('thread'), progress }));
    const first = await client.post(CHANNEL_ID, message('07:30'), { lands: lands('thread'), progress });
    expect(first.landed).toEqual({ messageId: first.id, channelId: CHANNEL_ID, threadId: first.id });
    const reply = await client.post(CHANNEL_ID, message('08:00'), { lands: lands('thread', first.landed) });
    expect(reply.channelId).toBe(first.id);
    expect([...fake.messages.values()].map((m) => m.channelId)).toEqual([CHANNEL_ID, first.id]);
    await client.close();
  });

  it('edits its own webhook message; a thread needs a forum channel, said in one sentence that pauses the schedule', async () => {
    const client = webhookClient(HOOK_ID);
    const first = await client.post(message('07:30'), { lands: lands('edit') });
    const edited = await client.post(message('08:00'), { lands: lands('edit', first.landed) });
    expect(edited.id).toBe(first.id);
    expect(fake.messages.get(first.id)?.edits).toBe(1);
    const err = await failureOf(client.post(message('07:30'), { lands: lands('thread') }));
    expect(err.refusal).toEqual({ platform: 'discord', code: '220003' });
    expect(err.message).toBe(
      'herald cannot post to the webhook: a Discord webhook starts a thread only in a forum channel; add the schedule in the channel itself (without to:) for thread:yes',
    );
    const forum = webhookClient(FORUM_HOOK);
    const started = await forum.post(message('07:30'), { lands: lands('thread') });
    const reply = await forum.post(message('08:00'), { lands: lands('thread', started.landed) });
    expect(reply.channelId).toBe(started.landed?.threadId);
    // A deleted thread is started again.
    fake.threads.delete(started.landed!.threadId!);
    const restarted = await forum.post(message('08:30'), { lands: lands('thread', started.landed) });
    expect(restarted.landed?.threadId).not.toBe(started.landed?.threadId);
    await Promise.all([client.close(), forum.close()]);
  });
});
