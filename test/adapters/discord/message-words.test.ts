// Read aloud's reader of Discord messages, on messages as Discord puts them in a message command's
// `data.resolved.messages`: mentions, channels, roles, emoji, timestamps, links and markdown.
import type { APIMessage } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { plainTimes } from '../../../src/core/reply.ts';
import { discordMessageWords as withPlaceholders } from '../../../adapters/discord/message-words.ts';
import { english } from '../../../src/i18n/translate.ts';
import { spokenWords } from '../../../src/message-words.ts';
import { USER_ID, userMessage } from './fake-discord.ts';

/** The message's words as an English reader hears them: its placeholder words said (Read aloud does it). */
const discordMessageWords = (...args: Parameters<typeof withPlaceholders>) =>
  spokenWords(withPlaceholders(...args), english);

const ROLE_ID = '1187421520894746801';
const CHANNEL = '1187421520894746722';
const ADA = {
  id: USER_ID,
  username: 'ada',
  global_name: 'Ada Lovelace',
  discriminator: '0',
  avatar: null,
  public_flags: 0,
};

const message = (content: string, extra: Record<string, unknown> = {}) =>
  userMessage(content, extra) as unknown as APIMessage;

describe('discordMessageWords', () => {
  it('reads a mentioned member by nickname, else display name, else user name', () => {
    const text = `<@${USER_ID}> and <@!${USER_ID}> please`;
    expect(discordMessageWords(message(text, { mentions: [{ ...ADA, member: { nick: 'Ada' } }] }))).toBe(
      'Ada and Ada please.',
    );
    expect(discordMessageWords(message(text, { mentions: [ADA] }))).toBe(
      'Ada Lovelace and Ada Lovelace please.',
    );
    expect(discordMessageWords(message(text, { mentions: [{ ...ADA, global_name: null }] }))).toBe(
      'ada and ada please.',
    );
  });

  it('prefers the names the interaction resolves, and says "someone" for a user it cannot name', () => {
    const resolved = {
      users: { [USER_ID]: ADA },
      members: { [USER_ID]: { nick: 'Countess', roles: [], joined_at: '', permissions: '0', flags: 0 } },
    };
    const text = `<@${USER_ID}> meet <@80351110224679999>`;
    expect(discordMessageWords(message(text), resolved as never)).toBe('Countess meet someone.');
  });

  it('reads roles and channels by resolved name, else "a role" and "a channel", never the id', () => {
    const text = `<@&${ROLE_ID}> see <#${CHANNEL}> and <#1187421520894746799>, or <id:customize>`;
    const named = discordMessageWords(message(text, { mention_roles: [ROLE_ID] }), {
      roles: { [ROLE_ID]: { id: ROLE_ID, name: 'on-call' } },
      channels: { [CHANNEL]: { id: CHANNEL, name: 'incidents', type: 0 } },
    } as never);
    expect(named).toBe('on-call see incidents and a channel, or a channel.');
    const unnamed = discordMessageWords(message(text));
    expect(unnamed).toBe('a role see a channel and a channel, or a channel.');
    expect(unnamed).not.toMatch(/\d{17}/);
  });

  it("reads custom emoji by name, timestamps as dates in the reader's zone, command mentions and @everyone as words", () => {
    const text =
      'Shipped <:party_parrot:1187421520894748000><a:blob_dance:1187421520894748001> ' +
      'at <t:1795957200:F> (<t:1795957200:R>) via </schedule add:1187421520894748002> @everyone';
    const words = discordMessageWords(message(text));
    expect(plainTimes(words, 'UTC')).toBe(
      'Shipped party parrot blob dance at Sun, 29 Nov 2026, 13:00 UTC (Sun, 29 Nov 2026, 13:00 UTC) via /schedule add everyone.',
    );
    // Read aloud speaks them in the reader's zone (their /settings tz).
    expect(plainTimes(words, 'Asia/Tokyo')).toContain(' at Sun, 29 Nov 2026, 22:00 GMT+9 (');
  });

  it('reads links as their host or their label, and strips markdown around them', () => {
    const text =
      '**Runbook:** https://www.example.com/runbook?step=2 and [the board](https://trello.com/b/abc), ' +
      '<https://status.example.org/>, [https://x.io](https://x.io/a)\n> quoted _line_\n-# small print';
    expect(discordMessageWords(message(text))).toBe(
      'Runbook: a link to example.com and the board, a link to status.example.org, a link to x.io. quoted line. small print.',
    );
  });

  it('reads a bot message by its embeds when it has no content, and gives nothing for an image alone', () => {
    const embedded = message('', {
      embeds: [{ title: 'Weather in Paris', description: '**12 °C**, light rain' }],
    });
    expect(discordMessageWords(embedded)).toBe('Weather in Paris. 12 °C, light rain.');
    const image = message('', {
      attachments: [
        { id: '1', filename: 'cat.png', size: 10, url: 'https://cdn.discordapp.com/x', proxy_url: '' },
      ],
    });
    expect(discordMessageWords(image)).toBe('');
  });
});
