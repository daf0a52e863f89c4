// The Slack channel client's file upload, step by step against the fake Slack Web API: the bytes
// to Slack's upload_url exactly as given and without the bot token, the message, then the files
// completed into the channel; each step's refusal and 429 as a typed error; a retry that skips
// the message an earlier try posted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/reply.ts';
import { SLACK_LIMITS } from '../../src/domain/slack.ts';
import { ServiceError } from '../../src/errors.ts';
import { slackChannelMessage } from '../../src/destinations.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { createSlackChannelClient } from '../../src/services/webhook/slack-channel.ts';
import { BOT_TOKEN, MP3, startSlackFake, type SlackFake } from '../adapters/slack/fakes.ts';

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
]);
const REPLY: Reply = {
  text: 'Oslo: 3 days, 4–9 °C',
  attachments: [
    { filename: 'forecast-oslo.png', contentType: 'image/png', bytes: PNG, description: 'Oslo, 3 days' },
    { filename: 'say.mp3', contentType: 'audio/mpeg', bytes: MP3 },
  ],
};

let slack: SlackFake;
let client: ReturnType<typeof createSlackChannelClient>;
beforeAll(async () => {
  slack = await startSlackFake();
  client = createSlackChannelClient(
    { apiUrl: `${slack.server.url}/api`, botToken: BOT_TOKEN },
    { httpOptions: { retryBaseMs: 1, requestTimeoutMs: 2_000 } },
  );
});
afterAll(async () => {
  await client.close();
  await slack.server.close();
});

