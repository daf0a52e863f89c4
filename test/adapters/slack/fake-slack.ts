// A fake Slack Web API on a loopback server (msw handlers) that enforces what Slack documents, each
// rule with its page beside it (fake-slack.test.ts sends what Slack refuses and sees it refused):
// auth.test, chat.postMessage / postEphemeral, users.info, conversations.info / open / members (paged by
// cursor), chat.getPermalink, the external file upload (files.getUploadURLExternal → the bytes
// POSTed to upload_url → files.completeUploadExternal), and response_url posts. Scripted answers
// (errors, 429s) replace the fake's own, once each.
import { http, HttpResponse } from 'msw';
import { startFake, type SandboxServer } from '../../support/sandbox-server.ts';

/** The bot token the fake accepts (a plainly fake value). */
export const BOT_TOKEN = 'test-bot-token-not-a-real-one';

/** An answer the fake gives instead of its own, once. */
export interface ScriptedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A file completed into a channel (files.completeUploadExternal), as Slack then shows it. */
export interface SharedFile {
  id: string;
  title: string | undefined;
  channel: string;
  threadTs: string | undefined;
  bytes: Uint8Array;
}

/** What the fake saw besides the recorded requests: uploaded bytes by file id. */
export interface SlackFake {
  /** Channels archived (`is_archived`) and deleted (`channel_not_found`). */
  archived: Set<string>;
  deleted: Set<string>;
  /** The bot token's state: revoked (`token_revoked`), its workspace or app gone (`account_inactive`). */
  token: { state: 'ok' | 'revoked' | 'inactive' };
  server: SandboxServer;
  uploads: Map<string, Uint8Array>;
  /** Files completed into a channel, in order. */
  shared: SharedFile[];
  /** The bot token's scopes: a method needing one it lacks answers missing_scope. */
  scopes: Set<string>;
  /**
   * Answers for the next calls, by Web API method (`chat.postMessage`, `files.getUploadURLExternal`,
   * `files.completeUploadExternal`) or `upload` (a POST to an upload_url), in order.
   */
  next(method: string, ...answers: ScriptedAnswer[]): void;
  responseUrl(id: string): string;
  /** The JSON bodies posted to one response_url, in order. */
  responses(id: string): Record<string, unknown>[];
  /** The arguments of each call to one Web API method (form fields, or a GET's query), in order. */
  calls(method: string): URLSearchParams[];
  /** Channels the bot was not invited to (conversations.info is_member false, posts not_in_channel). */
  notMember: Set<string>;
  /** Private channels (conversations.info is_private true; listing their members needs groups:read). */
  privateChannels: Set<string>;
  /** Users in no channel: conversations.members lists every other user, 300 fillers first. */
  outsiders: Set<string>;
  /** Answers for the next chat.postMessage calls, in order (then: the posted message). */
  nextPostAnswers: ScriptedAnswer[];
  /** The `ts` of each message chat.postMessage posted, by channel, in order; delete one to delete it. */
  posted: Map<string, string[]>;
  /** The `ts` of each reply, by the `thread_ts` it was posted under. */
  replies: Map<string, string[]>;
  /** How many times chat.update edited each message, by `ts`. */
  edits: Map<string, number>;
  /** Messages posted by someone else (a person, another app): chat.update answers cant_update_message. */
  foreign: Set<string>;
  /** The views opened and published, in order. */
  views: TakenView[];
}

/** The workspace's address, as auth.test and every permalink name it. */
export const WORKSPACE_URL = 'https://herald-test.slack.com/';

/** A message's permalink as Slack forms it: the archive address, `p` and the ts without its dot. */
export function permalinkOf(channel: string, ts: string): string {
  return `${WORKSPACE_URL}archives/${channel}/p${ts.replace('.', '')}`;
}

/**
 * The scopes of an app installed from herald's manifest before it asked for im:write (the DM to a
 * schedule's creator): tests that need the DM add it.
 */
export const GRANTED_SCOPES = ['commands', 'chat:write', 'files:write', 'channels:read', 'groups:read'];

const MIME_TYPES: Readonly<Record<string, [string, string]>> = {
  png: ['image/png', 'PNG'],
  mp3: ['audio/mpeg', 'MP3'],
};

