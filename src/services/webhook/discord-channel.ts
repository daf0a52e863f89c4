// Posts into a Discord channel with the bot's own token: Create Message,
// POST /channels/{channel.id}/messages (https://discord.com/developers/docs/resources/message#create-message),
// JSON, or multipart with `payload_json` and `files[n]` when the message has files, mentions always
// suppressed. Errors are the webhook's `{message, code}` (readWebhookError): 403 with 50001 Missing
// Access or 50013 Missing Permissions, 404 with 10003 Unknown Channel, 429 with `retry_after`.
// Sending needs View Channel and Send Messages; embeds need Embed Links and files Attach Files,
// else Discord drops them silently, so add time checks all four (the interaction's app_permissions)
// and that the bot can reach the channel at all (GET /channels/{id}: a bot not in the guild gets
// 50001 however the interaction came).
import { path } from '../../http/path.ts';
import { ServiceError } from '../../errors.ts';
import { createServiceHttp, type ClientDeps } from '../deps.ts';
import { discordCall } from './rate-limit.ts';
import { DISCORD_BOT_SCOPE } from '../../domain/rate-budget.ts';
import { CreatedMessage } from './schemas.ts';
import { discordMessageUrl } from '../../domain/discord.ts';
import { messageBody, readWebhookError, toPayload, type ChannelClient } from './client.ts';
import { z } from 'zod';

export interface DiscordChannelConfig {
  /** The REST base without the version (DISCORD_API_URL), e.g. https://discord.com/api. */
  apiUrl: string;
  token: string;
}

/** What herald needs in a channel, by Discord's permission bits. */
const NEEDED: readonly (readonly [bigint, string])[] = [
  [1n << 10n, 'View Channel'],
  [1n << 11n, 'Send Messages'],
  [1n << 14n, 'Embed Links'],
  [1n << 15n, 'Attach Files'],
];
const ADMINISTRATOR = 1n << 3n;

export const DISCORD_GRANT_SENTENCE =
  'herald needs View Channel, Send Messages, Embed Links and Attach Files in this channel; grant them to its role, or add the schedule with to:<destination>.';

/** The permissions of NEEDED that `bitfield` lacks; none when it is not a bitfield. */
export function missingDiscordPermissions(bitfield: string): string[] {
  if (!/^\d{1,30}$/.test(bitfield)) return [];
  const bits = BigInt(bitfield);
  if ((bits & ADMINISTRATOR) !== 0n) return [];
  return NEEDED.filter(([bit]) => (bits & bit) === 0n).map(([, name]) => name);
}

const ChannelAnswer = z.object({ id: z.string(), type: z.number().int().optional() });

function failure(message: string): ServiceError {
  return new ServiceError({ service: 'webhook', operation: 'post', code: 'invalid_request', message });
}

export function createDiscordChannelClient(
  config: DiscordChannelConfig,
  deps: ClientDeps = {},
): ChannelClient {
  const http = createServiceHttp(deps, {
    secrets: [config.token],
    service: 'webhook',
    baseUrl: config.apiUrl,
    headers: { authorization: `Bot ${config.token}` },
    readError: readWebhookError,
  });
  return {
    async post(channelId, message, opts) {
      if ('platform' in message) throw failure('channel.post not sent: a Slack message cannot go to Discord');
      const body = await messageBody(toPayload(message), message.files ?? []);
      const created = await http.send(
        {
          service: 'webhook',
          operation: 'post',
          method: 'POST',
          path: path`/v10/channels/${channelId}/messages`,
          ...body,
        },
        CreatedMessage,
        await discordCall(opts, deps.now ?? Date.now, deps.rateBudget, DISCORD_BOT_SCOPE),
      );
      return { id: created.id, channelId: created.channel_id ?? channelId };
    },

    async check(channelId, opts = {}) {
      const missing = opts.appPermissions === undefined ? [] : missingDiscordPermissions(opts.appPermissions);
      if (missing.length > 0) return DISCORD_GRANT_SENTENCE;
      try {
        await http.send(
          { service: 'webhook', operation: 'check', method: 'GET', path: path`/v10/channels/${channelId}` },
          ChannelAnswer,
          await discordCall(opts, deps.now ?? Date.now, deps.rateBudget, DISCORD_BOT_SCOPE),
        );
        return undefined;
      } catch (err) {
        // 50001 Missing Access (403) or 10003 Unknown Channel (404): the bot cannot see the channel.
        if (err instanceof ServiceError && (err.code === 'forbidden' || err.code === 'not_found'))
          return DISCORD_GRANT_SENTENCE;
        throw err;
      }
    },

    // A DM has no guild, and a schedule added before guilds were kept has none: no link then.
    messageLink: (ref) =>
      Promise.resolve(
        ref.guildId === undefined || ref.channelId === undefined
          ? undefined
          : discordMessageUrl(ref.guildId, ref.channelId, ref.messageId),
      ),

    close: () => http.close(),
  };
}
