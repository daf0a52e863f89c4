// A fake Discord on loopback for the real discord.js Client: the REST API as msw handlers on the
// shared loopback server, and a gateway WebSocket (the `ws` package, already installed by
// discord.js) speaking HELLO, IDENTIFY, READY, heartbeats and INTERACTION_CREATE dispatches.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  createInteractionWebhookClient,
  type InteractionWebhookClient,
} from '../../../src/services/webhook/discord-interaction.ts';
import { startFake, type SandboxServer } from '../../support/sandbox-server.ts';
import { MISSING_ACCESS, MISSING_PERMISSIONS, scripted, type ScriptedAnswer } from './discord-answers.ts';
import {
  createDiscordContract,
  formBodyError,
  type ContractOptions,
  type DiscordContract,
} from './contract.ts';
import { createFollowUpLimit, noteInteraction, type FollowUpLimit } from './follow-up-limit.ts';

export const APP_ID = '1187421520894746624';
export const GUILD_ID = '1187421520894746700';
export const CHANNEL_ID = '1187421520894746711';
export const USER_ID = '80351110224678912';
/** Not a real token format: any string works against the fake. */
export const BOT_TOKEN = 'loopback-test-bot-token-0001';
export const ROLE_IDS = ['1187421520894746801', '1187421520894746802'];

const BOT_USER = {
  id: APP_ID,
  username: 'herald',
  discriminator: '0000',
  global_name: null,
  avatar: null,
  bot: true,
  flags: 0,
  public_flags: 0,
};

export interface FakeFile {
  field: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface DiscordCall {
  kind:
    | 'gateway'
    | 'callback'
    | 'edit'
    | 'followup'
    | 'delete'
    | 'commands'
    | 'application'
    | 'channel'
    | 'message'
    | 'dm'
    | 'webhook'
    | 'message-edit'
    | 'thread';
  method: string;
  path: string;
  /** The interaction token or id in the path, when there is one. */
  token?: string;
  interactionId?: string;
  authorization: string | null;
  json: Record<string, unknown> | undefined;
  files: FakeFile[];
  at: number;
  /** The id of the message the fake created for a channel post. */
  created?: string;
}

async function readBody(
  request: Request,
): Promise<{ json: Record<string, unknown> | undefined; files: FakeFile[] }> {
  const type = request.headers.get('content-type') ?? '';
  const files: FakeFile[] = [];
  if (type.startsWith('multipart/form-data')) {
    let json: Record<string, unknown> | undefined;
    const form = await request.formData();
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') json = JSON.parse(value) as Record<string, unknown>;
      } else {
        files.push({
          field,
          name: value.name,
          contentType: value.type,
          bytes: new Uint8Array(await value.arrayBuffer()),
        });
      }
    }
    return { json, files };
  }
  const text = await request.text();
  return { json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>), files };
}

/** Discord's 404 for a channel that does not exist, or no longer. */
const UNKNOWN_CHANNEL = { message: 'Unknown Channel', code: 10003 };
/** Discord's 404 for a message that does not exist, or was deleted. */
const UNKNOWN_MESSAGE = { message: 'Unknown Message', code: 10008 };

/** A message the fake keeps, so that it can be edited, threaded or deleted as on Discord. */
export interface FakeMessage {
  id: string;
  channelId: string;
  /** The webhook that executed it; absent: the bot's own. */
  webhookId?: string;
  json: Record<string, unknown> | undefined;
  /** How many times it was edited. */
  edits: number;
}

/** The DM channel of a user: one per user, as Discord keeps it. */
export function dmChannelOf(userId: string): string {
  return `9${userId.slice(1)}`;
}

let nextId = 1300000000000000000n;
export function snowflake(): string {
  nextId += 1n;
  return nextId.toString();
}

function messageFrom(
  json: Record<string, unknown> | undefined,
  files: FakeFile[],
  id: string,
  channelId = CHANNEL_ID,
) {
  return {
    id,
    type: 20,
    channel_id: channelId,
    guild_id: GUILD_ID,
    author: BOT_USER,
    content: (json?.content as string | undefined) ?? '',
    embeds: json?.embeds ?? [],
    components: json?.components ?? [],
    attachments: files.map((f, i) => ({
      id: snowflake(),
      filename: f.name,
      size: f.bytes.byteLength,
      url: `https://cdn.discordapp.com/attachments/${CHANNEL_ID}/${i}/${f.name}`,
      proxy_url: `https://media.discordapp.net/attachments/${CHANNEL_ID}/${i}/${f.name}`,
      content_type: f.contentType,
    })),
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: (json?.flags as number | undefined) ?? 0,
    webhook_id: APP_ID,
    application_id: APP_ID,
    position: 0,
  };
}