/** The requests from here on, and the files shared from here on. */
function watch() {
  const [mark, sharedMark] = [slack.server.requests.length, slack.shared.length];
  return {
    requests: () => slack.server.requests.slice(mark),
    paths: () => slack.server.requests.slice(mark).map((r) => r.pathname),
    shared: () => slack.shared.slice(sharedMark),
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

const recorder = () => {
  const recorded: string[] = [];
  return { recorded, progress: { record: (id: string) => Promise.resolve(void recorded.push(id)) } };
};

describe('Slack channel client: files', () => {
  it('uploads each file raw, as given and without the bot token, posts the message, then shares the files in the channel', async () => {
    const seen = watch();
    const { recorded, progress } = recorder();
    const posted = await client.post('C0GENERAL', slackChannelMessage(REPLY), { progress });
    expect(posted).toEqual({ id: '1714560000.000200', channelId: 'C0GENERAL' });
    expect(seen.paths().map((p) => p.replace(/F0AUDIO\d+/, 'F'))).toEqual([
      '/api/files.getUploadURLExternal',
      '/upload/v1/F',
      '/api/files.getUploadURLExternal',
      '/upload/v1/F',
      '/api/chat.postMessage',
      '/api/files.completeUploadExternal',
    ]);
    const tickets = seen.requests().filter((r) => r.pathname === '/api/files.getUploadURLExternal');
    expect(tickets.map((r) => Object.fromEntries(new URLSearchParams(r.body)))).toEqual([
      { filename: 'forecast-oslo.png', length: String(PNG.length), alt_txt: 'Oslo, 3 days' },
      { filename: 'say.mp3', length: String(MP3.length) },
    ]);
    const uploads = seen.requests().filter((r) => r.pathname.startsWith('/upload/v1/'));
    expect(uploads.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
    expect(uploads.map((r) => r.headers['content-type'])).toEqual(['image/png', 'audio/mpeg']);
    expect(seen.shared().map((f) => [f.title, f.channel, f.threadTs, f.bytes])).toEqual([
      ['forecast-oslo.png', 'C0GENERAL', undefined, PNG],
      ['say.mp3', 'C0GENERAL', undefined, MP3],
    ]);
    const complete = seen.requests().find((r) => r.pathname === '/api/files.completeUploadExternal');
    expect(complete?.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(recorded).toEqual(['1714560000.000200']);
  });

  it('posts a message without files in one call and records nothing', async () => {
    const seen = watch();
    const { recorded, progress } = recorder();
    await client.post('C0GENERAL', slackChannelMessage({ text: 'No chart today' }), { progress });
    expect(seen.paths()).toEqual(['/api/chat.postMessage']);
    expect(recorded).toEqual([]);
  });

  it('sends only the files when an earlier try posted the message', async () => {
    const seen = watch();
    const { recorded, progress } = recorder();
    const posted = await client.post('C0GENERAL', slackChannelMessage(REPLY), {
      progress: { ...progress, posted: '1714560000.000100' },
    });
    expect(posted.id).toBe('1714560000.000100');
    expect(seen.paths()).not.toContain('/api/chat.postMessage');
    expect(seen.shared().map((f) => f.title)).toEqual(['forecast-oslo.png', 'say.mp3']);
    expect(recorded).toEqual([]);
  });

  it('keeps alt text within the 1000 characters Slack takes', async () => {
    const seen = watch();
    const long = { ...REPLY.attachments![0]!, description: 'A chart of rain. '.repeat(100) };
    await client.post('C0GENERAL', slackChannelMessage({ text: 'Rain', attachments: [long] }));
    const ticket = seen.requests().find((r) => r.pathname === '/api/files.getUploadURLExternal');
    const alt = new URLSearchParams(ticket?.body).get('alt_txt') ?? '';
    expect(alt.length).toBeLessThanOrEqual(SLACK_LIMITS.fileAltText);
    expect(alt.endsWith('…')).toBe(true);
    expect(seen.shared()).toHaveLength(1);
  });

  it('shares no file larger than Slack takes, and says which', () => {
    const huge = { ...REPLY.attachments![1]!, filename: 'huge.mp3' };
    Object.defineProperty(huge, 'bytes', { value: { length: SLACK_LIMITS.fileBytes + 1 } });
    const rendered = renderSlack({ text: 'Big', attachments: [huge, REPLY.attachments![0]!] });
    expect(rendered.files.map((f) => f.filename)).toEqual(['forecast-oslo.png']);
    expect(JSON.stringify(rendered.blocks)).toContain('Not shared, larger than Slack takes: huge.mp3.');
  });
});

describe('Slack channel client: refusals', () => {
  it('missing files:write stops the post before anything shows, naming the scope', async () => {
    slack.scopes.delete('files:write');
    try {
      const seen = watch();
      const err = await failureOf(client.post('C0GENERAL', slackChannelMessage(REPLY)));
      expect(err).toMatchObject({ code: 'forbidden', status: 200, providerMessage: 'missing_scope' });
      expect(err.message).toBe(
        "Slack refused files.getUploadURLExternal: herald's Slack app lacks the files:write scope; add it and reinstall the app",
      );
      expect(seen.paths()).toEqual(['/api/files.getUploadURLExternal']);
    } finally {
      slack.scopes.add('files:write');
    }
  });

  it('not_in_channel at the message: forbidden, and no file is shared', async () => {
    slack.notMember.add('C0PRIVATE');
    const seen = watch();
    const err = await failureOf(client.post('C0PRIVATE', slackChannelMessage(REPLY)));
    expect(err).toMatchObject({ code: 'forbidden', operation: 'chat.postMessage' });
    expect(err.message).toBe('Slack refused chat.postMessage: herald is not in the channel; invite it');
    expect(seen.paths()).not.toContain('/api/files.completeUploadExternal');
    expect(seen.shared()).toEqual([]);
  });

  it.each([
    ['files.getUploadURLExternal', 'files.getUploadURLExternal'],
    ['upload', 'files.upload_url'],
    ['chat.postMessage', 'chat.postMessage'],
    ['files.completeUploadExternal', 'files.completeUploadExternal'],
  ])('a 429 from %s is rate_limited with its Retry-After', async (step, operation) => {
    slack.next(step, {
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '7' },
    });
    const err = await failureOf(client.post('C0GENERAL', slackChannelMessage(REPLY)));
    expect(err).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 7_000, operation });
  });

  it('refuses an upload_url that is not https, sending the bytes nowhere', async () => {
    slack.next('files.getUploadURLExternal', {
      status: 200,
      body: { ok: true, upload_url: 'http://files.example.com/upload/v1/F0EVIL', file_id: 'F0EVIL' },
    });
    const seen = watch();
    const err = await failureOf(client.post('C0GENERAL', slackChannelMessage(REPLY)));
    expect(err).toMatchObject({ code: 'bad_response', operation: 'files.getUploadURLExternal' });
    expect(seen.paths()).toEqual(['/api/files.getUploadURLExternal']);
  });

  it('an upload_url that does not answer 200 fails the post before the message', async () => {
    slack.next('upload', { status: 500, body: { error: 'upload failed' } });
    const seen = watch();
    const err = await failureOf(client.post('C0GENERAL', slackChannelMessage(REPLY)));
    expect(err).toMatchObject({ code: 'upstream', status: 500, operation: 'files.upload_url' });
    expect(seen.paths()).not.toContain('/api/chat.postMessage');
  });
});

describe('Slack channel client: who reads a channel (audience)', () => {
  it('says a private conversation is private, and finds a member on a later page of conversations.members', async () => {
    slack.privateChannels.add('C0SECRET01');
    try {
      const seen = watch();
      expect(await client.audience('C0SECRET01', { userId: 'U0ALICE' })).toEqual({
        isPrivate: true,
        isMember: true,
      });
      expect(seen.paths()).toEqual([
        '/api/conversations.info',
        '/api/conversations.members',
        '/api/conversations.members',
      ]);
      expect(await client.audience('C0GENERAL')).toEqual({ isPrivate: false });
    } finally {
      slack.privateChannels.delete('C0SECRET01');
    }
  });

  it('says a user outside the channel is no member, after its last page', async () => {
    slack.outsiders.add('U0BOB');
    try {
      expect(await client.audience('C0GENERAL', { userId: 'U0BOB' })).toEqual({
        isPrivate: false,
        isMember: false,
      });
    } finally {
      slack.outsiders.delete('U0BOB');
    }
  });

  it('refuses as Slack does: a private channel without groups:read is missing_scope, naming it', async () => {
    slack.privateChannels.add('C0SECRET02');
    slack.scopes.delete('groups:read');
    try {
      const err = await failureOf(client.audience('C0SECRET02', { userId: 'U0ALICE' }));
      expect(err).toMatchObject({ code: 'forbidden', providerMessage: 'missing_scope' });
      expect(err.message).toContain('groups:read');
    } finally {
      slack.privateChannels.delete('C0SECRET02');
      slack.scopes.add('groups:read');
    }
  });

  it('the fake refuses a page of 1000 or more, as Slack does (invalid_limit)', async () => {
    const res = await fetch(`${slack.server.url}/api/conversations.members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'channel=C0GENERAL&limit=1000',
    });
    expect(await res.json()).toEqual({ ok: false, error: 'invalid_limit' });
  });
});
