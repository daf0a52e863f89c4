// An interaction's first answer, the same JSON in both modes: the gateway POSTs it to the
// interaction's callback (gateway.ts), the HTTP endpoint writes it as the response (http.ts).
// https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
import {
  InteractionResponseType,
  MessageFlags,
  type APIInteraction,
  type APIInteractionResponse,
  type APIModalInteractionResponseCallbackData,
} from 'discord-api-types/v10';
import { NO_MENTIONS } from '../../src/domain/discord.ts';
import type { FirstAnswers } from './respond.ts';

/** How a first answer leaves: the transport of one mode. */
export type SendFirstAnswer = (interaction: APIInteraction, body: APIInteractionResponse) => Promise<void>;

export function createFirstAnswers(
  send: SendFirstAnswer,
  finished: FirstAnswers['finished'] = () => {},
): FirstAnswers {
  return {
    defer: (interaction, kind, isEphemeral) =>
      send(
        interaction,
        kind === 'reply'
          ? {
              type: InteractionResponseType.DeferredChannelMessageWithSource,
              data: isEphemeral ? { flags: MessageFlags.Ephemeral } : {},
            }
          : { type: InteractionResponseType.DeferredMessageUpdate },
      ),
    notice: (interaction, content) =>
      send(interaction, {
        type: InteractionResponseType.ChannelMessageWithSource,
        data: { content, flags: MessageFlags.Ephemeral, allowed_mentions: NO_MENTIONS },
      }),
    // A modal is only ever a first answer: never after a deferral, and never to a modal's submit.
    modal: (interaction, data) =>
      send(interaction, {
        type: InteractionResponseType.Modal,
        data: data as unknown as APIModalInteractionResponseCallbackData,
      }),
    choices: (interaction, choices) =>
      send(interaction, {
        type: InteractionResponseType.ApplicationCommandAutocompleteResult,
        data: { choices },
      }),
    finished,
  };
}