export interface FakeDiscord {
  /** DISCORD_API_URL for the adapter: the REST base without the version. */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly rest: SandboxServer;
  readonly calls: DiscordCall[];
  readonly identifies: Record<string, unknown>[];
  /** Open gateway connections. */
  connections(): number;
  /** Sends the dispatch to every open session, as Discord does for every session of the shard. */
  dispatch(event: string, data: unknown): void;
  waitFor(predicate: (call: DiscordCall) => boolean, timeoutMs?: number): Promise<DiscordCall>;
  /** Channels the bot is not in: GET /channels/{id} and posts there answer 403 Missing Access. */
  readonly hiddenChannels: Set<string>;
  /**
   * Private channels: their overwrite for @everyone (the role whose id is the guild's) denies View
   * Channel, as Discord's "Private Channel" switch sets it.
   */
  readonly privateChannels: Set<string>;
  /** Channels the bot sees but may not post in: posts there answer 403 Missing Permissions (50013). */
  readonly mutedChannels: Set<string>;
  /** Channels deleted: every request about them answers 404 Unknown Channel (10003). */
  readonly deletedChannels: Set<string>;
  /** Executed webhooks (`/webhooks/{id}/{token}` of another application): id → token; others 10015. */
  readonly webhooks: Map<string, string>;
  /** Webhooks whose channel is a forum: a post there needs thread_name or thread_id. */
  readonly forumWebhooks: Set<string>;
  /** Every message posted (by the bot or a webhook), by id; delete one to delete it on "Discord". */
  readonly messages: Map<string, FakeMessage>;
  /** Threads, by id (a thread started from a message has that message's id), to their parent channel. */
  readonly threads: Map<string, string>;
  /** The rules of Discord's REST API this fake enforces (contract.ts), and what they refused. */
  readonly contract: DiscordContract;
  /** Answers for the next channel-message POSTs, in order (then: the created message). */
  readonly nextMessageAnswers: ScriptedAnswer[];
  /** Answers for the next edits of @original and follow-ups, in order (then: the message). */
  readonly nextWebhookAnswers: ScriptedAnswer[];
  /** Discord's cap on a user install's follow-ups (follow-up-limit.ts), and what it refused. */
  readonly followUps: FollowUpLimit;
  /** herald's interaction webhook client (the adapter's `webhook`) pointed at this fake; closed with it. */
  readonly webhook: InteractionWebhookClient;
  close(): Promise<void>;
}

