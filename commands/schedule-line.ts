// /schedule add's options, and those of them typed after the command line. `command` takes a
// command line (src/core/options.ts), so the shared grammar reads the short form
// `"<when>" /weather Oslo units:imperial to:ops` with the line from "/weather" on, as typed; the
// schedule's own options typed in that line (`to:ops`) are taken out of it here.
import { z } from 'zod';
import { tokenize } from '../src/core/args.ts';
import { parseMentions } from '../src/domain/mentions.ts';
import { refusal } from '../src/errors.ts';

export const ADD_OPTIONS = z.object({
  when: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('When: "every weekday at 07:30", "every 2 hours" or a cron expression'),
  command: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('The command line, e.g. /weather Oslo units:imperial')
    .meta({ commandLine: true }),
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
 * The options of /schedule add that may also be typed after the command line, where they are the
 * schedule's unless the command has an option of that name; when: typed there is the command's text.
 */
const TRAILING: ReadonlySet<string> = new Set([
  'to',
  'tz',
  'only',
  'alert',
  'preview',
  'mode',
  'thread',
  'skip',
  'ping',
] satisfies (keyof z.output<typeof ADD_OPTIONS>)[]);

const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '‘': '’' };

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
 * `input` with /schedule's own options typed after its command line taken out of the line, their
 * values as typed, for readInput to check like any typed option. The rest of the line stays as
 * typed. A name the line's command has too (`commandOptions`) is refused in one sentence saying
 * where to put each, and one also given before the line (or in its own field) is given twice.
 */
export function takeTrailingOptions(
  input: Readonly<Record<string, unknown>>,
  commandOptions: readonly string[],
): Record<string, unknown> {
  const line = typeof input.command === 'string' ? input.command : '';
  const out: Record<string, unknown> = { ...input };
  let kept = '';
  let from = 0;
  for (const span of wordSpans(line).slice(1)) {
    const word = line.slice(span.start, span.end);
    const key = /^([A-Za-z]+):/.exec(word)?.[1]?.toLowerCase();
    if (key === undefined || !TRAILING.has(key)) continue;
    if (commandOptions.includes(key)) throw refusal((t) => t('scheduleRefusals:line.commandsOwn', { key }));
    if (out[key] !== undefined) throw refusal((t) => t('input:text.twice', { name: key }));
    out[key] = tokenize(word)[0]?.value ?? '';
    // The space before a word taken out goes with it; the rest of the line stays as typed.
    kept += line.slice(from, span.start).trimEnd();
    from = span.end;
  }
  out.command = (kept + line.slice(from)).trim();
  return out;
}
