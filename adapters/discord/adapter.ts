// The Discord adapter: a discord.js gateway client. Interactions in, Invocations out; Replies back
// as interaction responses. Discord allows 3 s for the first response and 15 min for edits, so every
// command is deferred at once: https://discord.com/developers/docs/interactions/receiving-and-responding
import { once } from 'node:events';
import {
  AttachmentBuilder,
  Client,
  Events,
  GatewayDispatchEvents,
  GuildMember,
  MessageFlags,
  type APIInteraction,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
  type RESTOptions,
} from 'discord.js';
import type { DiscordConfig } from '../../src/config.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import type { Choice, CommandLog } from '../../src/core/command.ts';
import type { Reply } from '../../src/core/reply.ts';
import { AdapterError, type AdapterErrorCode } from '../../src/errors.ts';
import { redactText } from '../../src/redact.ts';
import { createActionStore, type ActionStore, type ActionTarget } from './custom-id.ts';
import { renderChoices, renderDiscord, type DiscordMessage } from './render.ts';

/** Interaction tokens live 15 minutes; the invocation gives up a minute before. */
export const REPLY_WINDOW_MS = 14 * 60_000;
/** Autocomplete must be answered within Discord's 3 s; keep a margin for the round trip. */
export const AUTOCOMPLETE_DEADLINE_MS = 2_500;
export const CONNECT_TIMEOUT_MS = 30_000;
export const EXPIRED_BUTTON_MESSAGE = 'This button has expired; run the command again.';
const NO_MENTIONS = { parse: [] as [] };
/** Node's fetch for discord.js's REST calls (see `start`); its DOM typings and undici's differ only nominally. */
const restFetch = ((url: string, init: RequestInit) =>
  fetch(url, init)) as unknown as RESTOptions['makeRequest'];

export interface DiscordAdapterOptions {
  config: DiscordConfig;
  log: CommandLog;
  /** Overrides for tests: shorter windows and deadlines. */
  replyWindowMs?: number;
  autocompleteDeadlineMs?: number;
  connectTimeoutMs?: number;
  actionStore?: ActionStore;
}

type Deferrable = ChatInputCommandInteraction | ButtonInteraction;

interface InFlight {
  interaction: Deferrable;
  /** A slash command defers a new reply; a button click defers an update of its message. */
  kind: 'reply' | 'update';
  /** Whether what the deferral fixed is visible to the invoker only. */
  isEphemeral: boolean;
  deferred: Promise<void>;
  controller: AbortController;
  responded: boolean;
}