/** What a Discord message's fields may hold: beyond them, a 50035 form body error. */
function invalidMessage(json: Record<string, unknown> | undefined): Response | undefined {
  // https://discord.com/developers/docs/resources/message#create-message (content: up to 2000
  // characters; nonce: up to 25 characters; enforce_nonce needs a nonce).
  const content = json?.content;
  if (typeof content === 'string' && content.length > 2000)
    return formBodyError('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
  const nonce = json?.nonce;
  if (typeof nonce === 'string' && nonce.length > 25)
    return formBodyError('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  if (json?.enforce_nonce === true && nonce === undefined)
    return formBodyError('nonce', 'BASE_TYPE_REQUIRED', 'This field is required');
  return undefined;
}

/**
 * What a message's buttons may be: at most 5 action rows of at most 5 buttons, each custom_id 1 to
 * 100 characters and unique in the message (https://discord.com/developers/docs/components/reference,
 * "Action Row", "Button" and "Anatomy of a Component", custom_id).
 */
export function invalidComponents(json: Record<string, unknown> | undefined): Response | undefined {
  const rows = (json?.components ?? []) as { components?: { custom_id?: string }[] }[];
  if (rows.length > 5)
    return formBodyError('components', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
  const seen = new Set<string>();
  for (const [i, row] of rows.entries()) {
    const items = row.components ?? [];
    if (items.length > 5)
      return formBodyError(
        `components.${i}.components`,
        'BASE_TYPE_MAX_LENGTH',
        'Must be 5 or fewer in length.',
      );
    for (const [j, item] of items.entries()) {
      const id = item.custom_id;
      if (id === undefined) continue;
      const field = `components.${i}.components.${j}.custom_id`;
      if (id.length < 1 || id.length > 100)
        return formBodyError(field, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      if (seen.has(id))
        return formBodyError(
          field,
          'COMPONENT_CUSTOM_ID_DUPLICATED',
          'Component custom id cannot be duplicated',
        );
      seen.add(id);
    }
  }
  return undefined;
}

/**
 * What a modal (interaction response type 9) may hold: a custom_id of 1 to 100 characters, a title
 * of at most 45, 1 to 5 action rows of one text input each
 * (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal);
 * a text input's custom_id 1 to 100, style 1 or 2, label at most 45, placeholder at most 100,
 * max_length 1 to 4000 and a value no longer (https://discord.com/developers/docs/components/reference#text-input).
 */
export function invalidModal(data: Record<string, unknown> | undefined): Response | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const bad = (field: string, message: string) =>
    formBodyError(`data.${field}`, 'BASE_TYPE_BAD_LENGTH', message);
  const customId = text(data?.custom_id);
  if (customId.length < 1 || customId.length > 100)
    return bad('custom_id', 'Must be between 1 and 100 in length.');
  const title = text(data?.title);
  if (title.length < 1 || title.length > 45) return bad('title', 'Must be between 1 and 45 in length.');
  const rows = (data?.components ?? []) as { type?: number; components?: Record<string, unknown>[] }[];
  if (rows.length < 1 || rows.length > 5) return bad('components', 'Must be between 1 and 5 in length.');
  for (const [i, row] of rows.entries()) {
    const inputs = row.components ?? [];
    if (row.type !== 1 || inputs.length !== 1)
      return bad(`components.${i}`, 'An action row of a modal holds one text input.');
    const input = inputs[0]!;
    const at = `components.${i}.components.0`;
    const id = text(input.custom_id);
    if (input.type !== 4) return bad(`${at}.type`, 'Only text inputs are allowed in a modal here.');
    if (id.length < 1 || id.length > 100)
      return bad(`${at}.custom_id`, 'Must be between 1 and 100 in length.');
    if (input.style !== 1 && input.style !== 2) return bad(`${at}.style`, 'Value must be one of (1, 2).');
    if (text(input.label).length > 45) return bad(`${at}.label`, 'Must be 45 or fewer in length.');
    if (text(input.placeholder).length > 100)
      return bad(`${at}.placeholder`, 'Must be 100 or fewer in length.');
    const max = Number(input.max_length ?? 4000);
    if (!(max >= 1 && max <= 4000)) return bad(`${at}.max_length`, 'Must be between 1 and 4000.');
    if (text(input.value).length > max) return bad(`${at}.value`, `Must be ${max} or fewer in length.`);
  }
  return undefined;
}

/** How long Discord keeps a nonce (Create Message: "a few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;

export async function startFakeDiscord(contractOptions: Partial<ContractOptions> = {}): Promise<FakeDiscord> {
  const contract = createDiscordContract({ applicationId: APP_ID, ...contractOptions });
  const { enforced } = contract;
  const now = contractOptions.now ?? Date.now;
  const mutedChannels = new Set<string>();
  const deletedChannels = new Set<string>();
  const webhooks = new Map<string, string>();
  const forumWebhooks = new Set<string>();
  const messages = new Map<string, FakeMessage>();
  const threads = new Map<string, string>();
  const keep = (call: DiscordCall, channelId: string, webhookId?: string) =>
    messages.set(call.created!, {
      id: call.created!,
      channelId,
      json: call.json,
      edits: 0,
      ...(webhookId ? { webhookId } : {}),
    });
  const nonces = new Map<string, { at: number; message: ReturnType<typeof messageFrom> }>();
  const calls: DiscordCall[] = [];
  const identifies: Record<string, unknown>[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const gatewayUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  const sockets = new Set<WebSocket>();
  const acknowledged = new Set<string>();
  const hiddenChannels = new Set<string>();
  const privateChannels = new Set<string>();
  const nextMessageAnswers: ScriptedAnswer[] = [];
  const nextWebhookAnswers: ScriptedAnswer[] = [];
  const followUps = createFollowUpLimit();
  let seq = 0;
  const botOnly = (request: Request) =>
    request.headers.get('authorization') === `Bot ${BOT_TOKEN}`
      ? undefined
      : HttpResponse.json({ message: '401: Unauthorized', code: 0 }, { status: 401 });

  const record = async (
    kind: DiscordCall['kind'],
    request: Request,
    params: Record<string, string | readonly string[] | undefined>,
  ) => {
    const { json, files } = await readBody(request);
    const call: DiscordCall = {
      kind,
      method: request.method,
      path: new URL(request.url).pathname,
      token: typeof params.token === 'string' ? params.token : undefined,
      interactionId: typeof params.id === 'string' ? params.id : undefined,
      authorization: request.headers.get('authorization'),
      json,
      files,
      at: Date.now(),
    };
    calls.push(call);
    return call;
  };

  /** A webhook this fake knows, else Discord's 404 Unknown Webhook (10015). */
  const knownWebhook = (params: Record<string, string | readonly string[] | undefined>) =>
    webhooks.get(String(params.app)) === String(params.token)
      ? undefined
      : HttpResponse.json({ message: 'Unknown Webhook', code: 10015 }, { status: 404 });
  // https://discord.com/developers/docs/resources/webhook#execute-webhook
  const executeWebhook = async (
    request: Request,
    params: Record<string, string | readonly string[] | undefined>,
  ): Promise<Response> => {
    const call = await record('webhook', request, params);
    const unknown = knownWebhook(params);
    if (unknown) return unknown;
    const invalid = invalidMessage(call.json);
    if (invalid) return invalid;
    const query = new URL(request.url).searchParams;
    const wait = query.get('wait') === 'true';
    const hook = String(params.app);
    // thread_id posts into a thread of the webhook's channel; thread_name starts one, in a forum
    // channel only (220003); a forum's post needs one of them (220001).
    // https://discord.com/developers/docs/resources/webhook#execute-webhook ("thread_name",
    // "thread_id") and https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
    const threadId = query.get('thread_id');
    const threadName = call.json?.thread_name;
    const forum = forumWebhooks.has(hook);
    if (threadId !== null && (threads.get(threadId) ?? '') !== (forum ? `forum:${hook}` : CHANNEL_ID))
      return HttpResponse.json(UNKNOWN_CHANNEL, { status: 404 });
    if (typeof threadName === 'string' && !forum)
      return HttpResponse.json(
        { message: 'Webhooks can only create threads in forum channels', code: 220003 },
        { status: 400 },
      );
    if (forum && threadId === null && typeof threadName !== 'string')
      return HttpResponse.json(
        { message: 'Webhooks posted to forum channels must have a thread_name or thread_id', code: 220001 },
        { status: 400 },
      );
    call.created = snowflake();
    let channel = threadId ?? CHANNEL_ID;
    if (typeof threadName === 'string') {
      channel = snowflake();
      threads.set(channel, `forum:${hook}`);
    }
    keep(call, channel, hook);
    const message = { ...messageFrom(call.json, call.files, call.created, channel), webhook_id: hook };
    return wait ? HttpResponse.json(message) : new HttpResponse(null, { status: 204 });
  };
  // https://discord.com/developers/docs/resources/webhook#get-webhook-with-token
  const getWebhook = async (
    request: Request,
    params: Record<string, string | readonly string[] | undefined>,
  ): Promise<Response> => {
    await record('webhook', request, params);
    return (
      knownWebhook(params) ??
      HttpResponse.json({
        id: String(params.app),
        type: 1,
        guild_id: GUILD_ID,
        channel_id: CHANNEL_ID,
        name: 'herald',
        avatar: null,
        application_id: null,
      })
    );
  };

  const rest = await startFake([
    http.get(
      '*/api/v10/gateway/bot',
      enforced(async ({ request, params }) => {
        await record('gateway', request, params);
        if (request.headers.get('authorization') !== `Bot ${BOT_TOKEN}`) {
          return HttpResponse.json({ message: '401: Unauthorized', code: 0 }, { status: 401 });
        }
        return HttpResponse.json({
          url: gatewayUrl,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        });
      }),
    ),
    http.post(
      '*/api/v10/interactions/:id/:token/callback',
      enforced(async ({ request, params }) => {
        const call = await record('callback', request, params);
        if (call.json?.type === 9) {
          const invalid = invalidModal(call.json.data as Record<string, unknown> | undefined);
          if (invalid) return invalid;
        }
        // Like Discord: an interaction takes one initial response; every later one is refused.
        const id = String(params.id);
        if (acknowledged.has(id)) {
          return HttpResponse.json(
            { message: 'Interaction has already been acknowledged.', code: 40060 },
            { status: 400 },
          );
        }
        acknowledged.add(id);
        return new HttpResponse(null, { status: 204 });
      }),
    ),
    http.patch(
      '*/api/v10/webhooks/:app/:token/messages/:message',
      enforced(async ({ request, params }) => {
        const call = await record('edit', request, params);
        const invalid = invalidComponents(call.json);
        if (invalid) return invalid;
        const answer = nextWebhookAnswers.shift();
        if (answer) return scripted(answer);
        return HttpResponse.json(messageFrom(call.json, call.files, snowflake()));
      }),
    ),
    http.delete(
      '*/api/v10/webhooks/:app/:token/messages/:message',
      enforced(async ({ request, params }) => {
        await record('delete', request, params);
        return new HttpResponse(null, { status: 204 });
      }),
    ),
    http.post(
      '*/api/v10/webhooks/:app/:token',
      enforced(async ({ request, params }) => {
        if (params.app !== APP_ID) return executeWebhook(request, params);
        const call = await record('followup', request, params);
        const invalid = invalidComponents(call.json);
        if (invalid) return invalid;
        const capped = followUps.take(String(params.token));
        if (capped) return capped;
        const answer = nextWebhookAnswers.shift();
        if (answer) return scripted(answer);
        return HttpResponse.json(messageFrom(call.json, call.files, snowflake()));
      }),
    ),
    http.get(
      '*/api/v10/channels/:channel',
      enforced(async ({ request, params }) => {
        await record('channel', request, params);
        const id = String(params.channel);
        if (deletedChannels.has(id)) return HttpResponse.json(UNKNOWN_CHANNEL, { status: 404 });
        if (hiddenChannels.has(id)) return HttpResponse.json(MISSING_ACCESS, { status: 403 });
        if (!/^\d+$/.test(id))
          return HttpResponse.json({ message: 'Unknown Channel', code: 10003 }, { status: 404 });
        return (
          botOnly(request) ??
          HttpResponse.json({
            id,
            type: 0,
            guild_id: GUILD_ID,
            name: 'general',
            position: 0,
            permission_overwrites: privateChannels.has(id)
              ? [{ id: GUILD_ID, type: 0, allow: '0', deny: '1024' }]
              : [],
            topic: null,
            nsfw: false,
            last_message_id: null,
            rate_limit_per_user: 0,
            parent_id: null,
            flags: 0,
          })
        );
      }),
    ),
    http.post(
      '*/api/v10/channels/:channel/messages',
      enforced(async ({ request, params }) => {
        const call = await record('message', request, params);
        const id = String(params.channel);
        const denied = botOnly(request);
        if (denied) return denied;
        if (deletedChannels.has(id)) return HttpResponse.json(UNKNOWN_CHANNEL, { status: 404 });
        if (hiddenChannels.has(id)) return HttpResponse.json(MISSING_ACCESS, { status: 403 });
        if (mutedChannels.has(id)) return HttpResponse.json(MISSING_PERMISSIONS, { status: 403 });
        const answer = nextMessageAnswers.shift();
        if (answer) return scripted(answer);
        const invalid = invalidMessage(call.json);
        if (invalid) return invalid;
        // With enforce_nonce, a nonce already used in the channel within minutes returns the message
        // it created, and creates none. https://discord.com/developers/docs/resources/message#create-message
        const nonce = call.json?.enforce_nonce === true ? `${id}:${String(call.json.nonce)}` : undefined;
        const earlier = nonce === undefined ? undefined : nonces.get(nonce);
        if (earlier && now() - earlier.at < NONCE_WINDOW_MS) return HttpResponse.json(earlier.message);
        call.created = snowflake();
        keep(call, id);
        const message = messageFrom(call.json, call.files, call.created, id);
        if (nonce !== undefined) nonces.set(nonce, { at: now(), message });
        return HttpResponse.json(message);
      }),
    ),
    // Edit Message: the bot edits its own messages; another author's is 50005, a deleted or unknown
    // one 10008. https://discord.com/developers/docs/resources/message#edit-message
    http.patch(
      '*/api/v10/channels/:channel/messages/:message',
      enforced(async ({ request, params }) => {
        const call = await record('message-edit', request, params);
        const denied = botOnly(request);
        if (denied) return denied;
        const kept = messages.get(String(params.message));
        if (!kept || kept.channelId !== String(params.channel))
          return HttpResponse.json(UNKNOWN_MESSAGE, { status: 404 });
        if (kept.webhookId !== undefined)
          return HttpResponse.json(
            { message: 'Cannot edit a message authored by another user', code: 50005 },
            { status: 403 },
          );
        const invalid = invalidMessage(call.json);
        if (invalid) return invalid;
        kept.json = { ...kept.json, ...call.json };
        kept.edits += 1;
        return HttpResponse.json(messageFrom(kept.json, call.files, kept.id, kept.channelId));
      }),
    ),
    // Start Thread from Message: the thread's id is the message's, so a message has one thread at
    // most (160004); `name` is 1-100 characters (50035).
    // https://discord.com/developers/docs/resources/channel#start-thread-from-message
    http.post(
      '*/api/v10/channels/:channel/messages/:message/threads',
      enforced(async ({ request, params }) => {
        const call = await record('thread', request, params);
        const denied = botOnly(request);
        if (denied) return denied;
        const channel = String(params.channel);
        const kept = messages.get(String(params.message));
        if (!kept || kept.channelId !== channel) return HttpResponse.json(UNKNOWN_MESSAGE, { status: 404 });
        const name = call.json?.name;
        if (typeof name !== 'string' || name.length < 1 || name.length > 100)
          return formBodyError('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        if (threads.has(kept.id))
          return HttpResponse.json(
            { message: 'A thread has already been created for this message', code: 160004 },
            { status: 400 },
          );
        threads.set(kept.id, channel);
        return HttpResponse.json({ id: kept.id, type: 11, guild_id: GUILD_ID, parent_id: channel, name });
      }),
    ),
    // Edit Webhook Message: only a message this webhook sent; any other is 10008 Unknown Message.
    // https://discord.com/developers/docs/resources/webhook#edit-webhook-message
    http.patch(
      '*/api/webhooks/:app/:token/messages/:message',
      enforced(async ({ request, params }) => {
        const call = await record('message-edit', request, params);
        const unknown = knownWebhook(params);
        if (unknown) return unknown;
        const kept = messages.get(String(params.message));
        if (!kept || kept.webhookId !== String(params.app))
          return HttpResponse.json(UNKNOWN_MESSAGE, { status: 404 });
        const invalid = invalidMessage(call.json);
        if (invalid) return invalid;
        kept.json = { ...kept.json, ...call.json };
        kept.edits += 1;
        return HttpResponse.json({
          ...messageFrom(kept.json, call.files, kept.id, kept.channelId),
          webhook_id: kept.webhookId,
        });
      }),
    ),
    // Create DM: the channel a bot posts to a user in. https://discord.com/developers/docs/resources/user#create-dm
    http.post(
      '*/api/v10/users/@me/channels',
      enforced(async ({ request, params }) => {
        const call = await record('dm', request, params);
        const denied = botOnly(request);
        if (denied) return denied;
        const recipient = call.json?.recipient_id;
        if (typeof recipient !== 'string')
          return formBodyError('recipient_id', 'BASE_TYPE_REQUIRED', 'This field is required');
        return HttpResponse.json({
          id: dmChannelOf(recipient),
          type: 1,
          last_message_id: null,
          flags: 0,
          recipients: [{ id: recipient, username: 'ada', global_name: 'Ada Lovelace', discriminator: '0' }],
        });
      }),
    ),
    // Execute Webhook (a destination's webhook, unversioned as a pasted webhook URL is).
    http.post(
      '*/api/webhooks/:app/:token',
      enforced(({ request, params }) => executeWebhook(request, params)),
    ),
    http.get(
      '*/api/webhooks/:app/:token',
      enforced(({ request, params }) => getWebhook(request, params)),
    ),
    http.patch(
      '*/api/v10/applications/@me',
      enforced(async ({ request, params }) => {
        const call = await record('application', request, params);
        if (request.headers.get('authorization') !== `Bot ${BOT_TOKEN}`) {
          return HttpResponse.json({ message: '401: Unauthorized', code: 0 }, { status: 401 });
        }
        const url = call.json?.interactions_endpoint_url;
        // Discord checks the URL as it saves it; an unanswering one is refused with this error.
        if (typeof url === 'string' && url.includes('unreachable')) {
          return HttpResponse.json(
            {
              message: 'Invalid Form Body',
              code: 50035,
              errors: {
                interactions_endpoint_url: {
                  _errors: [
                    {
                      code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
                      message: 'The specified interactions endpoint url could not be verified.',
                    },
                  ],
                },
              },
            },
            { status: 400 },
          );
        }
        return HttpResponse.json({
          id: APP_ID,
          name: 'herald',
          icon: null,
          description: '',
          bot_public: false,
          bot_require_code_grant: false,
          verify_key: 'a'.repeat(64),
          flags: 8_953_856,
          interactions_endpoint_url: url ?? null,
        });
      }),
    ),
    http.put(
      '*/api/v10/applications/:app/commands',
      enforced(async ({ request, params }) => {
        const call = await record('commands', request, params);
        return HttpResponse.json(savedCommands(call.json, undefined));
      }),
    ),
    http.put(
      '*/api/v10/applications/:app/guilds/:guild/commands',
      enforced(async ({ request, params }) => {
        const call = await record('commands', request, params);
        return HttpResponse.json(savedCommands(call.json, String(params.guild)));
      }),
    ),
  ]);

  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const send = (payload: unknown) => socket.send(JSON.stringify(payload));
    send({
      op: 10,
      d: { heartbeat_interval: 41_250, _trace: ['["gateway-fake",{"micros":0}]'] },
      s: null,
      t: null,
    });
    socket.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString('utf8')) as { op: number; d: Record<string, unknown> };
      if (message.op === 1) send({ op: 11, d: null, s: null, t: null });
      if (message.op === 2) {
        identifies.push(message.d);
        if (message.d.token !== BOT_TOKEN) {
          socket.close(4004, 'Authentication failed.');
          return;
        }
        send({
          op: 0,
          t: 'READY',
          s: ++seq,
          d: {
            v: 10,
            user_settings: {},
            user: { ...BOT_USER, verified: true, mfa_enabled: false, email: null },
            session_type: 'normal',
            session_id: 'f4c3d0e1a2b3c4d5e6f708192a3b4c5d',
            resume_gateway_url: gatewayUrl,
            relationships: [],
            private_channels: [],
            presences: [],
            guilds: [{ id: GUILD_ID, unavailable: true }],
            guild_join_requests: [],
            geo_ordered_rtc_regions: ['rotterdam', 'frankfurt'],
            auth: {},
            application: { id: APP_ID, flags: 8_953_856 },
            shard: [0, 1],
            _trace: ['["gateway-fake",{"micros":0}]'],
          },
        });
      }
    });
  });

  const apiUrl = `${rest.url}/api`;
  const webhook = createInteractionWebhookClient({ apiUrl, applicationId: APP_ID });
  return {
    apiUrl,
    gatewayUrl,
    rest,
    calls,
    identifies,
    hiddenChannels,
    privateChannels,
    mutedChannels,
    deletedChannels,
    webhooks,
    forumWebhooks,
    messages,
    threads,
    contract,
    nextMessageAnswers,
    nextWebhookAnswers,
    followUps,
    webhook,
    connections: () => sockets.size,
    dispatch(event, data) {
      if (event === 'INTERACTION_CREATE') noteInteraction(data as Parameters<typeof noteInteraction>[0]);
      const payload = JSON.stringify({ op: 0, t: event, s: ++seq, d: data });
      for (const socket of sockets) socket.send(payload);
    },
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = calls.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = calls.map((c) => `${c.method} ${c.kind}`).join(', ');
          throw new Error(`no matching Discord call within ${timeoutMs} ms (seen: ${seen})`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      await webhook.close();
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await rest.close();
    },
  };
}

