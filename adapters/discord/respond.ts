// How a Reply goes back to Discord once the interaction is deferred (the respond strategy), and the
// error wrapping every Discord call shares. The choice of call is pure (responseStep); sendReply
// carries it out through the interaction's webhook (its token, no bot token), in both modes.
// https://discord.com/developers/docs/interactions/receiving-and-responding
import { ApplicationIntegrationType } from 'discord-api-types/v10';
import type { Choice, CommandLog } from '../../src/core/command.ts';
import type { ComponentBatch } from '../../src/core/component-state.ts';
import type { Reply } from '../../src/core/reply.ts';
import { AdapterError, type AdapterErrorCode } from '../../src/errors.ts';
import { DISCORD_LIMITS, NO_MENTIONS } from '../../src/domain/discord.ts';
import { redactText } from '../../src/redact.ts';
import { renderDiscord, type DiscordMessage } from '../../src/render/discord.ts';
import type { DiscordModal } from '../../src/render/discord-form.ts';
import type { AutocompletePacket, Deferrable, ModalSubmitPacket } from './interaction.ts';

export type { Deferrable };

/** An interaction herald has deferred and still owes an answer. */
export interface InFlight {
  interaction: Deferrable;
  /** A slash command defers a new reply; a button click defers an update of its message. */
  kind: 'reply' | 'update';
  /** Whether what the deferral fixed is visible to the invoker only. */
  isEphemeral: boolean;
  /** The deferral once sent; absent while the dispatcher's checks run (a refusal then answers first). */
  deferred?: Promise<void>;
  controller: AbortController;
  responded: boolean;
  /** Follow-up messages sent so far: a user install's interaction takes at most 5. */
  followUps?: number;
}

/** How an interaction's first answer goes out; everything after it is the same in both modes. */
export interface FirstAnswers {
  /** A deferral: type 5 (a new reply, private or not) or type 6 (the clicked message is updated). */
  defer(interaction: Deferrable, kind: InFlight['kind'], isEphemeral: boolean): Promise<void>;
  /** A private message as the first answer: an expired button, or a refusal before any work. */
  notice(interaction: Deferrable, content: string): Promise<void>;
  /** A form (type 9): the first answer of a command or a button, never of a submit. */
  modal(interaction: Exclude<Deferrable, ModalSubmitPacket>, data: DiscordModal): Promise<void>;
  /** Autocomplete choices (type 8). */
  choices(interaction: AutocompletePacket, choices: Choice[]): Promise<void>;
  /** The interaction's handling ended: HTTP mode (http.ts) answers a request nothing answered. */
  finished(interactionId: string): void;
}

/**
 * Which call answers: `follow-up` once something was sent; `private-over-public` when a private
 * reply follows a public deferred reply (whose first follow-up would only edit the loading message,
 * keeping it public); `private-follow-up` for a private answer to a public button message; `edit`
 * otherwise (the deferred message becomes the answer). A failure (`failureRef`) after a public
 * deferred reply is an edit too: everyone already sees the loading message, and turning it into the
 * error is one call where settling, following up and deleting it are three; but not one that
 * carries buttons, which belong to the invoker alone.
 */
type ResponseStep = 'follow-up' | 'private-over-public' | 'private-follow-up' | 'edit';

/**
 * Whether only a user's own install authorised the interaction (herald is not installed in that
 * guild, or it is a DM): Discord then takes at most 5 follow-up messages to it.
 */
function isUserInstallOnly(interaction: Pick<Deferrable, 'authorizing_integration_owners'>): boolean {
  const owners = interaction.authorizing_integration_owners;
  return (
    owners[ApplicationIntegrationType.GuildInstall] === undefined &&
    owners[ApplicationIntegrationType.UserInstall] !== undefined
  );
}

/** Whether another follow-up message is within Discord's limit for this interaction. */
function mayFollowUp(flight: StepFlight): boolean {
  return (
    flight.interaction === undefined ||
    !isUserInstallOnly(flight.interaction) ||
    (flight.followUps ?? 0) < DISCORD_LIMITS.userInstallFollowUps
  );
}

/** What responseStep reads of a flight: the interaction only for who authorised it. */
type StepFlight = Pick<InFlight, 'responded' | 'isEphemeral' | 'kind' | 'followUps'> & {
  interaction?: Pick<Deferrable, 'authorizing_integration_owners'>;
};

