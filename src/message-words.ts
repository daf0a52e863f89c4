// A chat message as words to read aloud (Read aloud): what Discord's and Slack's readers share.
// Each platform's reader (adapters/discord/message-words.ts, adapters/slack/message-words.ts)
// names its own tokens (mentions, channels, emoji, links) as words; this module keeps those words
// apart while the markup around them is stripped, then makes the lines sentences. Pure.
// The words for what a reader cannot name ("someone", "a link to example.com") are written as
// tokens (placeholder) and said in the reader's language by Read aloud (spokenWords), as its times are.
import type { Translate } from './i18n/translate.ts';

/** A platform's token (a global pattern) and the words it is read as, from the match and its groups. */
export type WordRule = readonly [pattern: RegExp, words: (match: readonly (string | undefined)[]) => string];

// Private-use characters: never in a chat message's text after the control filter, and untouched
// by the markup rules below, so a name like "ada_lovelace" keeps its underscore.
const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';
const HELD_RE = new RegExp(`${HOLD_OPEN}(\\d+)${HOLD_CLOSE}`, 'g');
const WORD_OPEN = '\uE003';
const WORD_CLOSE = '\uE004';
const STRAY_HOLD_RE = new RegExp(`[${HOLD_OPEN}${HOLD_CLOSE}${WORD_OPEN}${WORD_CLOSE}]`, 'g');
const STRAY_WORD_RE = new RegExp(`[${WORD_OPEN}${WORD_CLOSE}]`, 'g');
const WORD_RE = new RegExp(`${WORD_OPEN}(\\w+)(?::([^${WORD_OPEN}${WORD_CLOSE}]*))?${WORD_CLOSE}`, 'g');

/** What a reader says for a mention, a link or an address it cannot name (speech:words). */
type PlaceholderWord =
  | 'someone'
  | 'aRole'
  | 'aChannel'
  | 'aGroup'
  | 'aLink'
  | 'anEmailAddress'
  | 'here'
  | 'everyone'
  | 'everyoneInChannel';

const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set<PlaceholderWord | 'aLinkTo'>([
  'someone',
  'aRole',
  'aChannel',
  'aGroup',
  'aLink',
  'aLinkTo',
  'anEmailAddress',
  'here',
  'everyone',
  'everyoneInChannel',
]);

/** The token of a placeholder word, said in the reader's language by spokenWords. */
export function placeholder(word: PlaceholderWord): string {
  return `${WORD_OPEN}${word}${WORD_CLOSE}`;
}

/** `text` with each placeholder word said by `t`: "someone", "jemand", "quelqu'un". */
export function spokenWords(text: string, t: Translate): string {
  return text
    .replace(WORD_RE, (_all, word: string, host: string | undefined) => {
      if (!PLACEHOLDER_WORDS.has(word)) return '';
      return word === 'aLinkTo'
        ? t('speech:words.aLinkTo', { host: host ?? '' })
        : t(`speech:words.${word as PlaceholderWord}`);
    })
    .replace(STRAY_WORD_RE, '');
}

/** A link as words: "a link to example.com" (its host, without www.), or "a link". */
export function linkWords(url: string): string {
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'mailto:') return placeholder('anEmailAddress');
    const host = hostname.replace(/^www\./, '');
    return host === '' ? placeholder('aLink') : `${WORD_OPEN}aLinkTo:${host}${WORD_CLOSE}`;
  } catch {
    return placeholder('aLink');
  }
}

/** A custom emoji's name as words: `party_parrot` → "party parrot". */
export function emojiWords(name: string): string {
  return name.replace(/[_-]+/g, ' ').trim();
}

/** Bare web addresses, where a platform leaves them unwrapped (Discord). */
export const BARE_URL_RE = /\bhttps?:\/\/[^\s<>|]+[^\s<>|.,;:!?)'"]/g;

// The markup both platforms use, as markers around text or at a line's start; the text stays.
const MARKUP: readonly [RegExp, string][] = [
  [/```(?:[a-z0-9+#-]+\n)?/gi, '\n'], // code fences, with a language tag
  [/`+/g, ''],
  [/^\s*(?:>>>|>|-#|#{1,3}(?=\s)|[-*•](?=\s)|\d+[.)](?=\s))\s*/gm, ''], // quotes, headings, subtext, lists
  [/\*+(?=\S)|(?<=\S)\*+/g, ''],
  [/(^|[^\p{L}\p{N}])_{1,2}(?=\S)|(?<=\S)_{1,2}(?![\p{L}\p{N}])/gu, '$1'],
  [/~+|\|\|/g, ''],
];

/** Marks and emoji read as nothing: a speech model says "face with tears of joy" or noise. */
const PICTOGRAPHS_RE =
  /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]\uFE0F?|\u200D|\uFE0F/gu;

/** Lines made sentences (a full stop where a line ends without one) and spaces collapsed. */
function sentences(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '' && /[\p{L}\p{N}]/u.test(line))
    .map((line) => (/[.!?;:…]$/u.test(line) ? line : `${line}.`))
    .join(' ')
    .replace(/\s+([,.;:!?)\]])/g, '$1')
    .replace(/([([])\s+/g, '$1');
}

/**
 * `text` read as words: each rule's matches replaced by its words (in rule order, earlier matches
 * held safe from later rules), the markup stripped around them, emoji dropped, lines made
 * sentences. The result may be empty (a message of emoji or an image alone).
 */
export function messageWords(text: string, rules: readonly WordRule[]): string {
  const held: string[] = [];
  let out = text.replace(STRAY_HOLD_RE, '');
  for (const [pattern, words] of rules) {
    out = out.replace(pattern, (...args: unknown[]) => {
      // replace() hands over the match, its groups, then the offset and the whole text.
      const offset = args.findIndex((a) => typeof a === 'number');
      held.push(words(args.slice(0, offset) as (string | undefined)[]));
      return `${HOLD_OPEN}${held.length - 1}${HOLD_CLOSE}`;
    });
  }
  for (const [pattern, replacement] of MARKUP) out = out.replace(pattern, replacement);
  out = out.replace(PICTOGRAPHS_RE, '');
  // Spaced, so two tokens side by side stay two words; sentences() collapses the spaces.
  out = out.replace(HELD_RE, (_all, n: string) => ` ${held[Number(n)] ?? ''} `);
  return sentences(out);
}