function savedCommands(json: unknown, guildId: string | undefined) {
  const list = Array.isArray(json) ? (json as Record<string, unknown>[]) : [];
  return list.map((c) => ({
    ...c,
    id: snowflake(),
    application_id: APP_ID,
    version: snowflake(),
    default_member_permissions: null,
    nsfw: false,
    // Discord reads install types and contexts on global commands only, and echoes them back.
    integration_types: (guildId === undefined ? c.integration_types : undefined) ?? [0],
    contexts: (guildId === undefined ? c.contexts : undefined) ?? null,
    ...(guildId === undefined ? {} : { guild_id: guildId }),
  }));
}

// Interaction payloads as Discord sends them in INTERACTION_CREATE, with the usual extra fields.

const member = {
  user: {
    id: USER_ID,
    username: 'ada',
    global_name: 'Ada Lovelace',
    discriminator: '0',
    avatar: 'a_1f0e3dad99908345f7439f8ffabdffc4',
    public_flags: 64,
    primary_guild: null,
    collectibles: null,
  },
  nick: 'Ada',
  roles: ROLE_IDS,
  joined_at: '2023-11-02T09:15:11.052000+00:00',
  premium_since: null,
  deaf: false,
  mute: false,
  flags: 0,
  pending: false,
  permissions: '2248473465835073',
  communication_disabled_until: null,
  unusual_dm_activity_until: null,
  avatar: null,
  banner: null,
};

