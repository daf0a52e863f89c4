// The Slack channel client (@slack/web-api's WebClient) against the fake Slack Web API: the
// message, then the files through filesUploadV2 (the bytes to Slack's upload_url exactly as given,
// then completed into the channel); a retry that skips the message an earlier try posted; every
// documented refusal as a typed error carrying Slack's code; a 429 rejected at once with its
// Retry-After; the DM that tells a schedule's creator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/reply.ts';
import { SLACK_LIMITS } from '../../src/domain/slack.ts';
import { ServiceError, userMessageFor } from '../../src/errors.ts';
import { slackChannelMessage } from '../../src/destinations.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { createSlackChannelClient } from '../../src/services/webhook/slack-web-api.ts';
import { createMemoryRateBudget } from '../../src/store/rate-budget.ts';
import { webClientOptions } from '../../src/services/webhook/slack-web-client.ts';
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
/** One fake clock for the fake's rate limits and the client's pace: a wait moves it. */
const clock = { t: Date.parse('2026-11-29T08:00:00Z') };
const sleeps: number[] = [];
beforeAll(async () => {
  slack = await startSlackFake({ now: () => clock.t });
  client = createSlackChannelClient(
    { apiUrl: `${slack.server.url}/api`, botToken: BOT_TOKEN },
    {
      now: () => clock.t,
      rateBudget: createMemoryRateBudget({
        perSecond: 50,
        invalidLimit: 1_000,
        now: () => clock.t,
        sleep: (ms) => {
          sleeps.push(ms);
          clock.t += ms;
          return Promise.resolve();
        },
      }),
    },
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
  it('reads the scopes, posts the message, then uploads each file as given and shares it in the channel', async () => {
    const seen = watch();
    const { recorded, progress } = recorder();
    const posted = await client.post('C0GENERAL', slackChannelMessage(REPLY), { progress });
    expect(posted).toEqual({ id: '1714560000.000200', channelId: 'C0GENERAL' });
    const paths = seen.paths().map((p) => p.replace(/F0AUDIO\d+/, 'F'));
    expect(paths.slice(0, 2)).toEqual(['/api/auth.test', '/api/chat.postMessage']);
    expect(paths.at(-1)).toBe('/api/files.completeUploadExternal');
    expect(paths.filter((p) => p === '/upload/v1/F')).toHaveLength(2);
    const tickets = seen.requests().filter((r) => r.pathname === '/api/files.getUploadURLExternal');
    expect(tickets.map((r) => new URLSearchParams(r.body).get('filename')).sort()).toEqual([
      'forecast-oslo.png',
      'say.mp3',
    ]);
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
    // Slack's own client names it alt_text (the method's page: alt_txt); the fake takes both.
    const alt = new URLSearchParams(ticket?.body).get('alt_text') ?? '';
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
      expect(err).toMatchObject({
        code: 'forbidden',
        status: 200,
        providerMessage: 'missing_scope',
        refusal: { platform: 'slack', code: 'missing_scope', scope: 'files:write' },
      });
      expect(err.message).toBe(
        "herald's Slack app lacks the files:write scope to post in <#C0GENERAL>; add it to the app and reinstall it.",
      );
      expect(seen.paths()).toEqual(['/api/auth.test']);
    } finally {
      slack.scopes.add('files:write');
    }
  });

  it.each([
    [
      'not_in_channel',
      'forbidden',
      'herald is not a member of <#C0GENERAL>; invite it there (/invite @herald).',
    ],
    ['channel_not_found', 'not_found', 'Slack says <#C0GENERAL> no longer exists'],
    [
      'is_archived',
      'not_found',
      '<#C0GENERAL> is archived in Slack; unarchive it or choose another channel.',
    ],
    ['invalid_auth', 'unauthorized', "Slack no longer accepts herald's token for <#C0GENERAL>"],
    ['token_revoked', 'unauthorized', "Slack no longer accepts herald's token for <#C0GENERAL>"],
    ['account_inactive', 'unauthorized', "herald's Slack app is deactivated in this workspace"],
  ])(
    "%s at HTTP 200 is a refusal carrying Slack's code, in a sentence naming the channel",
    async (error, code, sentence) => {
      slack.next('chat.postMessage', {
        status: 200,
        body: { ok: false, error, warning: 'superfluous_charset' },
      });
      const seen = watch();
      const err = await failureOf(client.post('C0GENERAL', slackChannelMessage({ text: 'Oslo' })));
      expect(err).toMatchObject({ code, status: 200, refusal: { platform: 'slack', code: error } });
      expect(err.message.startsWith(sentence)).toBe(true);
      expect(userMessageFor(err)).toBe(err.message);
      expect(userMessageFor(err)).not.toMatch(/webhook service|check the input|channel:slack/);
      expect(seen.shared()).toEqual([]);
    },
  );

  it("missing_scope names the scope Slack's `needed` names", async () => {
    slack.next('chat.postMessage', {
      status: 200,
      body: { ok: false, error: 'missing_scope', needed: 'chat:write', provided: 'commands' },
    });
    const err = await failureOf(client.post('C0GENERAL', slackChannelMessage({ text: 'Oslo' })));
    expect(err.refusal).toEqual({ platform: 'slack', code: 'missing_scope', scope: 'chat:write' });
    expect(err.message).toContain('the chat:write scope');
  });

  it('an error Slack does not mean for good is no refusal (msg_too_long)', async () => {
    slack.next('chat.postMessage', { status: 200, body: { ok: false, error: 'msg_too_long' } });
    const err = await failureOf(client.post('C0GENERAL', slackChannelMessage({ text: 'Oslo' })));
    expect(err).toMatchObject({
      code: 'invalid_request',
      refusal: undefined,
      providerMessage: 'msg_too_long',
    });
  });

  it.each([
    ['chat.postMessage', 'chat.postMessage'],
    ['files.getUploadURLExternal', 'files.uploadV2'],
    ['upload', 'files.uploadV2'],
    ['files.completeUploadExternal', 'files.uploadV2'],
  ])(
    'a 429 from %s is rejected at once with its Retry-After, never retried by the client',
    async (step, operation) => {
      slack.next(step, {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': '7' },
      });
      const seen = watch();
      const err = await failureOf(client.post('C0GENERAL', slackChannelMessage(REPLY)));
      expect(err).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 7_000, operation });
      const path = step === 'upload' ? '/upload/v1/' : `/api/${step}`;
      expect(seen.paths().filter((p) => p.startsWith(path)).length).toBeLessThanOrEqual(2);
      expect(seen.paths().filter((p) => p === '/api/chat.postMessage').length).toBe(1);
    },
  );

  it('a 5xx is upstream with its status, tried once', async () => {
    slack.next('chat.postMessage', { status: 503, body: { ok: false, error: 'service_unavailable' } });
    const seen = watch();
    const err = await failureOf(client.post('C0GENERAL', slackChannelMessage({ text: 'Oslo' })));
    expect(err).toMatchObject({ code: 'upstream', status: 503 });
    expect(seen.paths()).toEqual(['/api/chat.postMessage']);
  });

  it('the WebClient is set to retry nothing and to reject 429s, at SLACK_API_URL', () => {
    expect(webClientOptions('http://127.0.0.1:1/api', undefined)).toMatchObject({
      slackApiUrl: 'http://127.0.0.1:1/api/',
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
    });
  });
});