/** A file object as files.completeUploadExternal answers with it; shares fill in later (async). */
function fileObject(id: string, title: string | undefined, name: string, size: number) {
  const ext = name.split('.').pop() ?? '';
  const [mimetype, pretty] = MIME_TYPES[ext] ?? ['application/octet-stream', 'Binary'];
  const created = 1714560000;
  return {
    id,
    created,
    timestamp: created,
    name,
    title: title ?? name,
    mimetype,
    filetype: ext,
    pretty_type: pretty,
    user: 'U0HERALDBOT',
    user_team: 'T0HERALD',
    editable: false,
    size,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: false,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: `https://files.slack.com/files-pri/T0HERALD-${id}/${name}`,
    url_private_download: `https://files.slack.com/files-pri/T0HERALD-${id}/download/${name}`,
    permalink: `https://herald-test.slack.com/files/U0HERALDBOT/${id}/${name}`,
    permalink_public: `https://slack-files.com/T0HERALD-${id}-0a1b2c3d4e`,
    comments_count: 0,
    is_starred: false,
    shares: {},
    channels: [],
    groups: [],
    ims: [],
    has_more_shares: false,
    has_rich_preview: false,
    file_access: 'visible',
  };
}

/** The workspace's people as users.info answers: a display name may be empty (Slack's default). */
const PEOPLE: Readonly<Record<string, { name: string; realName: string; displayName: string }>> = {
  U0ALICE: { name: 'alice', realName: 'Alice Liddell', displayName: 'alice' },
  U0ADA: { name: 'ada', realName: 'Ada Lovelace', displayName: '' },
};

/** chat.postMessage: one message a second per channel, a short burst tolerated (rate-limits page). */
export const FAKE_POST_BURST = 5;
/** conversations.info is Tier 3: 50+ a minute (its method page; rate-limits page's tiers). */
export const FAKE_TIER3_PER_MINUTE = 50;

/**
 * chat.postMessage's workspace-wide limit: the rate-limits page names one beside the channel's pace,
 * the method's page "several hundred messages per minute" with no number; the fake assumes this
 * many, a bucket refilled evenly over the minute.
 */
export const FAKE_WORKSPACE_POSTS_PER_MINUTE = 300;

export interface SlackFakeOptions {
  /** The fake's clock for its rate limits (ms); tests share a fake clock with herald's pace. */
  now?: () => number;
  /** chat.postMessage's workspace limit a minute (FAKE_WORKSPACE_POSTS_PER_MINUTE unless a test lowers it). */
  workspacePostsPerMinute?: number;
}

