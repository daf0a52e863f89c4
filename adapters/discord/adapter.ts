// The Discord adapter: a discord.js gateway client. Interactions in, Invocations out; Replies back
// as interaction responses. Discord allows 3 s for the first response and 15 min for edits, so every
// command is deferred at once: https://discord.com/developers/docs/interactions/receiving-and-responding
import { once } from 'node:events';
import {
  Client,
  Events,
  GatewayDispatchEvents,
  MessageFlags,
  type APIInteraction,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import type { DiscordConfig } from '../../src/config/index.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import {
  createLocalClaims,
  failOpen,
  INTERACTION_CLAIM_MS,
  type InteractionClaims,
} from '../../src/core/claims.ts';
import type { Choice, CommandLog } from '../../src/core/command.ts';
import type { Action } from '../../src/core/reply.ts';
import { nextTurn } from '../../src/core/turns.ts';
import { AdapterError } from '../../src/errors.ts';
import { NO_MENTIONS } from '../../src/domain/discord.ts';
import { redactText } from '../../src/redact.ts';
import { createActionStore, type ActionStore, type ActionTarget } from './custom-id.ts';
import { actorOf, commandName, createRoleCache, optionValues, type RoleCache } from './interaction.ts';
import type { HttpInteractions } from './http.ts';
import { renderChoices } from '../../src/render/discord.ts';
import {
  discordError,
  gatewayAnswers,
  safeError,
  sendReply,
  type Deferrable,
  type FirstAnswers,
  type InFlight,
  type InteractionWebhook,
} from './respond.ts';

/** Interaction tokens live 15 minutes; the invocation gives up a minute before. */
export const REPLY_WINDOW_MS = 14 * 60_000;
/** Autocomplete must be answered within Discord's 3 s; keep a margin for the round trip. */
export const AUTOCOMPLETE_DEADLINE_MS = 2_500;
export const CONNECT_TIMEOUT_MS = 30_000;
export const EXPIRED_BUTTON_MESSAGE = 'This button has expired; run the command again.';
export interface DiscordAdapterOptions {
  config: DiscordConfig;
  log: CommandLog;
  /**
   * What answers an interaction after its first answer, in both modes: the edit of @original and
   * follow-ups through the interaction's webhook (src/services/webhook/interaction.ts).
   */
  webhook: InteractionWebhook;
  /** Overrides for tests: shorter windows and deadlines. */
  replyWindowMs?: number;
  autocompleteDeadlineMs?: number;
  connectTimeoutMs?: number;
  /** Where button targets are kept (custom-id.ts); one per adapter by default. */
  actionStore?: ActionStore;
  /**
   * Who runs an interaction: the store shared by the replicas (Redis); in process by default.
   * Every gateway session of the bot receives every interaction; only the claim's winner answers.
   */
  claims?: InteractionClaims;
  /**
   * HTTP mode: the endpoint already served on PORT (http.ts), which answers PINGs and holds early
   * interactions until the adapter attaches to it.
   */
  interactions?: HttpInteractions;
}

/** What one adapter shares across its interactions. */
interface Session {
  readonly config: DiscordConfig;
  readonly log: CommandLog;
  /** The targets of the buttons herald has sent, by custom_id. */
  readonly buttonTargets: ActionStore;
  readonly replyWindowMs: number;
  readonly autocompleteDeadlineMs: number;
  /** One controller per interaction still being worked on; stop() aborts them. */
  readonly inFlight: Set<AbortController>;
  readonly roles: RoleCache;
  readonly claims: InteractionClaims;
  readonly webhook: InteractionWebhook;
  /** How each interaction's first answer goes out: a REST callback (gateway) or the HTTP response. */
  answers: FirstAnswers;
  client: Client | undefined;
  isStopped: boolean;
}

/** Defers at once (Discord's 3 s), so that the answer can take up to the reply window. */
function defer(
  session: Session,
  interaction: Deferrable,
  kind: InFlight['kind'],
  isEphemeral: boolean,
  controller: AbortController,
): InFlight {
  const deferred = session.answers.defer(interaction, kind, isEphemeral).then(
    () => undefined,
    (err: unknown) => {
      const error = discordError(err, 'send_failed', 'deferral', session.config.token);
      // Nobody can be answered any more: stop the work too.
      controller.abort(error);
      throw error;
    },
  );
  return { interaction, kind, isEphemeral, controller, responded: false, deferred };
}

