// Read aloud's reader of Slack messages, on message text as Slack sends it in a message shortcut's
// `message.text`: user, channel and group mentions, special mentions, dates, links, emoji
// shortcodes, mrkdwn and its three escaped characters.
import { describe, expect, it } from 'vitest';
import {
  slackMentionIds,
  slackMessageWords as withPlaceholders,
} from '../../../adapters/slack/message-words.ts';
import { english } from '../../../src/i18n/translate.ts';
import { spokenWords } from '../../../src/message-words.ts';
import { plainTimes } from '../../../src/core/reply.ts';

/** The message's words as an English reader hears them: its placeholder words said (Read aloud does it). */
const slackMessageWords = (...args: Parameters<typeof withPlaceholders>) =>
  spokenWords(withPlaceholders(...args), english);

const NONE = { users: new Map<string, string>(), channels: new Map<string, string>() };
const NAMED = {
  users: new Map([['U0ALICE', 'Alice Liddell']]),
  channels: new Map([['C0PRIVATE', 'war-room']]),
};

const TEXT =
  '<@U0ALICE> can you look at <#C0INCIDENTS|incidents> and <#C0PRIVATE|>? <!here> ' +
  'the <https://ci.example.com/runs/42|run 42> failed :fire: :thumbsup::skin-tone-3: at 10:30:45, ' +
  'see <https://www.example.com/status> &amp; *fix* it by <!date^1795957200^{date_short} at {time}|Nov 29>\n' +
  '&gt; quoted _text_ with ~strike~\n' +
  '```npm test```';

describe('slackMentionIds', () => {
  it('lists the users and channels whose names the text does not carry, once each', () => {
    expect(slackMentionIds(`${TEXT} <@U0ALICE> <@W0BOB|bob>`)).toEqual({
      users: ['U0ALICE'],
      channels: ['C0PRIVATE'],
    });
  });
});

describe('slackMessageWords', () => {
  it('reads a realistic message with the names looked up', () => {
    const words = slackMessageWords(TEXT, NAMED);
    expect(plainTimes(words, 'UTC')).toBe(
      'Alice Liddell can you look at incidents and war-room? here the run 42 failed fire thumbsup at 10:30:45, ' +
        'see a link to example.com & fix it by Sun, 29 Nov 2026, 13:00 UTC. quoted text with strike. npm test.',
    );
    // Read aloud speaks the date in the reader's zone (their /settings tz).
    expect(plainTimes(words, 'America/New_York')).toContain('fix it by Sun, 29 Nov 2026, 08:00 GMT-5.');
  });

  it('says "someone" and "a channel" where no name was found, never the id', () => {
    const words = slackMessageWords(TEXT, NONE);
    expect(words).toMatch(/^someone can you look at incidents and a channel\?/);
    expect(words).not.toMatch(/U0ALICE|C0PRIVATE/);
  });

  it('reads labels carried in the token, groups and special mentions as words', () => {
    const text = '<@W0BOB|bob> <!subteam^S0ONCALL|@oncall> <!subteam^S0X> <!channel> <!everyone|@everyone>';
    expect(slackMessageWords(text, NONE)).toBe('bob oncall a group everyone in the channel everyone.');
  });

  it('reads a mail link as an email address and a link labelled with its address as the link', () => {
    const text = 'Write to <mailto:ops@example.com|ops@example.com> or <https://example.org/a|example.org/a>';
    expect(slackMessageWords(text, NONE)).toBe('Write to an email address or a link to example.org.');
  });

  it('gives nothing for a message that is only a file share or emoji', () => {
    expect(slackMessageWords('', NONE)).toBe('');
    expect(slackMessageWords('🎉', NONE)).toBe('');
  });
});
