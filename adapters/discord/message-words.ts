// A Discord message as words for Read aloud: mentions as the names the interaction resolves (the
// member's nickname, the user's display name, the role's and channel's names), else "someone", "a
// role", "a channel" (placeholder words, said in the reader's language); custom emoji by name, timestamps as time values (spoken in the reader's zone), links as "a link to <host>" or their
// label, markdown stripped. Never a raw id. Pure.
// https://discord.com/developers/docs/reference#message-formatting
import type { APIInteractionDataResolved, APIMessage, APIUser } from 'discord-api-types/v10';
import { timeValue } from '../../src/core/reply.ts';
import {
  BARE_URL_RE,
  emojiWords,
  linkWords,
  messageWords,
  placeholder,
  type WordRule,
} from '../../src/message-words.ts';

/** What an interaction resolves beside the message, by id: any of it may be missing. */
export type ResolvedNames = Partial<
  Pick<APIInteractionDataResolved, 'users' | 'members' | 'roles' | 'channels'>
>;

/** A mentioned user as a message carries it; in a guild Discord adds the partial member. */
type MentionedUser = APIUser & { member?: { nick?: string | null } };

function userName(id: string, message: APIMessage, resolved: ResolvedNames): string {
  const mentioned = (message.mentions as MentionedUser[]).find((u) => u.id === id);
  const user = resolved.users?.[id] ?? mentioned;
  const nick = resolved.members?.[id]?.nick ?? mentioned?.member?.nick;
  return nick ?? user?.global_name ?? user?.username ?? placeholder('someone');
}

function rules(message: APIMessage, resolved: ResolvedNames): WordRule[] {
  return [
    // A masked link reads as its label; a label that is itself an address reads as the link.
    [
      /\[([^\]\n]+)\]\(<?(https?:\/\/[^\s)>]+)>?\)/g,
      ([, label = '', url = '']) => (/^https?:\/\//.test(label) ? linkWords(url) : label),
    ],
    [/<@!?(\d{17,20})>/g, ([, id = '']) => userName(id, message, resolved)],
    [/<@&(\d{17,20})>/g, ([, id = '']) => resolved.roles?.[id]?.name ?? placeholder('aRole')],
    [/<#(\d{17,20})>/g, ([, id = '']) => resolved.channels?.[id]?.name ?? placeholder('aChannel')],
    [/<a?:(\w{2,32}):\d{17,20}>/g, ([, name = '']) => emojiWords(name)],
    [
      /<t:(-?\d{1,13})(?::[tTdDfFsSR])?>/g,
      ([, unix = '0']) => timeValue(new Date(Number(unix) * 1000), 'UTC'),
    ],
    // A command mention: </weather:123> or </email send:123> reads as the command.
    [/<\/([-_\p{L}\p{N}]{1,32}(?: [-_\p{L}\p{N}]{1,32}){0,2}):\d{17,20}>/gu, ([, name = '']) => `/${name}`],
    [/<id:(?:customize|browse|guide|linked-roles)(?::\d+)?>/g, () => placeholder('aChannel')],
    [/<(https?:\/\/[^\s>]+)>/g, ([, url = '']) => linkWords(url)],
    [BARE_URL_RE, ([url = '']) => linkWords(url)],
    [/@(everyone|here)\b/g, ([, who]) => placeholder(who === 'here' ? 'here' : 'everyone')],
  ];
}

/** The text Read aloud reads from a message: its content, then its embeds' titles and descriptions. */
function messageText(message: APIMessage): string {
  const embeds = (message.embeds ?? []).flatMap((e) => [e.title, e.description]);
  return [message.content, ...embeds].filter((t): t is string => !!t && t.trim() !== '').join('\n');
}

/** The message as words to read aloud; empty when it holds no text (an image alone). */
export function discordMessageWords(message: APIMessage, resolved: ResolvedNames = {}): string {
  return messageWords(messageText(message), rules(message, resolved));
}
