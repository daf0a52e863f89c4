// A Slack message's text as words for Read aloud: user and channel mentions as the names looked up
// (users.info, conversations.info) or carried in the token, else "someone" and "a channel" (placeholder
// words, said in the reader's language);
// @here/@channel/@everyone and user groups as words, dates as time values (spoken in the reader's zone), links as their label or "a link
// to <host>", emoji shortcodes by name, mrkdwn markers and entities gone. Never a raw id. Pure.
// https://docs.slack.dev/messaging/formatting-message-text
import { timeValue } from '../../src/core/reply.ts';
import { emojiWords, linkWords, messageWords, placeholder, type WordRule } from '../../src/message-words.ts';

/** Names looked up for the ids slackMentionIds found; an id missing here reads as a placeholder word. */
export interface SlackNames {
  users: ReadonlyMap<string, string>;
  channels: ReadonlyMap<string, string>;
}

const USER_RE = /<@([UW][A-Z0-9]{2,})(?:\|([^>]*))?>/g;
const CHANNEL_RE = /<#([CG][A-Z0-9]{2,})(?:\|([^>]*))?>/g;
const SPECIAL: Readonly<Record<string, string>> = {
  here: placeholder('here'),
  channel: placeholder('everyoneInChannel'),
  everyone: placeholder('everyone'),
};
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>' };

/** The user and channel ids whose names the text does not carry: what to look up. */
export function slackMentionIds(text: string): { users: string[]; channels: string[] } {
  const unlabelled = (re: RegExp) => [
    ...new Set([...text.matchAll(re)].filter((m) => !m[2]?.trim()).map((m) => m[1]!)),
  ];
  return { users: unlabelled(USER_RE), channels: unlabelled(CHANNEL_RE) };
}

const label = (text: string | undefined) => (text?.trim() ? text.trim().replace(/^[@#]/, '') : undefined);

function rules(names: SlackNames): WordRule[] {
  return [
    [USER_RE, ([, id = '', name]) => names.users.get(id) ?? label(name) ?? placeholder('someone')],
    [CHANNEL_RE, ([, id = '', name]) => label(name) ?? names.channels.get(id) ?? placeholder('aChannel')],
    [/<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>/g, ([, name]) => label(name) ?? placeholder('aGroup')],
    [/<!date\^(\d{1,12})\^[^>]*>/g, ([, unix = '0']) => timeValue(new Date(Number(unix) * 1000), 'UTC')],
    [/<!(here|channel|everyone)(?:\|[^>]*)?>/g, ([, who = '']) => SPECIAL[who] ?? who],
    // A link's label is read, unless it is the address itself.
    [
      /<((?:https?|mailto):[^|>\s]+)(?:\|([^>]*))?>/g,
      ([, url = '', text]) => {
        const shown = text?.trim();
        return shown && !/^(?:https?|mailto):|^[\w.@-]+\.[a-z]{2,}(?:\/|$)/i.test(shown)
          ? shown
          : linkWords(url);
      },
    ],
    [/:skin-tone-\d:/g, () => ''],
    // A shortcode holds a letter, so a time (10:30:45) is left alone.
    [/(?<![\p{L}\p{N}]):([a-z0-9_+'-]*[a-z][a-z0-9_+'-]*):/gu, ([, name = '']) => emojiWords(name)],
    // Slack escapes these three in message text; a quote's marker is an escaped ">" at a line's start.
    [/^&gt;\s?/gm, () => ''],
    [/&(amp|lt|gt);/g, ([, entity = '']) => ENTITIES[entity] ?? ''],
  ];
}

/** The message's text as words to read aloud; empty when it holds none (a file alone). */
export function slackMessageWords(text: string, names: SlackNames): string {
  return messageWords(text, rules(names));
}