/** A 429 as Slack answers one: `Retry-After` in whole seconds (https://docs.slack.dev/apis/web-api/rate-limits). */
function rateLimited(waitMs: number) {
  return HttpResponse.json(
    { ok: false, error: 'ratelimited' },
    { status: 429, headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
  );
}

/** Slack's answer to a view it will not take: invalid_arguments, the broken rule in its messages. */
function invalidArguments(problem: string) {
  return HttpResponse.json({
    ok: false,
    error: 'invalid_arguments',
    response_metadata: { messages: [`[ERROR] ${problem}`] },
  });
}

/**
 * What Slack refuses of a view (https://docs.slack.dev/reference/views/modal-views and
 * …/views/home-tab-views): a modal's plain_text title, submit and close of at most 24 characters, a
 * submit wherever an input block is, private_metadata of at most 3000 and callback_id of at most
 * 255 characters; at most 100 blocks; an input block's label at most 2000, its plain_text_input's
 * placeholder at most 150 and max_length at most 3000 (…/block-kit/blocks/input-block,
 * …/block-elements/plain-text-input-element); block_ids unique and at most 255; a button's text at
 * most 75 and value at most 2000 (…/block-elements/button-element). views.publish takes its view as
 * JSON and a user_id (…/methods/views.publish: invalid_arguments otherwise).
 */
export function viewProblem(json: string | null, type: 'modal' | 'home'): string | undefined {
  if (json === null) return 'view is required';
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return 'invalid JSON [json-pointer:/view]';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'view must be an object';
  const view = parsed as Record<string, unknown>;
  if (view.type !== type) return `view type must be ${type}`;
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  const text = (o: unknown) => ((o as { text?: unknown } | undefined)?.text as string | undefined) ?? '';
  const blocks = (view.blocks ?? []) as Record<string, unknown>[];
  if (!Array.isArray(blocks) || blocks.length > 100)
    return 'no more than 100 items allowed [json-pointer:/view/blocks]';
  if (type === 'modal') {
    if (text(view.title) === '' || text(view.title).length > 24)
      return 'must be less than 25 characters [json-pointer:/view/title/text]';
    for (const key of ['submit', 'close'])
      if (text(view[key]).length > 24)
        return `must be less than 25 characters [json-pointer:/view/${key}/text]`;
    if (blocks.some((b) => b.type === 'input') && view.submit === undefined)
      return 'submit is required with input blocks';
  }
  if (str(view.private_metadata).length > 3000)
    return 'must be less than 3001 characters [json-pointer:/view/private_metadata]';
  if (str(view.callback_id).length > 255)
    return 'must be less than 256 characters [json-pointer:/view/callback_id]';
  const ids = new Set<string>();
  for (const [i, block] of blocks.entries()) {
    const id = block.block_id as string | undefined;
    if (id !== undefined && (id.length > 255 || ids.has(id)))
      return `invalid block_id [json-pointer:/view/blocks/${i}/block_id]`;
    if (id !== undefined) ids.add(id);
    if (block.type === 'input') {
      const element = (block.element ?? {}) as Record<string, unknown>;
      if (text(block.label) === '' || text(block.label).length > 2000)
        return `invalid label [json-pointer:/view/blocks/${i}/label]`;
      if (text(element.placeholder).length > 150)
        return `must be less than 151 characters [json-pointer:/view/blocks/${i}/element/placeholder/text]`;
      if (Number(element.max_length ?? 3000) > 3000)
        return `must be at most 3000 [json-pointer:/view/blocks/${i}/element/max_length]`;
    }
    for (const element of (block.elements ?? []) as Record<string, unknown>[]) {
      if (element.type !== 'button') continue;
      if (text(element.text).length > 75 || str(element.value).length > 2000)
        return `invalid button [json-pointer:/view/blocks/${i}]`;
    }
  }
  return undefined;
}

/** A view the fake took: views.open's modal (with its trigger_id) or views.publish's Home tab (for a user). */
export interface TakenView {
  method: 'views.open' | 'views.publish';
  view: Record<string, unknown>;
  trigger?: string;
  user?: string;
}

export async function startSlackFake(opts: SlackFakeOptions = {}): Promise<SlackFake> {
  const views: TakenView[] = [];
  const exchanged = new Set<string>();
  const now = opts.now ?? Date.now;
  const archived = new Set<string>();
  const privateChannels = new Set<string>();
  const outsiders = new Set<string>();
  const deleted = new Set<string>();
  const token: SlackFake['token'] = { state: 'ok' };
  /** Per channel: when its post bucket is full again (one post spends one second). */
  const postBucket = new Map<string, number>();
  /** conversations.info calls in the last minute, by time. */
  const infoCalls: number[] = [];
  // Every Web API method takes the token as Bearer; a missing one is not_authed, a wrong one
  // invalid_auth, a revoked one token_revoked, a deactivated app's account_inactive, all at HTTP 200
  // (https://docs.slack.dev/authentication/tokens, each method's "Errors").
  const authRefusal = (request: Request) => {
    const auth = request.headers.get('authorization');
    if (auth === null) return HttpResponse.json({ ok: false, error: 'not_authed' });
    if (auth !== `Bearer ${BOT_TOKEN}`) return HttpResponse.json({ ok: false, error: 'invalid_auth' });
    if (token.state === 'revoked') return HttpResponse.json({ ok: false, error: 'token_revoked' });
    if (token.state === 'inactive') return HttpResponse.json({ ok: false, error: 'account_inactive' });
    return undefined;
  };
  // The channel itself: a deleted one is channel_not_found, an archived one is_archived
  // (https://docs.slack.dev/reference/methods/chat.postMessage#errors).
  const channelRefusal = (channel: string) => {
    if (deleted.has(channel) || channel === '')
      return HttpResponse.json({ ok: false, error: 'channel_not_found' });
    if (archived.has(channel)) return HttpResponse.json({ ok: false, error: 'is_archived' });
    return undefined;
  };
  // "chat.postMessage generally allows posting one message per second per channel", with short
  // bursts (https://docs.slack.dev/apis/web-api/rate-limits): a bucket of FAKE_POST_BURST a channel,
  // one more each second, and past it a 429 with Retry-After.
  // Beside it the workspace's limit (the same page; "several hundred messages per minute" on
  // https://docs.slack.dev/reference/methods/chat.postMessage): a bucket of a minute's posts,
  // earning one back every 60 s / limit. Either way Slack's 429 does not say which ran out.
  const perMinute = opts.workspacePostsPerMinute ?? FAKE_WORKSPACE_POSTS_PER_MINUTE;
  const workspaceInterval = 60_000 / perMinute;
  let workspaceFullAt = 0;
  const paceRefusal = (channel: string) => {
    const t = now();
    const next = Math.max(postBucket.get(channel) ?? t, t) + 1_000;
    const overMs = next - t - FAKE_POST_BURST * 1_000;
    if (overMs > 0) return rateLimited(overMs);
    const workspaceNext = Math.max(workspaceFullAt, t) + workspaceInterval;
    const workspaceOverMs = workspaceNext - t - perMinute * workspaceInterval;
    if (workspaceOverMs > 0) return rateLimited(workspaceOverMs);
    postBucket.set(channel, next);
    workspaceFullAt = workspaceNext;
    return undefined;
  };
  // Tier 3 (https://docs.slack.dev/reference/methods/conversations.info): 50 a minute, then 429s.
  const tierRefusal = () => {
    const t = now();
    while (infoCalls.length > 0 && infoCalls[0]! <= t - 60_000) infoCalls.shift();
    if (infoCalls.length >= FAKE_TIER3_PER_MINUTE) return rateLimited(infoCalls[0]! + 60_000 - t);
    infoCalls.push(t);
    return undefined;
  };
  const uploads = new Map<string, Uint8Array>();
  const notMember = new Set<string>();
  const shared: SharedFile[] = [];
  const scopes = new Set(GRANTED_SCOPES);
  const scripted = new Map<string, ScriptedAnswer[]>();
  const nextPostAnswers: ScriptedAnswer[] = [];
  scripted.set('chat.postMessage', nextPostAnswers);
  /** What getUploadURLExternal was told of each file id. */
  const tickets = new Map<string, { filename: string; length: number }>();
  const completed = new Set<string>();
  const scriptedAnswer = (method: string) => {
    const answer = scripted.get(method)?.shift();
    return answer
      ? HttpResponse.json(answer.body as Record<string, unknown>, {
          status: answer.status,
          ...(answer.headers ? { headers: answer.headers } : {}),
        })
      : undefined;
  };
  const lacking = (scope: string) =>
    scopes.has(scope)
      ? undefined
      : HttpResponse.json({
          ok: false,
          error: 'missing_scope',
          needed: scope,
          provided: [...scopes].join(','),
        });
  const posted = new Map<string, string[]>();
  const replies = new Map<string, string[]>();
  const edits = new Map<string, number>();
  const foreign = new Set<string>();
  let postCount = 0;
  let fileCount = 0;
  const server = await startFake([
    // Every Web API answer lists the token's scopes in x-oauth-scopes
    // (https://docs.slack.dev/authentication/tokens#scopes); herald reads them from auth.test.
    http.post(
      '*/api/auth.test',
      ({ request }) =>
        authRefusal(request) ??
        HttpResponse.json(
          {
            ok: true,
            url: WORKSPACE_URL,
            team: 'Herald Test',
            user: 'herald',
            team_id: 'T0HERALD',
            user_id: 'U0HERALDBOT',
            bot_id: 'B0HERALDBOT',
            is_enterprise_install: false,
          },
          { headers: { 'x-oauth-scopes': [...scopes].join(',') } },
        ),
    ),
    http.post('*/api/files.getUploadURLExternal', async ({ request }) => {
      const refusal =
        scriptedAnswer('files.getUploadURLExternal') ?? authRefusal(request) ?? lacking('files:write');
      if (refusal) return refusal;
      const form = new URLSearchParams(await request.text());
      const filename = form.get('filename') ?? '';
      const length = Number(form.get('length') ?? '0');
      if (filename === '' || !Number.isInteger(length) || length <= 0)
        return HttpResponse.json({ ok: false, error: 'missing_argument' });
      // The method's page names it alt_txt; Slack's own client sends alt_text: both are read.
      if ((form.get('alt_txt') ?? form.get('alt_text') ?? '').length > 1000)
        return HttpResponse.json({ ok: false, error: 'alt_txt_too_large' });
      fileCount += 1;
      const id = `F0AUDIO${fileCount}`;
      tickets.set(id, { filename, length });
      const origin = new URL(request.url).origin;
      return HttpResponse.json({ ok: true, upload_url: `${origin}/upload/v1/${id}`, file_id: id });
    }),
    // Slack takes the bytes raw or as a multipart form, and says 200 when it has them.
    http.post('*/upload/v1/:id', async ({ request, params }) => {
      const refusal = scriptedAnswer('upload');
      if (refusal) return refusal;
      const id = String(params.id);
      if (!tickets.has(id)) return new HttpResponse('not found', { status: 404 });
      let bytes: Uint8Array;
      if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
        const form = await request.formData();
        const file = [...form.values()].find((v): v is File => typeof v !== 'string');
        if (!file) return new HttpResponse('no file', { status: 400 });
        bytes = new Uint8Array(await file.arrayBuffer());
      } else {
        bytes = new Uint8Array(await request.arrayBuffer());
      }
      uploads.set(id, bytes);
      return new HttpResponse(`OK - ${bytes.length}`, {
        status: 200,
        headers: { 'content-type': 'text/plain' },
      });
    }),
    http.post('*/api/files.completeUploadExternal', async ({ request }) => {
      const refusal =
        scriptedAnswer('files.completeUploadExternal') ?? authRefusal(request) ?? lacking('files:write');
      if (refusal) return refusal;
      const form = new URLSearchParams(await request.text());
      const files = JSON.parse(form.get('files') ?? '[]') as { id: string; title?: string }[];
      const channel = form.get('channel_id') ?? undefined;
      const gone = channel === undefined ? undefined : channelRefusal(channel);
      if (gone) return gone;
      if (channel !== undefined && notMember.has(channel))
        return HttpResponse.json({ ok: false, error: 'not_in_channel' });
      // Each upload is completed once, and only once its bytes arrived.
      if (files.length === 0 || files.some((f) => !uploads.has(f.id) || completed.has(f.id)))
        return HttpResponse.json({ ok: false, error: 'file_not_found' });
      for (const f of files) {
        completed.add(f.id);
        if (channel !== undefined)
          shared.push({
            id: f.id,
            title: f.title,
            channel,
            threadTs: form.get('thread_ts') ?? undefined,
            bytes: uploads.get(f.id)!,
          });
      }
      return HttpResponse.json({
        ok: true,
        files: files.map((f) =>
          fileObject(f.id, f.title, tickets.get(f.id)?.filename ?? 'file', uploads.get(f.id)!.length),
        ),
        response_metadata: { warnings: [] },
      });
    }),
    http.post('*/api/conversations.info', async ({ request }) => {
      const refusal = authRefusal(request) ?? tierRefusal();
      if (refusal) return refusal;
      const id = new URLSearchParams(await request.text()).get('channel') ?? '';
      if (!id.startsWith('C') || deleted.has(id))
        return HttpResponse.json({ ok: false, error: 'channel_not_found' });
      return HttpResponse.json({
        ok: true,
        channel: {
          id,
          name: 'general',
          is_channel: true,
          is_group: false,
          is_im: false,
          is_mpim: false,
          is_private: privateChannels.has(id),
          created: 1714000000,
          is_archived: archived.has(id),
          is_general: true,
          is_shared: false,
          is_org_shared: false,
          is_member: !notMember.has(id),
          topic: { value: '', creator: '', last_set: 0 },
          purpose: { value: '', creator: '', last_set: 0 },
          previous_names: [],
        },
      });
    }),
    http.post('*/api/chat.postMessage', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const channel = form.get('channel') ?? '';
      const refused = authRefusal(request) ?? lacking('chat:write') ?? channelRefusal(channel);
      if (refused) return refused;
      if (notMember.has(channel)) return HttpResponse.json({ ok: false, error: 'not_in_channel' });
      const answer = scriptedAnswer('chat.postMessage') ?? paceRefusal(channel);
      if (answer) return answer;
      // Each message its own ts, as in Slack: seconds, a dot and six digits.
      const ts = `1714560000.${String(200 + postCount++).padStart(6, '0')}`;
      const parent = form.get('thread_ts');
      if (parent === null) posted.set(channel, [...(posted.get(channel) ?? []), ts]);
      else replies.set(parent, [...(replies.get(parent) ?? []), ts]);
      return HttpResponse.json({
        ok: true,
        channel,
        ts,
        message: { type: 'message', subtype: 'bot_message', text: form.get('text'), bot_id: 'B0HERALDBOT' },
      });
    }),
    // chat.update edits a message by its channel and ts, with chat:write: an unknown (or deleted) ts is
    // message_not_found, another author's message cant_update_message
    // (https://docs.slack.dev/reference/methods/chat.update#errors).
    http.post('*/api/chat.update', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const channel = form.get('channel') ?? '';
      const refused = authRefusal(request) ?? lacking('chat:write') ?? channelRefusal(channel);
      if (refused) return refused;
      const answer = scriptedAnswer('chat.update');
      if (answer) return answer;
      const ts = form.get('ts') ?? '';
      if (foreign.has(ts)) return HttpResponse.json({ ok: false, error: 'cant_update_message' });
      if (!(posted.get(channel) ?? []).includes(ts))
        return HttpResponse.json({ ok: false, error: 'message_not_found' });
      edits.set(ts, (edits.get(ts) ?? 0) + 1);
      return HttpResponse.json({ ok: true, channel, ts, text: form.get('text') });
    }),
    // chat.getPermalink: GET with query arguments or POST with a form, as every Web API method
    // (https://docs.slack.dev/apis/web-api/#basics), the bot token as Bearer.
    http.all('*/api/chat.getPermalink', async ({ request }) => {
      if (request.headers.get('authorization') !== `Bearer ${BOT_TOKEN}`)
        return HttpResponse.json({ ok: false, error: 'invalid_auth' });
      const query =
        request.method === 'GET'
          ? new URL(request.url).searchParams
          : new URLSearchParams(await request.text());
      const channel = query.get('channel') ?? '';
      const ts = query.get('message_ts') ?? '';
      if (!channel.startsWith('C')) return HttpResponse.json({ ok: false, error: 'channel_not_found' });
      if (!(posted.get(channel) ?? []).includes(ts))
        return HttpResponse.json({ ok: false, error: 'message_not_found' });
      return HttpResponse.json({ ok: true, channel, permalink: permalinkOf(channel, ts) });
    }),
    // conversations.members: a `limit` under 1000, the next page's cursor ('' after the last)
    // (https://docs.slack.dev/reference/methods/conversations.members); a private channel's need groups:read.
    http.post('*/api/conversations.members', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const id = form.get('channel') ?? '';
      const refused =
        authRefusal(request) ?? lacking(privateChannels.has(id) ? 'groups:read' : 'channels:read');
      if (refused) return refused;
      if (!id.startsWith('C') || deleted.has(id))
        return HttpResponse.json({ ok: false, error: 'channel_not_found' });
      const limit = Number(form.get('limit') ?? 100);
      if (!(limit > 0 && limit < 1000)) return HttpResponse.json({ ok: false, error: 'invalid_limit' });
      const fillers = Array.from({ length: 300 }, (_, i) => `U0FILL${String(i).padStart(4, '0')}`);
      const everyone = [...fillers, 'U0BOTHERALD', 'U0ALICE', 'U0ADA', 'U0BOB', 'UALLOWED01'].filter(
        (u) => !outsiders.has(u),
      );
      const start = Number(form.get('cursor')?.replace('page:', '') ?? 0);
      const next = start + limit < everyone.length ? `page:${start + limit}` : '';
      return HttpResponse.json({
        ok: true,
        members: everyone.slice(start, start + limit),
        response_metadata: { next_cursor: next },
      });
    }),
    // users.info needs users:read; an id it does not know is user_not_found
    // (https://docs.slack.dev/reference/methods/users.info). Tier 4.
    http.post('*/api/users.info', async ({ request }) => {
      const refusal = authRefusal(request) ?? lacking('users:read');
      if (refusal) return refusal;
      const id = new URLSearchParams(await request.text()).get('user') ?? '';
      const person = PEOPLE[id];
      if (!person) return HttpResponse.json({ ok: false, error: 'user_not_found' });
      return HttpResponse.json({
        ok: true,
        user: {
          id,
          team_id: 'T0HERALD',
          name: person.name,
          deleted: false,
          real_name: person.realName,
          tz: 'Europe/London',
          is_bot: false,
          profile: {
            real_name: person.realName,
            display_name: person.displayName,
            real_name_normalized: person.realName,
            display_name_normalized: person.displayName,
            team: 'T0HERALD',
          },
        },
      });
    }),
    // conversations.open with a user opens (or finds) the app's DM with them; it needs im:write
    // (https://docs.slack.dev/reference/methods/conversations.open).
    http.post('*/api/conversations.open', async ({ request }) => {
      const refusal = authRefusal(request) ?? lacking('im:write');
      if (refusal) return refusal;
      const user = new URLSearchParams(await request.text()).get('users') ?? '';
      if (!/^[UW][A-Z0-9]+$/.test(user)) return HttpResponse.json({ ok: false, error: 'user_not_found' });
      return HttpResponse.json({ ok: true, channel: { id: `D${user.slice(1)}` } });
    }),
    // views.open: a trigger_id opens one view, within 3 s of the interaction that gave it
    // (https://docs.slack.dev/reference/methods/views.open: exchanged_trigger_id, expired_trigger_id);
    // the modal's own limits are viewProblem's.
    http.post('*/api/views.open', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const refused = authRefusal(request);
      if (refused) return refused;
      const trigger = form.get('trigger_id') ?? '';
      if (trigger === '') return HttpResponse.json({ ok: false, error: 'invalid_arguments' });
      if (exchanged.has(trigger)) return HttpResponse.json({ ok: false, error: 'exchanged_trigger_id' });
      const problem = viewProblem(form.get('view'), 'modal');
      if (problem) return invalidArguments(problem);
      exchanged.add(trigger);
      const view = JSON.parse(form.get('view')!) as Record<string, unknown>;
      views.push({ method: 'views.open', view, trigger });
      return HttpResponse.json({
        ok: true,
        view: { id: `V0FORM${views.length}`, ...view, state: { values: {} } },
      });
    }),
    // views.publish: a user's Home tab, a view of type home (https://docs.slack.dev/reference/methods/views.publish).
    http.post('*/api/views.publish', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const refused = authRefusal(request);
      if (refused) return refused;
      const user = form.get('user_id') ?? '';
      if (!/^[UW][A-Z0-9]+$/.test(user)) return HttpResponse.json({ ok: false, error: 'invalid_arguments' });
      const problem = viewProblem(form.get('view'), 'home');
      if (problem) return invalidArguments(problem);
      const view = JSON.parse(form.get('view')!) as Record<string, unknown>;
      views.push({ method: 'views.publish', view, user });
      return HttpResponse.json({ ok: true, view: { id: `V0HOME${views.length}`, ...view } });
    }),
    http.post('*/api/chat.postEphemeral', () =>
      HttpResponse.json({ ok: true, message_ts: '1714560000.000300' }),
    ),
    http.post('*/respond/:id', () => HttpResponse.json({ ok: true })),
  ]);
  return {
    server,
    archived,
    deleted,
    privateChannels,
    outsiders,
    token,
    uploads,
    shared,
    scopes,
    next: (method, ...answers) => {
      const queue = scripted.get(method) ?? [];
      queue.push(...answers);
      scripted.set(method, queue);
    },
    notMember,
    nextPostAnswers,
    posted,
    replies,
    edits,
    foreign,
    views,
    responseUrl: (id) => `${server.url}/respond/${id}`,
    responses: (id) =>
      server.requests
        .filter((r) => r.pathname === `/respond/${id}`)
        .map((r) => JSON.parse(r.body) as Record<string, unknown>),
    calls: (method) =>
      server.requests
        .filter((r) => r.pathname === `/api/${method}`)
        .map((r) => (r.method === 'GET' ? r.query : new URLSearchParams(r.body))),
  };
}