export function responseStep(
  flight: StepFlight,
  reply: Pick<Reply, 'ephemeral' | 'failureRef' | 'actions'>,
): ResponseStep {
  // Past a user install's follow-ups, the latest answer is replaced instead.
  if (flight.responded) return mayFollowUp(flight) ? 'follow-up' : 'edit';
  if (reply.ephemeral && !flight.isEphemeral) {
    // A failure with buttons (a refused form's "Edit and send again") stays private: the buttons are the invoker's.
    const hasButtons = (reply.actions?.length ?? 0) > 0;
    if (flight.kind === 'reply' && reply.failureRef !== undefined && !hasButtons) return 'edit';
    return flight.kind === 'reply' ? 'private-over-public' : 'private-follow-up';
  }
  return 'edit';
}

/**
 * Any thrown value as an Error carrying only its name, message, status, code and Discord's own
 * message (`providerMessage`, "Unknown Webhook (10015)"), tokens redacted.
 */
export function safeError(err: unknown, token: string): Error {
  const source = err instanceof Error ? err : new Error(String(err));
  const safe = new Error(redactText(source.message, [token]));
  safe.name = source.name;
  const extra = source as { status?: unknown; code?: unknown; providerMessage?: unknown };
  const fields: Record<string, unknown> = {};
  if (typeof extra.status === 'number') fields.status = extra.status;
  if (typeof extra.code === 'number' || typeof extra.code === 'string') fields.code = extra.code;
  if (typeof extra.providerMessage === 'string')
    fields.providerMessage = redactText(extra.providerMessage, [token]);
  return Object.assign(safe, fields);
}

/** A failed Discord call as an AdapterError: "Discord <doing> failed: <reason>". */
export function discordError(
  err: unknown,
  code: AdapterErrorCode,
  doing: string,
  token: string,
): AdapterError {
  if (err instanceof AdapterError) return err;
  const cause = safeError(err, token);
  return new AdapterError({
    platform: 'discord',
    code,
    message: `Discord ${doing} failed: ${cause.message}`,
    cause,
  });
}

/**
 * The interaction's webhook (`createInteractionWebhookClient` in src/services/webhook/discord-interaction.ts, given by the composition): what
 * answers after the first answer, with the interaction's token and no bot token.
 */
export interface InteractionWebhook {
  editOriginal(token: string, message: DiscordMessage): Promise<void>;
  followUp(token: string, message: DiscordMessage): Promise<void>;
  deleteOriginal(token: string): Promise<void>;
}

/** What a private answer's public deferral is settled to before it is deleted. */
const SETTLED: DiscordMessage = {
  content: '…',
  embeds: [],
  components: [],
  files: [],
  allowed_mentions: NO_MENTIONS,
  flags: 0,
};

export interface SendContext {
  log: CommandLog;
  token: string;
  webhook: InteractionWebhook;
  /** Turns each Action into a button custom_id, storing the targets too long to travel inline. */
  buttons: ComponentBatch;
}

async function followUp(
  flight: InFlight,
  webhook: InteractionWebhook,
  message: DiscordMessage,
): Promise<void> {
  await webhook.followUp(flight.interaction.token, message);
  flight.followUps = (flight.followUps ?? 0) + 1;
}

/** Answers a deferred interaction with `reply`, by the step responseStep chooses. */
export async function sendReply(flight: InFlight, reply: Reply, context: SendContext): Promise<void> {
  await flight.deferred;
  const { interaction } = flight;
  const { webhook } = context;
  const message = renderDiscord(reply, {
    customIdFor: (action) => context.buttons.idFor(action),
    // Boosted servers allow larger uploads; Discord says how large with each interaction.
    maxFileBytes: interaction.attachment_size_limit > 0 ? interaction.attachment_size_limit : undefined,
  });
  // The targets are in the store before any replica can see a button to click.
  await context.buttons.saved().catch((err: unknown) => {
    // The answer still goes; a click on a button whose target was not written answers "expired".
    context.log.warn({ err, interactionId: interaction.id }, 'discord.buttons_not_saved');
  });
  const hasFiles = message.files.length > 0;
  try {
    switch (responseStep(flight, reply)) {
      case 'follow-up':
      case 'private-follow-up':
        // The renderer set the private flag when the reply is private.
        await followUp(flight, webhook, message);
        break;
      case 'private-over-public':
        // Settle the loading message, send the private answer, then delete the loading message.
        await webhook.editOriginal(interaction.token, SETTLED);
        await followUp(flight, webhook, message);
        await webhook.deleteOriginal(interaction.token).catch((err: unknown) => {
          context.log.warn(
            { err: safeError(err, context.token), interactionId: interaction.id },
            'discord.delete_failed',
          );
        });
        break;
      case 'edit':
        await webhook.editOriginal(interaction.token, message);
        break;
    }
    flight.responded = true;
  } catch (err) {
    throw discordError(
      err,
      hasFiles ? 'upload_failed' : 'send_failed',
      hasFiles ? 'upload' : 'reply',
      context.token,
    );
  }
}
