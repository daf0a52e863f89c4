import { describe, expect, it } from 'vitest';
import { english, translatorFor } from '../src/i18n/translate.ts';
import { emojiWords, linkWords as linkTokens, messageWords, spokenWords } from '../src/message-words.ts';

/** A link's words as an English reader hears them. */
const linkWords = (url: string) => spokenWords(linkTokens(url), english);

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

describe('spokenWords', () => {
  const tokens = ['https://www.example.com/a', 'mailto:ops@example.com', 'not a url']
    .map(linkTokens)
    .join(', ');

  it('says the placeholder words in the reader’s language', () => {
    expect(spokenWords(tokens, translatorFor('de'))).toBe(
      'ein Link zu example.com, eine E-Mail-Adresse, ein Link',
    );
    expect(spokenWords(tokens, translatorFor('fr'))).toBe(
      'un lien vers example.com, une adresse e-mail, un lien',
    );
  });

  it('drops a placeholder it does not know and stray markers, never saying a key', () => {
    expect(spokenWords('a \uE003constructor\uE004 b\uE004', english)).toBe('a  b');
  });
});