function base(type: number, token: string) {
  return {
    id: snowflake(),
    application_id: APP_ID,
    type,
    token,
    version: 1,
    guild_id: GUILD_ID,
    guild: { id: GUILD_ID, locale: 'en-US', features: ['COMMUNITY', 'NEWS'] },
    channel_id: CHANNEL_ID,
    channel: {
      id: CHANNEL_ID,
      type: 0,
      guild_id: GUILD_ID,
      name: 'general',
      topic: null,
      nsfw: false,
      position: 0,
      parent_id: null,
      permissions: '2248473465835073',
      last_message_id: null,
      rate_limit_per_user: 0,
      flags: 0,
    },
    member,
    locale: 'en-GB',
    guild_locale: 'en-US',
    app_permissions: '2248473465835073',
    entitlements: [],
    entitlement_sku_ids: [],
    authorizing_integration_owners: { '0': GUILD_ID },
    context: 0,
    attachment_size_limit: 10_485_760,
  };
}

export interface OptionValue {
  name: string;
  type: number;
  value: string | number | boolean;
  focused?: boolean;
}

export function slashCommand(opts: {
  name: string;
  subcommand?: string;
  options?: OptionValue[];
  token: string;
}) {
  const options = opts.options ?? [];
  return {
    ...base(2, opts.token),
    data: {
      id: snowflake(),
      name: opts.name,
      type: 1,
      guild_id: GUILD_ID,
      options: opts.subcommand === undefined ? options : [{ name: opts.subcommand, type: 1, options }],
    },
  };
}