async function run(
  session: Session,
  handlers: AdapterHandlers,
  interaction: Deferrable,
  target: ActionTarget,
  kind: InFlight['kind'],
  isEphemeral: boolean,
): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    const message = 'the interaction token is about to expire';
    controller.abort(new AdapterError({ platform: 'discord', code: 'expired', message }));
  }, session.replyWindowMs);
  timer.unref();
  session.inFlight.add(controller);
  // Deferring is the first thing sent, before any work, so the 3 s deadline is always met.
  const flight = defer(session, interaction, kind, isEphemeral, controller);
  flight.deferred.catch((err: unknown) => {
    session.log.warn({ err, interactionId: interaction.id, command: target.command }, 'discord.defer_failed');
  });
  const sendContext = {
    log: session.log,
    token: session.config.token,
    webhook: session.webhook,
    customIdFor: (action: Action) => session.buttonTargets.idFor(action),
  };
  const invocation: Invocation = {
    command: target.command,
    rawInput: target.input,
    actor: actorOf(interaction, session.roles),
    channelId: interaction.channelId ?? '',
    // app_permissions: the bot's own permissions in this channel, so /schedule add can say what to grant.
    ...(interaction.channelId
      ? {
          channel: {
            platform: 'discord' as const,
            id: interaction.channelId,
            ...(interaction.guildId ? { guildId: interaction.guildId } : {}),
            // discord.js reads an absent app_permissions as 0: unknown then, left to the GET probe.
            ...(interaction.appPermissions.bitfield === 0n
              ? {}
              : { appPermissions: interaction.appPermissions.bitfield.toString() }),
            // member.permissions: what the member may do there themselves (/schedule add asks).
            ...(interaction.memberPermissions
              ? { memberPermissions: interaction.memberPermissions.bitfield.toString() }
              : {}),
          },
        }
      : {}),
    signal: controller.signal,
    respond: (reply) => sendReply(flight, reply, sendContext),
  };
  try {
    // The deferral is on its way; the work waits its turn behind the first answers still owed.
    await nextTurn();
    await handlers.onInvocation(invocation);
  } finally {
    clearTimeout(timer);
    session.inFlight.delete(controller);
  }
}

async function onCommand(
  session: Session,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  interaction: ChatInputCommandInteraction,
): Promise<void> {
  const name = commandName(interaction);
  // An unknown command can only end in an error, which belongs to the invoker alone.
  const isEphemeral = registry.get(name)?.ephemeral ?? true;
  const target = { command: name, input: optionValues(interaction.options.data) };
  await run(session, handlers, interaction, target, 'reply', isEphemeral);
}

async function onButton(session: Session, handlers: AdapterHandlers, interaction: ButtonInteraction) {
  const target = session.buttonTargets.resolve(interaction.customId);
  if (!target) {
    await session.answers.notice(interaction, EXPIRED_BUTTON_MESSAGE);
    return;
  }
  const isEphemeral = interaction.message.flags.has(MessageFlags.Ephemeral);
  await run(session, handlers, interaction, target, 'update', isEphemeral);
}

async function onAutocomplete(
  session: Session,
  handlers: AdapterHandlers,
  interaction: AutocompleteInteraction,
): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const request = {
    command: commandName(interaction),
    option: focused.name,
    partial: String(focused.value),
    actor: actorOf(interaction, session.roles),
  };
  let choices: Choice[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<Choice[]>((resolve) => {
      timer = setTimeout(() => resolve([]), session.autocompleteDeadlineMs);
    });
    choices = await Promise.race([handlers.onAutocomplete(request), deadline]);
  } catch (err) {
    session.log.warn(
      { err: safeError(err, session.config.token), command: request.command, option: request.option },
      'discord.autocomplete_failed',
    );
  } finally {
    clearTimeout(timer);
  }
  await session.answers.choices(interaction, renderChoices(choices));
}

async function onInteraction(
  session: Session,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  interaction: Interaction,
): Promise<void> {
  if (session.isStopped) return;
  try {
    // Before anything is sent: a replica that loses the claim leaves the interaction to the winner.
    const isOurs = await session.claims.claimOnce(
      `discord:interaction:${interaction.id}`,
      INTERACTION_CLAIM_MS,
    );
    if (!isOurs) {
      session.log.debug({ interactionId: interaction.id }, 'discord.interaction_claimed_elsewhere');
      return;
    }
    if (interaction.isChatInputCommand()) await onCommand(session, registry, handlers, interaction);
    else if (interaction.isButton()) await onButton(session, handlers, interaction);
    else if (interaction.isAutocomplete()) await onAutocomplete(session, handlers, interaction);
  } catch (err) {
    session.log.error(
      { err: safeError(err, session.config.token), interactionId: interaction.id, type: interaction.type },
      'discord.interaction_failed',
    );
  } finally {
    session.answers.finished(interaction.id);
  }
}

