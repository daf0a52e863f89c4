// Reading a discord.js Interaction: the full command name, the option values and the invoker.
// Pure but for the role cache, which holds the role ids of recent gateway packets.
import {
  GuildMember,
  type APIInteraction,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
} from 'discord.js';
import type { Actor } from '../../src/core/actor.ts';

/** Packets remembered at most: an interaction is read within milliseconds of its packet. */
const ROLE_CACHE_SIZE = 256;

/** The member role ids of recent INTERACTION_CREATE packets, by interaction id (see actorOf). */
export interface RoleCache {
  remember(packet: APIInteraction): void;
  /** The role ids of that interaction's packet, once; undefined when none was seen. */
  take(interactionId: string): string[] | undefined;
}

export function createRoleCache(): RoleCache {
  const byInteraction = new Map<string, string[]>();
  return {
    remember(packet) {
      if (!packet.member) return;
      byInteraction.set(packet.id, [...packet.member.roles]);
      if (byInteraction.size > ROLE_CACHE_SIZE) byInteraction.delete(byInteraction.keys().next().value ?? '');
    },
    take(interactionId) {
      const roles = byInteraction.get(interactionId);
      byInteraction.delete(interactionId);
      return roles;
    },
  };
}

/** "weather", or "email send" for a subcommand. */
export function commandName(interaction: ChatInputCommandInteraction | AutocompleteInteraction): string {
  const group = interaction.options.getSubcommandGroup(false);
  const sub = interaction.options.getSubcommand(false);
  return [interaction.commandName, group, sub].filter((part) => part !== null).join(' ');
}

/** The typed option values, below any subcommand (group). */
export function optionValues(
  data: readonly CommandInteractionOption[],
): Record<string, string | number | boolean> {
  let options = data;
  for (
    let first = options[0];
    first?.options !== undefined && first.value === undefined;
    first = options[0]
  ) {
    options = first.options;
  }
  const out: Record<string, string | number | boolean> = {};
  for (const option of options) {
    if (option.value !== undefined && option.value !== null) out[option.name] = option.value;
  }
  return out;
}

/** The invoker, with the role ids the access checks need. */
export function actorOf(interaction: Interaction, roles: RoleCache): Actor {
  const member = interaction.member;
  let roleIds: string[] = [];
  let displayName = interaction.user.globalName ?? interaction.user.username;
  const fromPacket = roles.take(interaction.id);
  if (member instanceof GuildMember) {
    // A cached member only lists roles that are themselves cached, and herald caches none.
    roleIds = fromPacket ?? [...member.roles.cache.keys()].filter((id) => id !== interaction.guildId);
    displayName = member.displayName;
  } else if (member) {
    // Not cached (herald asks for no intents): the raw API member carries the role ids.
    roleIds = [...member.roles];
    displayName = member.nick ?? displayName;
  }
  return { platform: 'discord', id: interaction.user.id, displayName, roles: roleIds };
}