export function autocomplete(opts: { name: string; options: OptionValue[]; token: string }) {
  return { ...slashCommand(opts), type: 4 };
}

export function buttonClick(opts: { customId: string; token: string; messageFlags?: number }) {
  return {
    ...base(3, opts.token),
    data: { custom_id: opts.customId, component_type: 2 },
    message: {
      ...messageFrom({ content: '', flags: opts.messageFlags ?? 0 }, [], snowflake()),
      components: [
        {
          type: 1,
          id: 1,
          components: [{ type: 2, id: 2, style: 2, label: 'Next page', custom_id: opts.customId }],
        },
      ],
      interaction_metadata: {
        id: snowflake(),
        type: 2,
        user: member.user,
        authorizing_integration_owners: {},
      },
    },
  };
}

/** A user's message as Discord carries it in a message command's `data.resolved.messages`. */
export function userMessage(content: string, extra: Record<string, unknown> = {}) {
  return {
    id: snowflake(),
    type: 0,
    channel_id: CHANNEL_ID,
    author: {
      id: '80351110224670001',
      username: 'grace',
      global_name: 'Grace Hopper',
      discriminator: '0',
      avatar: null,
      public_flags: 0,
      primary_guild: null,
      collectibles: null,
    },
    content,
    timestamp: '2026-11-29T12:00:00.000000+00:00',
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    flags: 0,
    components: [],
    ...extra,
  };
}