export function createDiscordAdapter(opts: DiscordAdapterOptions): ChatAdapter {
  const { config, log } = opts;
  const store = opts.actionStore ?? createActionStore();
  const replyWindowMs = opts.replyWindowMs ?? REPLY_WINDOW_MS;
  const autocompleteDeadlineMs = opts.autocompleteDeadlineMs ?? AUTOCOMPLETE_DEADLINE_MS;
  const inFlight = new Set<AbortController>();
  /** The member role ids of recent INTERACTION_CREATE payloads, by interaction id (see actorOf). */
  const rawRoles = new Map<string, string[]>();
  let client: Client | undefined;
  let stopped = false;

  /** Interaction and bot tokens never reach a log line or an error message. */
  const redact = (text: string): string => redactText(text, [config.token]);

  function safeError(err: unknown): Error {
    const source = err instanceof Error ? err : new Error(String(err));
    const safe = new Error(redact(source.message));
    safe.name = source.name;
    const extra = source as { status?: unknown; code?: unknown };
    const fields: Record<string, unknown> = {};
    if (typeof extra.status === 'number') fields.status = extra.status;
    if (typeof extra.code === 'number' || typeof extra.code === 'string') fields.code = extra.code;
    return Object.assign(safe, fields);
  }

  function wrap(err: unknown, code: AdapterErrorCode, doing: string): AdapterError {
    if (err instanceof AdapterError) return err;
    const cause = safeError(err);
    return new AdapterError({
      platform: 'discord',
      code,
      message: `Discord ${doing} failed: ${cause.message}`,
      cause,
    });
  }

  function actorOf(interaction: Interaction): Actor {
    const member = interaction.member;
    let roles: string[] = [];
    let displayName = interaction.user.globalName ?? interaction.user.username;
    const raw = rawRoles.get(interaction.id);
    rawRoles.delete(interaction.id);
    if (member instanceof GuildMember) {
      // A cached member only lists roles that are themselves cached, and herald caches none.
      roles = raw ?? [...member.roles.cache.keys()].filter((id) => id !== interaction.guildId);
      displayName = member.displayName;
    } else if (member) {
      // Not cached (herald asks for no intents): the raw API member carries the role ids.
      roles = [...member.roles];
      displayName = member.nick ?? displayName;
    }
    return { platform: 'discord', id: interaction.user.id, displayName, roles };
  }

  function toSendOptions(message: DiscordMessage) {
    return {
      content: message.content,
      embeds: message.embeds,
      components: message.components,
      files: message.files.map(
        (f) => new AttachmentBuilder(Buffer.from(f.data), { name: f.name, description: f.description }),
      ),
      allowedMentions: NO_MENTIONS,
    };
  }

  async function respond(flight: InFlight, reply: Reply): Promise<void> {
    await flight.deferred;
    const { interaction } = flight;
    const message = renderDiscord(reply, {
      customIdFor: (a) => store.idFor(a),
      // Boosted servers allow larger uploads; Discord says how large with each interaction.
      maxFileBytes: interaction.attachmentSizeLimit > 0 ? interaction.attachmentSizeLimit : undefined,
    });
    const options = toSendOptions(message);
    const hasFiles = message.files.length > 0;
    try {
      if (flight.responded) {
        await interaction.followUp({
          ...options,
          flags: reply.ephemeral ? MessageFlags.Ephemeral : undefined,
        });
      } else if (reply.ephemeral && !flight.isEphemeral) {
        if (flight.kind === 'reply') {
          // The first follow-up after a deferred reply only edits the loading message and keeps
          // its visibility, so settle the loading message, send the private answer, then delete it.
          await interaction.editReply({ content: '…', allowedMentions: NO_MENTIONS });
          await interaction.followUp({ ...options, flags: MessageFlags.Ephemeral });
          await interaction.deleteReply().catch((err: unknown) => {
            log.warn({ err: safeError(err), interactionId: interaction.id }, 'discord.delete_failed');
          });
        } else {
          await interaction.followUp({ ...options, flags: MessageFlags.Ephemeral });
        }
      } else {
        // An edit replaces the message: attachments of an earlier page go away.
        await interaction.editReply({ ...options, attachments: [] });
      }
      flight.responded = true;
    } catch (err) {
      throw wrap(err, hasFiles ? 'upload_failed' : 'send_failed', hasFiles ? 'upload' : 'reply');
    }
  }

  async function run(
    handlers: AdapterHandlers,
    interaction: Deferrable,
    target: ActionTarget,
    kind: 'reply' | 'update',
    isEphemeral: boolean,
  ): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort(
        new AdapterError({
          platform: 'discord',
          code: 'expired',
          message: 'the interaction token is about to expire',
        }),
      );
    }, replyWindowMs);
    timer.unref();
    inFlight.add(controller);
    // Deferring is the first thing sent, before any work, so the 3 s deadline is always met.
    const deferral =
      kind === 'reply'
        ? interaction.deferReply(isEphemeral ? { flags: MessageFlags.Ephemeral } : {})
        : (interaction as ButtonInteraction).deferUpdate();
    const flight: InFlight = {
      interaction,
      kind,
      isEphemeral,
      controller,
      responded: false,
      deferred: deferral.then(
        () => undefined,
        (err: unknown) => {
          const error = wrap(err, 'send_failed', 'deferral');
          // Nobody can be answered any more: stop the work too.
          controller.abort(error);
          throw error;
        },
      ),
    };
    flight.deferred.catch((err: unknown) => {
      log.warn({ err, interactionId: interaction.id, command: target.command }, 'discord.defer_failed');
    });
    const invocation: Invocation = {
      command: target.command,
      rawInput: target.input,
      actor: actorOf(interaction),
      channelId: interaction.channelId ?? '',
      signal: controller.signal,
      respond: (reply) => respond(flight, reply),
    };
    try {
      await handlers.onInvocation(invocation);
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  function commandName(interaction: ChatInputCommandInteraction | AutocompleteInteraction): string {
    const group = interaction.options.getSubcommandGroup(false);
    const sub = interaction.options.getSubcommand(false);
    return [interaction.commandName, group, sub].filter((p) => p !== null).join(' ');
  }

  function optionValues(
    data: readonly CommandInteractionOption[],
  ): Record<string, string | number | boolean> {
    let options = data;
    for (
      let first = options[0];
      first?.options !== undefined && first.value === undefined;
      first = options[0]
    ) {
      options = first.options; // descend into the subcommand (group)
    }
    const out: Record<string, string | number | boolean> = {};
    for (const option of options)
      if (option.value !== undefined && option.value !== null) out[option.name] = option.value;
    return out;
  }

  async function onCommand(
    registry: CommandRegistry,
    handlers: AdapterHandlers,
    i: ChatInputCommandInteraction,
  ) {
    const name = commandName(i);
    // An unknown command can only end in an error, which belongs to the invoker alone.
    const isEphemeral = registry.get(name)?.ephemeral ?? true;
    await run(handlers, i, { command: name, input: optionValues(i.options.data) }, 'reply', isEphemeral);
  }

  async function onButton(handlers: AdapterHandlers, i: ButtonInteraction) {
    const target = store.resolve(i.customId);
    if (!target) {
      await i.reply({
        content: EXPIRED_BUTTON_MESSAGE,
        flags: MessageFlags.Ephemeral,
        allowedMentions: NO_MENTIONS,
      });
      return;
    }
    await run(handlers, i, target, 'update', i.message.flags.has(MessageFlags.Ephemeral));
  }

  async function onAutocomplete(handlers: AdapterHandlers, i: AutocompleteInteraction) {
    const focused = i.options.getFocused(true);
    const request = {
      command: commandName(i),
      option: focused.name,
      partial: String(focused.value),
      actor: actorOf(i),
    };
    let choices: Choice[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<Choice[]>((resolve) => {
        timer = setTimeout(() => resolve([]), autocompleteDeadlineMs);
      });
      choices = await Promise.race([handlers.onAutocomplete(request), deadline]);
    } catch (err) {
      log.warn(
        { err: safeError(err), command: request.command, option: request.option },
        'discord.autocomplete_failed',
      );
    } finally {
      clearTimeout(timer);
    }
    await i.respond(renderChoices(choices));
  }

  async function onInteraction(registry: CommandRegistry, handlers: AdapterHandlers, i: Interaction) {
    if (stopped) return;
    try {
      if (i.isChatInputCommand()) await onCommand(registry, handlers, i);
      else if (i.isButton()) await onButton(handlers, i);
      else if (i.isAutocomplete()) await onAutocomplete(handlers, i);
    } catch (err) {
      log.error({ err: safeError(err), interactionId: i.id, type: i.type }, 'discord.interaction_failed');
    }
  }

  return {
    platform: 'discord',
    async start(registry, handlers) {
      stopped = false;
      const c = new Client({
        // Interactions arrive without any gateway intent, so herald asks for none (no privileged ones).
        intents: [],
        allowedMentions: NO_MENTIONS,
        rest: {
          ...(config.apiUrl === undefined ? {} : { api: config.apiUrl }),
          // discord.js's own undici sends through the process-wide dispatcher, which another undici
          // (the service clients') may own and which then refuses its FormData: file uploads failed.
          // Node's fetch builds the multipart body itself, whoever owns the dispatcher.
          makeRequest: restFetch,
        },
      });
      client = c;
      // The gateway packet is seen here just before discord.js builds the Interaction from it.
      c.ws.on(GatewayDispatchEvents.InteractionCreate, (data: APIInteraction) => {
        if (!data.member) return;
        rawRoles.set(data.id, [...data.member.roles]);
        if (rawRoles.size > 256) rawRoles.delete(rawRoles.keys().next().value ?? '');
      });
      c.on(Events.InteractionCreate, (i) => void onInteraction(registry, handlers, i));
      c.on(Events.Error, (err) => log.error({ err: safeError(err) }, 'discord.error'));
      c.on(Events.Warn, (message) => log.warn({ message: redact(message) }, 'discord.warn'));
      c.on(Events.ShardDisconnect, (event, shardId) =>
        log.warn({ code: event.code, shardId }, 'discord.disconnected'),
      );
      c.on(Events.ShardResume, (shardId) => log.info({ shardId }, 'discord.resumed'));
      const timeout = AbortSignal.timeout(opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
      try {
        // Both are awaited together so that a failed login leaves no dangling rejection behind.
        await Promise.all([once(c, Events.ClientReady, { signal: timeout }), c.login(config.token)]);
      } catch (err) {
        await c.destroy().catch(() => undefined);
        client = undefined;
        throw wrap(
          timeout.aborted ? new Error('no READY from the gateway in time') : err,
          'connect_failed',
          'login',
        );
      }
      log.info({ applicationId: config.applicationId, userId: c.user?.id }, 'discord.ready');
    },
    async stop() {
      stopped = true;
      for (const controller of inFlight) {
        controller.abort(
          new AdapterError({ platform: 'discord', code: 'expired', message: 'the Discord adapter stopped' }),
        );
      }
      const c = client;
      client = undefined;
      if (c) await c.destroy();
    },
    isReady() {
      return client?.isReady() ?? false;
    },
  };
}