describe("Slack channel client: a DM to a schedule's creator", () => {
  it('with im:write: conversations.open, then chat.postMessage into the DM', async () => {
    slack.scopes.add('im:write');
    try {
      const seen = watch();
      expect(await client.directMessage('U0ADA', 'Schedule k7p2mx is paused.')).toMatchObject({
        channelId: 'D0ADA',
      });
      expect(seen.paths()).toEqual(['/api/auth.test', '/api/conversations.open', '/api/chat.postMessage']);
      expect(slack.calls('conversations.open').at(-1)?.get('users')).toBe('U0ADA');
      const post = slack.calls('chat.postMessage').at(-1);
      expect(post?.get('channel')).toMatch(/^D/);
      expect(post?.get('text')).toBe('Schedule k7p2mx is paused.');
    } finally {
      slack.scopes.delete('im:write');
    }
  });

  it("without im:write: sends nothing and fails with Slack's missing_scope, naming im:write", async () => {
    const seen = watch();
    const err = await failureOf(client.directMessage('U0ADA', 'Schedule k7p2mx is paused.'));
    expect(err.refusal).toEqual({ platform: 'slack', code: 'missing_scope', scope: 'im:write' });
    expect(seen.paths()).toEqual(['/api/auth.test']);
  });
});

describe('Slack channel client: who reads a channel', () => {
  it('says whether a channel is private, and pages conversations.members to find a user', async () => {
    slack.privateChannels.add('C0SECRET');
    expect(await client.audience('C0GENERAL')).toEqual({ isPrivate: false });
    expect(await client.audience('C0SECRET', { userId: 'U0ADA' })).toEqual({
      isPrivate: true,
      isMember: true,
    });
    const pages = slack.calls('conversations.members').slice(-2);
    expect(pages.map((p) => p.get('limit'))).toEqual(['200', '200']);
    expect(pages[1]?.get('cursor')).toBe('page:200');
    slack.outsiders.add('U0EVE');
    expect(await client.audience('C0GENERAL', { userId: 'U0EVE' })).toEqual({
      isPrivate: false,
      isMember: false,
    });
  });
});

describe('Slack channel client: who reads a channel, as Slack refuses it', () => {
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