/**
 * A message command (type 3) on `message`: the Apps menu's "Read aloud" in a guild channel. The
 * message sits in `data.resolved.messages` under `data.target_id`.
 */
export function messageCommand(opts: { name: string; message: { id: string }; token: string }) {
  return {
    ...base(2, opts.token),
    data: {
      id: snowflake(),
      name: opts.name,
      type: 3,
      guild_id: GUILD_ID,
      target_id: opts.message.id,
      resolved: { messages: { [opts.message.id]: opts.message } },
    },
  };
}

/**
 * `interaction` as a user install sends it: no guild and no member, the invoker as `user`, the
 * DM with herald (context 1) or a DM or group DM between users (context 2), and only the user's
 * install authorising it (`authorizing_integration_owners` keyed "1").
 * https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types
 */
export function asUserInstall<T extends Record<string, unknown>>(interaction: T, context: 1 | 2 = 1) {
  const { guild_id: _g, guild: _guild, member: _m, guild_locale: _l, ...rest } = interaction;
  const channelId = context === 1 ? dmChannelOf(USER_ID) : '1187421520894749000';
  const data = rest.data as Record<string, unknown> | undefined;
  const { guild_id: _dg, ...ownData } = data ?? {};
  const installed = {
    ...rest,
    ...(data ? { data: ownData } : {}),
    user: member.user,
    channel_id: channelId,
    channel: { id: channelId, type: context === 1 ? 1 : 3, flags: 0, recipients: [member.user] },
    app_permissions: '1126967206737920',
    authorizing_integration_owners: { '1': USER_ID },
    context,
  };
  noteInteraction(installed);
  return installed;
}
/** A modal's submit as Discord sends it (type 5): each text input's value in its action row. */
export function modalSubmit(opts: { customId: string; token: string; values: Record<string, string> }) {
  return {
    ...base(5, opts.token),
    data: {
      custom_id: opts.customId,
      components: Object.entries(opts.values).map(([id, value], i) => ({
        type: 1,
        id: i * 2 + 1,
        components: [{ type: 4, id: i * 2 + 2, custom_id: id, value }],
      })),
    },
  };
}
