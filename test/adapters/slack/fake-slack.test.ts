// The fake Slack Web API refuses what Slack refuses: each rule of fake-slack.ts, sent the request
// Slack documents a refusal for, answers as Slack does (HTTP 200 `ok: false`, or 429 with
// Retry-After), so a herald that breaks a rule cannot pass against it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BOT_TOKEN,
  FAKE_POST_BURST,
  FAKE_TIER3_PER_MINUTE,
  startSlackFake,
  type SlackFake,
} from './fake-slack.ts';

const clock = { t: Date.parse('2026-11-29T08:00:00Z') };
let slack: SlackFake;
beforeAll(async () => {
  slack = await startSlackFake({ now: () => clock.t });
});
afterAll(() => slack.server.close());
beforeEach(() => {
  clock.t += 3_600_000;
  slack.token.state = 'ok';
});

async function call(
  method: string,
  form: Record<string, string>,
  token: string | undefined = BOT_TOKEN,
): Promise<{
  status: number;
  retryAfter: string | null;
  body: { ok: boolean; error?: string } & Record<string, unknown>;
}> {
  const res = await fetch(`${slack.server.url}/api/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as { ok: boolean; error?: string },
  };
}

const post = (channel: string, token?: string) => call('chat.postMessage', { channel, text: 'hi' }, token);

describe('fake Slack: refusals at HTTP 200', () => {
  it('no token: not_authed; a wrong one: invalid_auth', async () => {
    expect((await call('auth.test', {}, 'xoxb-not-the-token')).body).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    const res = await fetch(`${slack.server.url}/api/auth.test`, { method: 'POST' });
    expect(await res.json()).toEqual({ ok: false, error: 'not_authed' });
  });

  it('a revoked token: token_revoked; a deactivated app: account_inactive', async () => {
    slack.token.state = 'revoked';
    expect((await post('C0GENERAL')).body).toMatchObject({ ok: false, error: 'token_revoked' });
    slack.token.state = 'inactive';
    expect((await post('C0GENERAL')).body).toMatchObject({ ok: false, error: 'account_inactive' });
  });

  it('an archived channel: is_archived; a deleted one: channel_not_found; not a member: not_in_channel', async () => {
    slack.archived.add('C0OLD');
    slack.deleted.add('C0GONE');
    slack.notMember.add('C0ELSE');
    expect(await post('C0OLD')).toMatchObject({ status: 200, body: { ok: false, error: 'is_archived' } });
    expect((await post('C0GONE')).body).toMatchObject({ ok: false, error: 'channel_not_found' });
    expect((await post('C0ELSE')).body).toMatchObject({ ok: false, error: 'not_in_channel' });
    expect((await call('conversations.info', { channel: 'C0OLD' })).body).toMatchObject({
      ok: true,
      channel: { is_archived: true },
    });
  });

  it("chat.update: an unknown or deleted ts is message_not_found, another author's message cant_update_message", async () => {
    const ts = String((await post('C0BOARD')).body.ts);
    const update = (t: string) => call('chat.update', { channel: 'C0BOARD', ts: t, text: 'edited' });
    expect((await update(ts)).body).toMatchObject({ ok: true, ts });
    expect(slack.edits.get(ts)).toBe(1);
    expect((await update('1714560000.999999')).body).toMatchObject({ ok: false, error: 'message_not_found' });
    slack.foreign.add(ts);
    expect((await update(ts)).body).toMatchObject({ ok: false, error: 'cant_update_message' });
    slack.foreign.delete(ts);
    slack.posted.set('C0BOARD', []);
    expect((await update(ts)).body).toMatchObject({ ok: false, error: 'message_not_found' });
    // A reply under thread_ts is the thread's, not the channel's.
    const reply = await call('chat.postMessage', { channel: 'C0BOARD', text: 'reply', thread_ts: ts });
    expect(slack.replies.get(ts)).toEqual([reply.body.ts]);
  });

  it("a scope the token lacks: missing_scope, with Slack's needed and provided", async () => {
    slack.scopes.delete('chat:write');
    try {
      expect((await post('C0GENERAL')).body).toEqual({
        ok: false,
        error: 'missing_scope',
        needed: 'chat:write',
        provided: [...slack.scopes].join(','),
      });
      expect((await call('conversations.open', { users: 'U0ADA' })).body).toMatchObject({
        error: 'missing_scope',
        needed: 'im:write',
      });
    } finally {
      slack.scopes.add('chat:write');
    }
  });
});

describe('fake Slack: rate limits', () => {
  it('one message a second per channel: a short burst passes, then 429 with Retry-After', async () => {
    for (let i = 0; i < FAKE_POST_BURST; i++) expect((await post('C0BURST')).body.ok).toBe(true);
    const limited = await post('C0BURST');
    expect(limited).toMatchObject({
      status: 429,
      retryAfter: '1',
      body: { ok: false, error: 'ratelimited' },
    });
    // Another channel has its own pace; a second later this one takes one more.
    expect((await post('C0OTHER')).body.ok).toBe(true);
    clock.t += 1_000;
    expect((await post('C0BURST')).body.ok).toBe(true);
    expect((await post('C0BURST')).status).toBe(429);
  });

  it("chat.postMessage's workspace limit: a minute's posts across channels, then 429 with Retry-After in any channel", async () => {
    const small = await startSlackFake({ now: () => clock.t, workspacePostsPerMinute: 6 });
    try {
      const postTo = (channel: string) =>
        fetch(`${small.server.url}/api/chat.postMessage`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${BOT_TOKEN}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ channel, text: 'hello' }),
        });
      for (let i = 0; i < 6; i++) expect((await postTo(`C0WS${i}`)).status).toBe(200);
      const limited = await postTo('C0WSFRESH');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('10');
      expect(await limited.json()).toEqual({ ok: false, error: 'ratelimited' });
      // One post a minute / 6 earns one back.
      clock.t += 10_000;
      expect((await postTo('C0WSFRESH')).status).toBe(200);
      expect((await postTo('C0WSOTHER')).status).toBe(429);
    } finally {
      await small.server.close();
    }
  });

  it('conversations.info within Tier 3: 50 a minute, then 429 with Retry-After', async () => {
    for (let i = 0; i < FAKE_TIER3_PER_MINUTE; i++)
      expect((await call('conversations.info', { channel: 'C0GENERAL' })).status).toBe(200);
    const limited = await call('conversations.info', { channel: 'C0GENERAL' });
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    clock.t += 60_000;
    expect((await call('conversations.info', { channel: 'C0GENERAL' })).status).toBe(200);
  });
});

describe('fake Slack: the external upload flow', () => {
  it('completes a file only once its bytes went to its upload_url, and only once', async () => {
    const ticket = await call('files.getUploadURLExternal', { filename: 'a.png', length: '3' });
    expect(ticket.body).toMatchObject({ ok: true });
    const id = String(ticket.body.file_id);
    const complete = () =>
      call('files.completeUploadExternal', { files: JSON.stringify([{ id }]), channel_id: 'C0GENERAL' });
    expect((await complete()).body).toMatchObject({ ok: false, error: 'file_not_found' });
    const sent = await fetch(String(ticket.body.upload_url), {
      method: 'POST',
      body: new Uint8Array([1, 2, 3]),
    });
    expect(sent.status).toBe(200);
    expect((await complete()).body).toMatchObject({ ok: true });
    expect((await complete()).body).toMatchObject({ ok: false, error: 'file_not_found' });
  });

  it('refuses a ticket without a filename or length, and bytes for an upload never asked for', async () => {
    expect((await call('files.getUploadURLExternal', { filename: 'a.png' })).body).toMatchObject({
      error: 'missing_argument',
    });
    const res = await fetch(`${slack.server.url}/upload/v1/F0NEVER`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(404);
  });
});
