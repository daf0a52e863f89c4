import { describe, expect, it } from 'vitest';
import { emojiWords, linkWords, messageWords } from '../src/message-words.ts';

describe('linkWords', () => {
  it('reads a web address as a link to its host, without www.', () => {
    expect(linkWords('https://www.example.com/a/b?c=1')).toBe('a link to example.com');
    expect(linkWords('http://status.herald.dev')).toBe('a link to status.herald.dev');
  });

  it('reads a mail address as an email address, and anything unreadable as a link', () => {
    expect(linkWords('mailto:ops@example.com')).toBe('an email address');
    expect(linkWords('not a url')).toBe('a link');
  });
});

describe('emojiWords', () => {
  it('reads a custom emoji name as words', () => {
    expect(emojiWords('party_parrot')).toBe('party parrot');
    expect(emojiWords('thumbs-up')).toBe('thumbs up');
  });
});

describe('messageWords', () => {
  it('strips markdown markers and keeps the words', () => {
    expect(messageWords('**Deploy** is _done_, ~~not~~ `v1.2` ||secret||', [])).toBe(
      'Deploy is done, not v1.2 secret.',
    );
  });

  it('reads code blocks, quotes, headings and lists as plain sentences', () => {
    const text = '# Release\n> quoted line\n- first\n- second\n```js\nconst a = 1;\n```';
    expect(messageWords(text, [])).toBe('Release. quoted line. first. second. const a = 1;');
  });

  it('keeps underscores inside words and in the words a rule gives', () => {
    const rules = [[/<name>/g, () => 'ada_lovelace']] as const;
    expect(messageWords('snake_case for <name>', rules)).toBe('snake_case for ada_lovelace.');
  });

  it('drops emoji and joins, and gives nothing for a message of emoji alone', () => {
    expect(messageWords('Ship it 🚀🎉 👍🏽', [])).toBe('Ship it.');
    expect(messageWords('🎉🎉', [])).toBe('');
    expect(messageWords('', [])).toBe('');
  });

  it('applies the rules in order, earlier words safe from later rules', () => {
    const rules = [
      [/<a>/g, () => 'the letter b'],
      [/b/g, () => 'bee'],
    ] as const;
    expect(messageWords('<a> and b', rules)).toBe('the letter b and bee.');
  });

  it('ignores stray private-use characters that look like its own placeholders', () => {
    expect(messageWords('a\uE0000\uE001b', [[/x/g, () => 'y']])).toBe('a0b.');
  });
});
