// The Discord adapter: interactions in, Invocations out; Replies back as interaction responses.
// Both modes read the raw interaction JSON (interaction.ts): HTTP mode the endpoint's verified body
// (http.ts, no discord.js at all), gateway mode the packets of a discord.js session (gateway.ts).
// Discord allows 3 s for the first response and 15 min for edits: a command is deferred as soon as
// the dispatcher's checks pass, and a refusal by them is the one private first answer.
// https://discord.com/developers/docs/interactions/receiving-and-responding
import { MessageFlags, type APIInteraction } from 'discord-api-types/v10';
import type { DiscordConfig } from '../../src/config/index.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import {
  createLocalClaims,
  failOpen,
  INTERACTION_CLAIM_MS,
  type InteractionClaims,
} from '../../src/core/claims.ts';
import type { CommandLog } from '../../src/core/command.ts';
import type { Reply } from '../../src/core/reply.ts';
import { AdapterError } from '../../src/errors.ts';
import type { ComponentState } from '../../src/core/component-state.ts';
import { withReopen } from '../../src/core/form.ts';
import { answerAutocomplete } from './autocomplete.ts';
import { createButtonTargets } from './custom-id.ts';
import { createFirstAnswers } from './first-answers.ts';
import {
  EXPIRED_FORM_MESSAGE,
  modalOf,
  openModal,
  requestOf,
  submittedRequest,
  type Request,
} from './forms.ts';
import type { Gateway } from './gateway.ts';
import type { HttpInteractions } from './http.ts';
import {
  actorOf,
  channelOf,
  commandTarget,
  isAutocomplete,
  isButton,
  isChatInputCommand,
  isMessageCommand,
  isModalSubmit,
  type ButtonPacket,
  type CommandPacket,
  type MessageCommandPacket,
  type ModalSubmitPacket,
} from './interaction.ts';
import { renderDiscord } from '../../src/render/discord.ts';
import {
  discordError,
  safeError,
  sendReply,
  type Deferrable,
  type FirstAnswers,
  type InFlight,
  type InteractionWebhook,
  type SendContext,
} from './respond.ts';

/** Interaction tokens live 15 minutes; the invocation gives up a minute before. */
export const REPLY_WINDOW_MS = 14 * 60_000;
/** Autocomplete must be answered within Discord's 3 s; keep a margin for the round trip. */
export const AUTOCOMPLETE_DEADLINE_MS = 2_500;
export const CONNECT_TIMEOUT_MS = 30_000;
export const EXPIRED_BUTTON_MESSAGE = 'This button has expired; run the command again.';
/**
 * The dispatcher's checks (input, access, rate limit) normally end in a few ms and the deferral
 * follows them; should they still be running after this long, the deferral goes anyway, well
 * inside Discord's 3 s.
 */
export const DEFER_BY_MS = 1_000;
export interface DiscordAdapterOptions {
  config: DiscordConfig;
  log: CommandLog;
  /**
   * What answers an interaction after its first answer, in both modes: the edit of @original and
   * follow-ups through the interaction's webhook (src/services/webhook/discord-interaction.ts).
   */
  webhook: InteractionWebhook;
  /** Overrides for tests: shorter windows and deadlines. */
  replyWindowMs?: number;
  deferByMs?: number;
  autocompleteDeadlineMs?: number;
  connectTimeoutMs?: number;
  /**
   * Where the targets of long buttons are kept: the store shared by the replicas, so that a click
   * on any of them finds its target (custom-id.ts); in this process by default.
   */
  buttonTargets?: ComponentState;
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
  readonly buttonTargets: ComponentState;
  readonly replyWindowMs: number;
  readonly deferByMs: number;
  readonly autocompleteDeadlineMs: number;
  /** One controller per interaction still being worked on; stop() aborts them. */
  readonly inFlight: Set<AbortController>;
  readonly claims: InteractionClaims;
  readonly webhook: InteractionWebhook;
  /** How each interaction's first answer goes out: a REST callback (gateway) or the HTTP response. */
  answers: FirstAnswers;
  isStopped: boolean;
}

/**
 * Defers, once: when the dispatcher's checks have passed and the work begins, or DEFER_BY_MS after
 * the interaction arrived if they are still running, so that Discord's 3 s are met either way.
 */
