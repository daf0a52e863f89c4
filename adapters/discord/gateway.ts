// Gateway mode: a discord.js client holds the gateway session and hands herald each raw
// INTERACTION_CREATE packet (its WebSocket manager forwards the raw dispatch events), so that both
// modes read the same interaction JSON (interaction.ts). The first answers are POSTed to the
// interaction's callback through the client's REST, without the bot token, as Discord documents.
// https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response
import { once } from 'node:events';
import { Client, Events, GatewayDispatchEvents, Routes, type APIInteraction } from 'discord.js';
import type { DiscordConfig } from '../../src/config/index.ts';
import type { CommandLog } from '../../src/core/command.ts';
import { NO_MENTIONS } from '../../src/domain/discord.ts';
import { redactText } from '../../src/redact.ts';
import { createFirstAnswers } from './first-answers.ts';
import { discordError, safeError, type FirstAnswers } from './respond.ts';

export interface Gateway {
  answers: FirstAnswers;
  isReady(): boolean;
  /** The bot user's id once READY. */
  userId(): string | undefined;
  stop(): Promise<void>;
}

function openClient(
  config: DiscordConfig,
  log: CommandLog,
  onPacket: (packet: APIInteraction) => void,
): Client {
  const client = new Client({
    // Interactions arrive without any gateway intent, so herald asks for none (no privileged ones).
    intents: [],
    allowedMentions: NO_MENTIONS,
    rest: {
      ...(config.apiUrl === undefined ? {} : { api: config.apiUrl }),
      // Almost every request this client makes is an interaction's first answer, which Discord
      // exempts from the bot's global 50 a second; discord.js counts them all against it. A real
      // global limit still answers 429 with X-RateLimit-Global, which discord.js waits out.
      globalRequestsPerSecond: 1_000,
    },
  });
  client.ws.on(GatewayDispatchEvents.InteractionCreate, onPacket);
  client.on(Events.Error, (err) => log.error({ err: safeError(err, config.token) }, 'discord.error'));
  client.on(Events.Warn, (message) =>
    log.warn({ message: redactText(message, [config.token]) }, 'discord.warn'),
  );
  client.on(Events.ShardDisconnect, (event, shardId) =>
    log.warn({ code: event.code, shardId }, 'discord.disconnected'),
  );
  client.on(Events.ShardResume, (shardId) => log.info({ shardId }, 'discord.resumed'));
  return client;
}

/** Logs in and waits for READY; a failure destroys the client and throws a connect_failed AdapterError. */
export async function startGateway(opts: {
  config: DiscordConfig;
  log: CommandLog;
  connectTimeoutMs: number;
  onPacket: (packet: APIInteraction) => void;
}): Promise<Gateway> {
  const client = openClient(opts.config, opts.log, opts.onPacket);
  const timeout = AbortSignal.timeout(opts.connectTimeoutMs);
  try {
    // Both are awaited together so that a failed login leaves no dangling rejection behind.
    await Promise.all([
      once(client, Events.ClientReady, { signal: timeout }),
      client.login(opts.config.token),
    ]);
  } catch (err) {
    await client.destroy().catch(() => undefined);
    const reason = timeout.aborted ? new Error('no READY from the gateway in time') : err;
    throw discordError(reason, 'connect_failed', 'login', opts.config.token);
  }
  const answers = createFirstAnswers(async (interaction, body) => {
    await client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
      body,
      auth: false,
    });
  });
  return {
    answers,
    isReady: () => client.isReady(),
    userId: () => client.user?.id,
    stop: () => client.destroy(),
  };
}
