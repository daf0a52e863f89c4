// The schedules bench's Slack Web API (schedules.ts): chat.postMessage on loopback, answering after
// LATENCY_MS as https://docs.slack.dev/reference/methods/chat.postMessage does, each accepted post
// kept. It enforces, each decided when the request arrives:
// - the bot token, as a Bearer header or the `token` field: none is `not_authed`, another is
//   `invalid_auth`; a post with no channel is `channel_not_found`, one with neither text nor blocks
//   `no_text`, blocks that are not JSON `invalid_blocks`; all of them `ok: false` at HTTP 200 (the
//   method's "Errors");
// - each channel's pace: "chat.postMessage generally allows posting one message per second per
//   channel", short bursts over it tolerated (https://docs.slack.dev/apis/web-api/rate-limits).
//   Slack names no burst size: the fake assumes CHANNEL_BURST at once, then one a second;
// - the workspace's: Slack keeps "a workspace-wide limit" beside it (the same page), of "several
//   hundred messages per minute" (the chat.postMessage page). Slack names no number: the fake
//   assumes WORKSPACE_PER_MINUTE, a bucket of that many refilled evenly over the minute.
// Past either: HTTP 429 with Retry-After in whole seconds and `{ok: false, error: "ratelimited"}`
// (rate-limits page), not posted. Slack's 429 does not say which limit it is. The fake counts each
// 429, and each post that did not wait out a Retry-After whose answer had left it (LATENCY_MS after
// the 429's request came): to the same channel (`early`), or to any channel while a workspace
// 429's runs (`earlyInWorkspace`). A post that came inside a Retry-After before its answer had
// left was sent before herald could know of it: counted apart (`crossed`).
import type { IncomingHttpHeaders } from 'node:http';
import { LATENCY_MS, slowServer, type Answer } from './schedule-fakes.ts';

export { LATENCY_MS };
/** The bot token the fake accepts (a plainly fake value). */
export const SLACK_BOT_TOKEN = 'bench-bot-token-not-a-real-one';
/** Posts one channel may take at once before one a second applies (an assumption: Slack names none). */
export const CHANNEL_BURST = 3;
/** One post a second per channel. */
const CHANNEL_INTERVAL_MS = 1_000;
/** The workspace's posts a minute (an assumption within Slack's "several hundred"). */
export const WORKSPACE_PER_MINUTE = 300;

export interface SlackPost {
  at: number;
  channel: string;
  text: string;
}

/** What the fake refused, and the posts that came before a Retry-After they were given had passed. */
export interface SlackRefusals {
  channel: number;
  workspace: number;
  early: number;
  earlyInWorkspace: number;
  crossed: number;
}

/** A Retry-After given: from when its answer left (wall clock), until when it runs (the limits' clock). */
interface Given {
  toldAt: number;
  until: number;
}

/** Whether a post at `t` (wall clock `wall`) breaks one of `given` (`early`), or crossed one on the wire. */
function against(given: Given[], wall: number, t: number): 'early' | 'crossed' | undefined {
  const running = given.filter((g) => t < g.until);
  given.splice(0, given.length, ...running);
  if (running.some((g) => g.toldAt <= wall)) return 'early';
  return running.length > 0 ? 'crossed' : undefined;
}

/**
 * A bucket of `size` posts earning one back every `intervalMs`, kept as the time it is full again:
 * `wait(t)` says how long until it has one (0: now), `take(t)` spends one.
 */
function bucket(size: number, intervalMs: number) {
  let fullAt = 0;
  const after = (t: number) => Math.max(fullAt, t) + intervalMs;
  return {
    wait: (t: number) => Math.max(0, after(t) - t - size * intervalMs),
    take: (t: number) => void (fullAt = after(t)),
  };
}

/** Slack's 429: Retry-After in whole seconds, at least one. */
function rateLimited(waitMs: number): { answer: Answer; seconds: number } {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    seconds,
    answer: {
      status: 429,
      headers: { 'retry-after': String(seconds) },
      body: JSON.stringify({ ok: false, error: 'ratelimited' }),
    },
  };
}

const refused = (error: string): Answer => ({
  status: 200,
  headers: {},
  body: JSON.stringify({ ok: false, error }),
});

