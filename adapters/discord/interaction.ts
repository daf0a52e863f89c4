// Reading an interaction as Discord sends it (the raw JSON, typed by discord-api-types), the same in
// both modes: the HTTP endpoint's verified body, or the gateway's INTERACTION_CREATE packet. What
// kind it is, the full command name, the option values and the invoker.
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ComponentType,
  InteractionType,
  type APIApplicationCommandAutocompleteInteraction,
  type APIApplicationCommandInteractionDataOption,
  type APIChatInputApplicationCommandInteraction,
  type APIInteraction,
  type APIMessageApplicationCommandInteraction,
  type APIMessageComponentButtonInteraction,
  type APIModalSubmitInteraction,
} from 'discord-api-types/v10';
import type { Actor } from '../../src/core/actor.ts';
import { PREFERENCE_DEFAULTS } from '../../src/domain/preferences.ts';
import { languageOfLocale, translatorFor, type Translate } from '../../src/i18n/translate.ts';
import type { CommandRegistry } from '../../src/core/adapter.ts';
import type { ComponentTarget } from '../../src/core/component-state.ts';
import { discordMessageWords, type ResolvedNames } from './message-words.ts';
import type { ChatChannel } from '../../src/core/channel.ts';

export type CommandPacket = APIChatInputApplicationCommandInteraction;
/** A message command (Read aloud on a message's Apps menu): the message is in `data.resolved`. */
export type MessageCommandPacket = APIMessageApplicationCommandInteraction;
export type ButtonPacket = APIMessageComponentButtonInteraction;
export type AutocompletePacket = APIApplicationCommandAutocompleteInteraction;
export type ModalSubmitPacket = APIModalSubmitInteraction;
/**
 * What herald defers: a slash command, a message command or a form's submit (a new reply), or a
 * button press (an update of its message).
 */
export type Deferrable = CommandPacket | MessageCommandPacket | ButtonPacket | ModalSubmitPacket;

export function isChatInputCommand(packet: APIInteraction): packet is CommandPacket {
  return (
    packet.type === InteractionType.ApplicationCommand &&
    packet.data.type === ApplicationCommandType.ChatInput
  );
}

export function isMessageCommand(packet: APIInteraction): packet is MessageCommandPacket {
  return (
    packet.type === InteractionType.ApplicationCommand && packet.data.type === ApplicationCommandType.Message
  );
}

/**
 * What a command interaction runs: a slash command with its typed options, or a message command
 * (its menu name, `onMessage`) with the message read as words in `text`.
 */
export function commandTarget(
  packet: CommandPacket | MessageCommandPacket,
  registry: Pick<CommandRegistry, 'messageCommands'>,
): ComponentTarget {
  if (packet.data.type === ApplicationCommandType.ChatInput) {
    return { command: commandName(packet as CommandPacket), input: optionValues(packet as CommandPacket) };
  }
  const { data } = packet;
  const command = registry.messageCommands.find((c) => c.onMessage === data.name);
  const message = data.resolved.messages[data.target_id];
  // The wider resolved data (users, members, roles, channels) is read where Discord sends it.
  const names = data.resolved as ResolvedNames;
  const text = message ? discordMessageWords(message, names) : '';
  return { command: command?.name ?? data.name, input: { text } };
}

export function isButton(packet: APIInteraction): packet is ButtonPacket {
  return (
    packet.type === InteractionType.MessageComponent && packet.data.component_type === ComponentType.Button
  );
}

export function isAutocomplete(packet: APIInteraction): packet is AutocompletePacket {
  return packet.type === InteractionType.ApplicationCommandAutocomplete;
}

export function isModalSubmit(packet: APIInteraction): packet is ModalSubmitPacket {
  return packet.type === InteractionType.ModalSubmit;
}

/**
 * A submitted modal's text values by input custom_id: in action rows, as herald sends its inputs,
 * or in labels, Discord's newer layout.
 * https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-modal-submit-data-structure
 */
export function modalValues(packet: ModalSubmitPacket): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of packet.data.components ?? []) {
    const inputs = 'components' in row ? row.components : 'component' in row ? [row.component] : [];
    for (const input of inputs) {
      if (input.type === ComponentType.TextInput) out[input.custom_id] = input.value;
    }
  }
  return out;
}

type Option = APIApplicationCommandInteractionDataOption;

function isNesting(option: Option | undefined): option is Option & { options?: Option[] } {
  return (
    option?.type === ApplicationCommandOptionType.Subcommand ||
    option?.type === ApplicationCommandOptionType.SubcommandGroup
  );
}

/** The subcommand group and subcommand names, then the options typed below them. */
function split(options: readonly Option[] | undefined): { path: string[]; leaves: readonly Option[] } {
  const path: string[] = [];
  let level = options ?? [];
  for (let first = level[0]; isNesting(first); first = level[0]) {
    path.push(first.name);
    level = first.options ?? [];
  }
  return { path, leaves: level };
}

/** "weather", or "email send" for a subcommand. */
export function commandName(packet: CommandPacket | AutocompletePacket): string {
  return [packet.data.name, ...split(packet.data.options).path].join(' ');
}

/** The typed option values, below any subcommand (group). */
function optionValues(packet: CommandPacket | AutocompletePacket): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const option of split(packet.data.options).leaves) {
    if ('value' in option && option.value !== undefined && option.value !== null)
      out[option.name] = option.value;
  }
  return out;
}

/** The option the user is typing in, with what they have typed so far. */
export function focusedOption(packet: AutocompletePacket): { name: string; partial: string } | undefined {
  for (const option of split(packet.data.options).leaves) {
    if ('focused' in option && option.focused === true)
      return { name: option.name, partial: String(option.value) };
  }
  return undefined;
}

/** The invoker, with the role ids the access checks need: a member in a guild, a user in a DM. */
export function actorOf(packet: APIInteraction): Actor {
  const member = packet.member;
  const user = member?.user ?? packet.user;
  const fallback = user?.global_name ?? user?.username ?? '';
  return {
    platform: 'discord',
    id: user?.id ?? '',
    displayName: member?.nick ?? fallback,
    roles: member ? [...member.roles] : [],
  };
}

/** The channel an interaction came from (its id given), with what /schedule add asks of it. */
export function channelOf(packet: APIInteraction, channelId: string): ChatChannel {
  return {
    platform: 'discord',
    id: channelId,
    ...(packet.guild_id ? { guildId: packet.guild_id } : {}),
    // app_permissions: the bot's own permissions in this channel, so /schedule add can say what to
    // grant; absent or none: unknown then, left to the GET probe.
    ...(packet.app_permissions && packet.app_permissions !== '0'
      ? { appPermissions: packet.app_permissions }
      : {}),
    // member.permissions: what the member may do there themselves (/schedule add asks).
    ...(packet.member?.permissions ? { memberPermissions: packet.member.permissions } : {}),
  };
}

/**
 * The translator for the invoker's client language, for what the adapter answers itself (an
 * expired button or form): the dispatcher's answers also read /settings.
 */
export function translatorOf(packet: { locale?: string }): Translate {
  return translatorFor(languageOfLocale(packet.locale) ?? PREFERENCE_DEFAULTS.language, 'discord');
}
