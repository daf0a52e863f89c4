// How /schedule add is typed (console, Slack): its options, and the short form
// `"<when>" /weather Oslo units:imperial to:ops`, in which the command line starts at the first word
// beginning with "/". One table says where each of /schedule add's options may be typed.
import { z } from 'zod';
import { tokenize } from '../src/core/args.ts';
import { parseMentions } from '../src/domain/mentions.ts';
import { refusal } from '../src/errors.ts';
import { formatList } from '../src/format.ts';

export const ADD_OPTIONS = z.object({
  when: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('When: "every weekday at 07:30", "every 2 hours" or a cron expression'),
  command: z.string().trim().min(1).max(1000).describe('The command line, e.g. /weather Oslo units:imperial'),
  to: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .optional()
    .describe(
      'A configured destination, or me: a direct message to you (default: this channel, else default)',
    ),
  tz: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe('IANA time zone, e.g. Europe/Berlin (default: yours, else the channel’s, else SCHEDULE_TZ)'),
  only: z.enum(['new']).optional().describe('new: a watch, posting only what is new since its last post'),
  alert: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .describe('With only:new on /forecast: rain, snow, "below 0" or "above 30"'),
  preview: z
    .enum(['yes', 'no'])
    .optional()
    .describe('yes: run the command once now and show the post, without posting or adding it'),
  mode: z
    .enum(['edit', 'new'])
    .optional()
    .describe('edit: one post, edited in place by each run (a status board)'),
  thread: z
    .enum(['yes', 'no'])
    .optional()
    .describe('yes: the first run starts a thread, later runs reply in it'),
  skip: z
    .string()
    .trim()
    .regex(/^holidays:[a-z]{2}(-[a-z0-9]{1,3})?$/i, { message: 'scheduleRefusals:line.skip' })
    .optional()
    .describe('holidays:de, or holidays:de-by for a region: no post on its public holidays'),
  ping: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .refine((text) => parseMentions(text) !== undefined, { error: 'scheduleRefusals:line.ping' })
    .optional()
    .describe('Schedule admins only: the roles or users each post pings, e.g. @on-call'),
});

/**
 * Where each option may be typed in the short form: `anywhere` (before the command line, or after
 * it when the command has no option of that name), `before` the command line, or only `keyed`.
 */
const PLACES = {
  when: 'before',
  command: 'keyed',
  to: 'anywhere',
  tz: 'anywhere',
  only: 'before',
  alert: 'before',
  preview: 'anywhere',
  mode: 'anywhere',
  thread: 'anywhere',
  skip: 'anywhere',
  ping: 'anywhere',
} as const satisfies Record<keyof z.output<typeof ADD_OPTIONS>, 'anywhere' | 'before' | 'keyed'>;

type AddKey = keyof typeof PLACES;
const isAddKey = (key: string): key is AddKey => Object.hasOwn(PLACES, key);

const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '‘': '’' };

const givenTwice = (name: string) => refusal((t) => t('input:text.twice', { name }));

/** Where each word of `text` starts and ends; a quote opens a word or follows `key:`, as the grammar reads it. */
function wordSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    let close: string | undefined;
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (close !== undefined) {
        if (ch === '\\') i++;
        else if (ch === close) close = undefined;
      } else if (/\s/.test(ch)) break;
      else if (QUOTES[ch] !== undefined && (i === start || text[i - 1] === ':')) close = QUOTES[ch];
    }
    spans.push({ start, end: i });
  }
  return spans;
}

/**
 * The command line with /schedule's own options typed after it taken out: an option that may be
 * typed anywhere is /schedule's unless the command has an option of that name, in which case the
 * one sentence says where to put each.
 */
function takeTrailing(line: string, commandOptions: readonly string[], out: Record<string, string>): string {
  const spans = wordSpans(line);
  let kept = '';
  let from = 0;
  for (const span of spans.slice(1)) {
    const word = line.slice(span.start, span.end);
    const key = /^([A-Za-z]+):/.exec(word)?.[1]?.toLowerCase();
    if (key === undefined || !isAddKey(key) || PLACES[key] !== 'anywhere') continue;
    if (commandOptions.includes(key)) throw refusal((t) => t('scheduleRefusals:line.commandsOwn', { key }));
    if (Object.hasOwn(out, key)) throw givenTwice(key);
    out[key] = tokenize(word)[0]?.value ?? '';
    // The space before a word taken out goes with it; the rest of the line stays as typed.
    kept += line.slice(from, span.start).trimEnd();
    from = span.end;
  }
  return (kept + line.slice(from)).trim();
}

/** Where the command line starts in the short form: the first word beginning with "/" outside quotes. */
function commandStart(text: string): number {
  return wordSpans(text).find((s) => text[s.start] === '/')?.start ?? -1;
}

/**
 * The short form `"<when>" /weather Oslo units:imperial` (to:, tz:, only:, alert: and preview: may
 * come first; to:, tz: and preview: after the command too): the command line from the first word
 * starting with "/", its text verbatim but for /schedule's own options taken out. `optionsOf`
 * names the options of the line's command. Undefined for the keyed form.
 */
export function readShortForm(
  text: string,
  optionsOf: (line: string) => readonly string[] = () => [],
): Record<string, string> | undefined {
  if (/(^|\s)command:/i.test(text)) return undefined;
  const start = commandStart(text);
  if (start < 0) return undefined;
  const out: Record<string, string> = {};
  const typed = text.slice(start).trim();
  out.command = takeTrailing(typed, optionsOf(typed), out);
  const words: string[] = [];
  for (const token of tokenize(text.slice(0, start))) {
    if (token.key === undefined) {
      words.push(token.value);
      continue;
    }
    const key = token.key.toLowerCase();
    if (!isAddKey(key) || PLACES[key] === 'keyed') {
      const names = Object.keys(PLACES).filter((k) => PLACES[k as AddKey] !== 'keyed');
      const typed = token.key;
      throw refusal((t, locale) =>
        t('scheduleRefusals:line.noOption', { key: typed, names: formatList(names, 'and', locale) }),
      );
    }
    if (Object.hasOwn(out, key)) throw givenTwice(key);
    out[key] = token.value;
  }
  if (words.length > 0) {
    if (Object.hasOwn(out, 'when')) throw givenTwice('when');
    out.when = words.join(' ');
  }
  return out;
}