/** A request's fields: the WebClient sends a form; JSON is read too, as Slack reads both. */
function fieldsOf(body: string, headers: IncomingHttpHeaders): Record<string, string> {
  if (headers['content-type']?.startsWith('application/json') === true) {
    const parsed = JSON.parse(body || '{}') as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  }
  return Object.fromEntries(new URLSearchParams(body));
}

/** The posted message as chat.postMessage answers with it, with the fields Slack adds. */
function postedAnswer(channel: string, ts: string, text: string, blocks: unknown): Answer {
  const message = {
    type: 'message',
    subtype: 'bot_message',
    text,
    ts,
    user: 'U0BENCHBOT',
    bot_id: 'B0BENCHBOT',
    app_id: 'A0BENCHAPP',
    team: 'T0BENCH',
    blocks,
    bot_profile: { id: 'B0BENCHBOT', name: 'herald', app_id: 'A0BENCHAPP', deleted: false },
  };
  return {
    status: 200,
    headers: { 'x-oauth-scopes': 'chat:write,files:write', 'x-accepted-oauth-scopes': 'chat:write' },
    body: JSON.stringify({ ok: true, channel, ts, message, response_metadata: { warnings: [] } }),
  };
}

/**
 * Slack's Web API for one workspace; the WebClient's address is `${server.url}/api`. `now` is the
 * clock its limits count by (ms); the fake's test holds it still.
 */
export async function slackWebApiFake(opts: { now?: () => number } = {}) {
  const now = opts.now ?? (() => performance.now());
  const posts: SlackPost[] = [];
  const limited: SlackRefusals = { channel: 0, workspace: 0, early: 0, earlyInWorkspace: 0, crossed: 0 };
  const channels = new Map<string, ReturnType<typeof bucket>>();
  const workspace = bucket(WORKSPACE_PER_MINUTE, 60_000 / WORKSPACE_PER_MINUTE);
  /** The Retry-Afters given: per channel, and the workspace's. */
  const givenTo = new Map<string, Given[]>();
  const givenToWorkspace: Given[] = [];
  let n = 0;
  const server = await slowServer((body, url, headers) => {
    if (url.split('?')[0] !== '/api/chat.postMessage')
      return { status: 404, headers: {}, body: JSON.stringify({ ok: false, error: 'unknown_method' }) };
    let fields: Record<string, string>;
    let blocks: unknown;
    try {
      fields = fieldsOf(body, headers);
      blocks = fields.blocks === undefined ? [] : (JSON.parse(fields.blocks) as unknown);
    } catch {
      return refused('invalid_blocks');
    }
    const token = headers.authorization?.replace(/^Bearer /, '') ?? fields.token;
    if (token === undefined) return refused('not_authed');
    if (token !== SLACK_BOT_TOKEN) return refused('invalid_auth');
    const channel = fields.channel ?? '';
    if (channel === '') return refused('channel_not_found');
    if (!fields.text && !fields.blocks) return refused('no_text');
    const t = now();
    const wall = performance.now();
    const own = givenTo.get(channel) ?? [];
    givenTo.set(channel, own);
    const inChannel = against(own, wall, t);
    const inWorkspace = against(givenToWorkspace, wall, t);
    if (inChannel === 'early') limited.early++;
    if (inWorkspace === 'early') limited.earlyInWorkspace++;
    if ((inChannel ?? inWorkspace) === 'crossed' && inChannel !== 'early' && inWorkspace !== 'early')
      limited.crossed++;
    const pace = channels.get(channel) ?? bucket(CHANNEL_BURST, CHANNEL_INTERVAL_MS);
    channels.set(channel, pace);
    const channelWait = pace.wait(t);
    const workspaceWait = workspace.wait(t);
    if (channelWait > 0 || workspaceWait > 0) {
      const { answer, seconds } = rateLimited(Math.max(channelWait, workspaceWait));
      const given = { toldAt: wall + LATENCY_MS, until: t + seconds * 1000 };
      own.push(given);
      if (workspaceWait > 0) {
        limited.workspace++;
        givenToWorkspace.push(given);
      } else limited.channel++;
      return answer;
    }
    pace.take(t);
    workspace.take(t);
    posts.push({ at: t, channel, text: fields.text ?? '' });
    const ts = `${1_764_400_000 + Math.floor(++n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
    return postedAnswer(channel, ts, fields.text ?? '', blocks);
  });
  return { server, posts, limited };
}

export type SlackWebApiFake = Awaited<ReturnType<typeof slackWebApiFake>>;