/** A gateway client with herald's listeners; not yet logged in. */
function openClient(session: Session, registry: CommandRegistry, handlers: AdapterHandlers): Client {
  const { config, log } = session;
  const client = new Client({
    // Interactions arrive without any gateway intent, so herald asks for none (no privileged ones).
    intents: [],
    allowedMentions: NO_MENTIONS,
    rest: {
      ...(config.apiUrl === undefined ? {} : { api: config.apiUrl }),
      // Almost every request this client makes is an interaction's first answer (a callback, JSON:
      // files go with the edits, through the interaction's webhook), which Discord exempts from the
      // bot's global 50 a second; discord.js counts them all against it. A real global limit still
      // answers 429 with X-RateLimit-Global, which discord.js waits out.
      globalRequestsPerSecond: 1_000,
    },
  });
  // The gateway packet is seen here just before discord.js builds the Interaction from it.
  client.ws.on(GatewayDispatchEvents.InteractionCreate, (packet: APIInteraction) =>
    session.roles.remember(packet),
  );
  client.on(
    Events.InteractionCreate,
    (interaction) => void onInteraction(session, registry, handlers, interaction),
  );
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
async function connect(session: Session, client: Client, connectTimeoutMs: number): Promise<void> {
  const timeout = AbortSignal.timeout(connectTimeoutMs);
  try {
    // Both are awaited together so that a failed login leaves no dangling rejection behind.
    await Promise.all([
      once(client, Events.ClientReady, { signal: timeout }),
      client.login(session.config.token),
    ]);
  } catch (err) {
    await client.destroy().catch(() => undefined);
    const reason = timeout.aborted ? new Error('no READY from the gateway in time') : err;
    throw discordError(reason, 'connect_failed', 'login', session.config.token);
  }
}

/** The discord.js internal that turns a raw INTERACTION_CREATE into an Interaction and emits it. */
interface InteractionAction {
  actions: { InteractionCreate: { handle(packet: APIInteraction): void } };
}

/**
 * HTTP mode: no login; the client only builds Interactions from the verified packets (through the
 * same listener as the gateway's). The first answers are the HTTP responses (http.ts) and the rest
 * goes through the interaction's webhook, as the gateway's does: its REST client sends nothing.
 */
function startHttp(session: Session, client: Client, interactions: HttpInteractions | undefined): () => void {
  if (interactions === undefined) {
    throw new AdapterError({
      platform: 'discord',
      code: 'connect_failed',
      message: 'Discord HTTP mode needs DISCORD_PUBLIC_KEY and the HTTP server on PORT',
    });
  }
  session.answers = interactions.answers;
  return interactions.attach((packet) => {
    session.roles.remember(packet);
    (client as unknown as InteractionAction).actions.InteractionCreate.handle(packet);
  });
}

export function createDiscordAdapter(opts: DiscordAdapterOptions): ChatAdapter {
  let detach: (() => void) | undefined;
  const session: Session = {
    config: opts.config,
    log: opts.log,
    buttonTargets: opts.actionStore ?? createActionStore(),
    replyWindowMs: opts.replyWindowMs ?? REPLY_WINDOW_MS,
    autocompleteDeadlineMs: opts.autocompleteDeadlineMs ?? AUTOCOMPLETE_DEADLINE_MS,
    inFlight: new Set(),
    roles: createRoleCache(),
    claims: failOpen(opts.claims ?? createLocalClaims(), (err, key) =>
      opts.log.warn({ err, key }, 'discord.claim_failed'),
    ),
    webhook: opts.webhook,
    answers: gatewayAnswers,
    client: undefined,
    isStopped: false,
  };
  return {
    platform: 'discord',
    async start(registry, handlers) {
      session.isStopped = false;
      const client = openClient(session, registry, handlers);
      session.client = client;
      if (opts.config.mode === 'http') {
        try {
          detach = startHttp(session, client, opts.interactions);
        } catch (err) {
          session.client = undefined;
          await client.destroy();
          throw err;
        }
        session.log.info(
          { applicationId: opts.config.applicationId, path: opts.config.interactionsPath },
          'discord.http_ready',
        );
        return;
      }
      try {
        await connect(session, client, opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
      } catch (err) {
        session.client = undefined;
        throw err;
      }
      session.log.info(
        { applicationId: opts.config.applicationId, userId: client.user?.id },
        'discord.ready',
      );
    },
    async stop() {
      session.isStopped = true;
      const message = 'the Discord adapter stopped';
      for (const controller of session.inFlight) {
        controller.abort(new AdapterError({ platform: 'discord', code: 'expired', message }));
      }
      detach?.();
      detach = undefined;
      const client = session.client;
      session.client = undefined;
      if (client) await client.destroy();
    },
    isReady() {
      if (opts.config.mode === 'http') return detach !== undefined;
      return session.client?.isReady() ?? false;
    },
  };
}