function deferOnce(session: Session, flight: InFlight): Promise<void> {
  if (flight.deferred) return flight.deferred;
  const { interaction, kind, isEphemeral, controller } = flight;
  flight.deferred = session.answers.defer(interaction, kind, isEphemeral).then(
    () => undefined,
    (err: unknown) => {
      const error = discordError(err, 'send_failed', 'deferral', session.config.token);
      // Nobody can be answered any more: stop the work too.
      controller.abort(error);
      throw error;
    },
  );
  flight.deferred.catch((err: unknown) => {
    session.log.warn({ err, interactionId: interaction.id }, 'discord.defer_failed');
  });
  return flight.deferred;
}

/** A private answer of text alone: sent as the first answer when nothing was deferred yet. */
function isNotice(reply: Reply): boolean {
  return (
    reply.ephemeral === true && !reply.embeds?.length && !reply.attachments?.length && !reply.actions?.length
  );
}

/**
 * Answers `reply`: a refusal before any work (input, access, rate limit) as the interaction's one
 * private first answer; anything else after the deferral, by the step responseStep chooses.
 */
async function answer(session: Session, flight: InFlight, reply: Reply, context: SendContext): Promise<void> {
  const { interaction } = flight;
  if (reply.form && !flight.deferred && !isModalSubmit(interaction)) {
    flight.responded = true;
    return openModal(
      session.answers,
      interaction,
      modalOf(reply.form, context.buttons),
      session.config.token,
    );
  }
  if (flight.deferred || !isNotice(reply)) {
    void deferOnce(session, flight);
    return sendReply(flight, reply, context);
  }
  // Marked before the call, so the deferral's fallback timer no longer fires.
  flight.responded = true;
  const { content } = renderDiscord(reply);
  try {
    await session.answers.notice(flight.interaction, content);
  } catch (err) {
    throw discordError(err, 'send_failed', 'reply', session.config.token);
  }
}

/** The invocation a packet makes: its request, invoker and channel, answered through `flight`. */
function invocationOf(
  session: Session,
  flight: InFlight,
  request: Request,
  context: SendContext,
): Invocation {
  const { interaction } = flight;
  const channelId = interaction.channel_id ?? interaction.channel?.id;
  const { submitted, ...asked } = request;
  return {
    ...asked,
    // A submit cannot be answered with a form: its refusal offers the form again instead.
    ...(submitted === undefined ? { hasForms: true } : {}),
    actor: actorOf(interaction),
    channelId: channelId ?? '',
    ...(channelId ? { channel: channelOf(interaction, channelId) } : {}),
    ...(submitted !== undefined
      ? { surface: 'form' as const }
      : flight.kind === 'update'
        ? { surface: 'button' as const }
        : {}),
    signal: flight.controller.signal,
    beginWork: () => void deferOnce(session, flight),
    respond: (reply) =>
      answer(session, flight, submitted ? withReopen(reply, asked.command, submitted) : reply, context),
  };
}

async function run(
  session: Session,
  handlers: AdapterHandlers,
  interaction: Deferrable,
  request: Request,
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
  const flight: InFlight = { interaction, kind, isEphemeral, controller, responded: false };
  const fallback = setTimeout(() => {
    if (!flight.responded) void deferOnce(session, flight);
  }, session.deferByMs);
  const context: SendContext = {
    log: session.log,
    token: session.config.token,
    webhook: session.webhook,
    buttons: session.buttonTargets.batch(),
  };
  try {
    await handlers.onInvocation(invocationOf(session, flight, request, context));
  } finally {
    clearTimeout(fallback);
    clearTimeout(timer);
    session.inFlight.delete(controller);
  }
}

async function onCommand(
  session: Session,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  interaction: CommandPacket | MessageCommandPacket,
): Promise<void> {
  const target = commandTarget(interaction, registry);
  // An unknown command can only end in an error, which belongs to the invoker alone.
  const isEphemeral = registry.get(target.command)?.ephemeral ?? true;
  await run(session, handlers, interaction, requestOf(target), 'reply', isEphemeral);
}

async function onButton(session: Session, handlers: AdapterHandlers, interaction: ButtonPacket) {
  const target = await session.buttonTargets.resolve(interaction.data.custom_id).catch((err: unknown) => {
    // The store cannot answer: the click cannot run, and Discord needs an answer within 3 s.
    session.log.warn({ err, interactionId: interaction.id }, 'discord.button_lookup_failed');
    return undefined;
  });
  if (!target) {
    await session.answers.notice(interaction, EXPIRED_BUTTON_MESSAGE);
    return;
  }
  const isEphemeral = ((interaction.message.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
  await run(session, handlers, interaction, requestOf(target), 'update', isEphemeral);
}

/** A form's submit: run as the typed line its fields spell, as a new reply. */
async function onSubmit(
  session: Session,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  interaction: ModalSubmitPacket,
) {
  const request = await submittedRequest(registry, session.buttonTargets, interaction).catch(
    (err: unknown) => {
      session.log.warn({ err, interactionId: interaction.id }, 'discord.form_lookup_failed');
      return undefined;
    },
  );
  if (!request) return session.answers.notice(interaction, EXPIRED_FORM_MESSAGE);
  const isEphemeral = registry.get(request.command)?.ephemeral ?? true;
  await run(session, handlers, interaction, request, 'reply', isEphemeral);
}

async function onInteraction(
  session: Session,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  interaction: APIInteraction,
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
    if (isChatInputCommand(interaction) || isMessageCommand(interaction))
      await onCommand(session, registry, handlers, interaction);
    else if (isButton(interaction)) await onButton(session, handlers, interaction);
    else if (isAutocomplete(interaction)) await answerAutocomplete(session, handlers, interaction);
    else if (isModalSubmit(interaction)) await onSubmit(session, registry, handlers, interaction);
  } catch (err) {
    session.log.error(
      { err: safeError(err, session.config.token), interactionId: interaction.id, type: interaction.type },
      'discord.interaction_failed',
    );
  } finally {
    session.answers.finished(interaction.id);
  }
}

/**
 * HTTP mode: no login and no discord.js; the verified packets come from the endpoint already served
 * on PORT (http.ts), whose HTTP responses carry the first answers.
 */
function startHttp(
  session: Session,
  interactions: HttpInteractions | undefined,
  onPacket: (p: APIInteraction) => void,
) {
  if (interactions === undefined) {
    throw new AdapterError({
      platform: 'discord',
      code: 'connect_failed',
      message: 'Discord HTTP mode needs DISCORD_PUBLIC_KEY and the HTTP server on PORT',
    });
  }
  session.answers = createFirstAnswers(interactions.respond, interactions.finished);
  return interactions.attach(onPacket);
}

export function createDiscordAdapter(opts: DiscordAdapterOptions): ChatAdapter {
  let detach: (() => void) | undefined;
  let gateway: Gateway | undefined;
  const session: Session = {
    config: opts.config,
    log: opts.log,
    buttonTargets: opts.buttonTargets ?? createButtonTargets(),
    replyWindowMs: opts.replyWindowMs ?? REPLY_WINDOW_MS,
    deferByMs: opts.deferByMs ?? DEFER_BY_MS,
    autocompleteDeadlineMs: opts.autocompleteDeadlineMs ?? AUTOCOMPLETE_DEADLINE_MS,
    inFlight: new Set(),
    claims: failOpen(opts.claims ?? createLocalClaims(), (err, key) =>
      opts.log.warn({ err, key }, 'discord.claim_failed'),
    ),
    webhook: opts.webhook,
    // Replaced as the adapter starts, by its mode's transport.
    answers: createFirstAnswers(() => Promise.reject(new Error('the Discord adapter has not started'))),
    isStopped: false,
  };
  return {
    platform: 'discord',
    async start(registry, handlers) {
      session.isStopped = false;
      const onPacket = (packet: APIInteraction) => void onInteraction(session, registry, handlers, packet);
      if (opts.config.mode === 'http') {
        detach = startHttp(session, opts.interactions, onPacket);
        session.log.info(
          { applicationId: opts.config.applicationId, path: opts.config.interactionsPath },
          'discord.http_ready',
        );
        return;
      }
      // discord.js is loaded only here: HTTP mode never needs it.
      const { startGateway } = await import('./gateway.ts');
      gateway = await startGateway({
        config: opts.config,
        log: opts.log,
        connectTimeoutMs: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
        onPacket,
      });
      session.answers = gateway.answers;
      session.log.info(
        { applicationId: opts.config.applicationId, userId: gateway.userId() },
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
      const stopping = gateway;
      gateway = undefined;
      if (stopping) await stopping.stop();
    },
    isReady() {
      if (opts.config.mode === 'http') return detach !== undefined;
      return gateway?.isReady() ?? false;
    },
  };
}
