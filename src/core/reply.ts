// The platform-neutral reply model (docs/CONVENTIONS.md, "Replies and rendering"). Commands return
// it; each adapter's pure renderer turns it into the platform's payload and keeps the platform's
// limits.
import type { Mention } from '../domain/mentions.ts';
import type { Language } from '../domain/preferences.ts';
import { formatInZone, formatIsoDateTime } from '../format.ts';
import { redactText, redactValue } from '../redact.ts';

/** Palette tokens; each renderer maps them to its own colours. */
export type Color = 'info' | 'success' | 'warning' | 'error';

/**
 * A link herald itself makes (never one found in user or provider text): `label` shown as a link
 * to `url`, an http(s) address. Each renderer draws it as its platform's link.
 */
export interface Link {
  label: string;
  url: string;
}

export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
  /** Shown after the value: a link to what the field is about (a posted message). */
  link?: Link;
}

export interface Embed {
  title?: string;
  url?: string;
  description?: string;
  color?: Color;
  fields?: EmbedField[];
  footer?: string;
  /**
   * When the embed's subject happened: a time value (timeValue), which Discord shows in each reader's
   * zone, Slack as a date token, and where neither renders as its plain text; or ISO 8601 (UTC text).
   */
  timestamp?: string;
  thumbnail?: string;
  /** The embed's picture: the filename of one of the reply's attachments (a chart PNG). */
  image?: string;
}

export interface Attachment {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  /** Alt text (an image's text alternative), where the platform takes one. */
  description?: string;
}

/** A button that re-invokes a command with the given input (e.g. the next page of /jobs). */
export interface Action {
  label: string;
  command: string;
  input: Record<string, string | number | boolean>;
  /** Opens the command's form filled in with `input` instead of running it (src/core/form.ts). */
  opensForm?: boolean;
  /**
   * Asked before the command runs, where the platform has a confirm dialog on a button (Slack's
   * Block Kit `confirm`): its question, and the words of the buttons that go ahead and that back out.
   */
  confirm?: { question: string; yes: string; no: string };
}

/** One text field of a form: an option of the command, or its further options as typed. */
export interface FormField {
  /** The option's name, or `more` for the further options; the platform hands it back on submit. */
  name: string;
  label: string;
  /** Shown in the empty field: the option's description. */
  hint: string;
  isRequired: boolean;
  maxLength: number;
  isLong: boolean;
  value?: string;
}

/** A form for a command (`/schedule add` with no arguments): each platform draws it as its own. */
export interface Form {
  /** The command a submit runs. */
  command: string;
  title: string;
  fields: FormField[];
}

/** One entry of a Home: its heading, its lines, and its own buttons. */
export interface HomeItem {
  title: string;
  lines: string[];
  actions: Action[];
}

/**
 * A page of the app's own, drawn instead of a message where the platform has one (Slack's App Home
 * tab): its title, what it is about, its entries with their buttons, the buttons under them, and
 * closing notes (how many more exist).
 */
export interface Home {
  title: string;
  intro: string;
  /** The language its words are in (the reader's), so that what the adapter says above it matches. */
  language: Language;
  items: HomeItem[];
  actions: Action[];
  notes: string[];
}

export interface Reply {
  /** Always set: the fallback for the console and for notifications. */
  text: string;
  /**
   * herald's own line above the whole reply (a preview's "not posted"): every renderer shows it
   * first and once, with or without embeds.
   */
  heading?: string;
  embeds?: Embed[];
  attachments?: Attachment[];
  actions?: Action[];
  /** A form to open instead of a message, where the platform has forms (`text` says what to type elsewhere). */
  form?: Form;
  /** A Home to publish instead of a message (asked for by the Home tab, `surface: 'home'`). */
  home?: Home;
  /** Only the invoker sees it. */
  ephemeral?: boolean;
  /** A failure's answer: the short reference its text quotes and its log line carries. */
  failureRef?: string;
  /**
   * Set by the command when its answer is no answer: it refused the input (`refused`), or found
   * nothing for its main input (`not-found`: a city, a host, an email id). Shown as it is when typed;
   * a scheduled run with it fails with this text instead of posting it. An empty listing is an answer.
   */
  outcome?: 'refused' | 'not-found';
  /**
   * Who this post pings, set only from a schedule's `ping:` (a schedule admin's): each renderer
   * writes its platform's mentions first and pings exactly those, in a post (never in a private answer).
   */
  mentions?: readonly Mention[];
}

export const COLOR_HEX: Readonly<Record<Color, number>> = {
  info: 0x3b82f6,
  success: 0x22c55e,
  warning: 0xf59e0b,
  error: 0xef4444,
};

/** A time value's look: `f` its date and time; `fR` and, where the platform writes it, how far from now. */
type TimeStyle = 'f' | 'fR';

/**
 * A point in time inside a reply's text. Each renderer writes it its platform's way
 * (src/render/time.ts): a time token where the platform shows each reader their own local time
 * (Discord's `<t:…>`, Slack's `<!date^…>`), else as plain text in `zone`, the reader's (or a
 * scheduled post's). Carried between private-use characters, which no renderer's escaping touches.
 */
export function timeValue(at: Date, zone: string, style: TimeStyle = 'f', locale?: string): string {
  return `\uE000${Math.floor(at.getTime() / 1000)}:${style}\uE001${formatInZone(at, zone, locale)}\uE002`;
}

/** A time value as timeValue writes it: its Unix seconds, its style and its plain text. */
export const TIME_VALUE_RE = /\uE000(-?\d{1,13}):(fR|f)\uE001([^\uE000-\uE002]*)\uE002/g;

/**
 * `text` with each time value as plain text in `zone` (and `locale`), and no marker left: a message
 * Read aloud reads, its times in the words of the reader's zone and language.
 */
export function plainTimes(text: string, zone: string, locale?: string): string {
  return text
    .replace(TIME_VALUE_RE, (_, unix: string) => formatInZone(new Date(Number(unix) * 1000), zone, locale))
    .replace(/[\uE000-\uE002]/g, '');
}

/**
 * An embed's timestamp (Embed.timestamp): its instant in Unix seconds and its plain text, that of
 * its time value, or in UTC for a bare ISO 8601 instant (an embed read back from a posted message).
 * Undefined when it is neither.
 */
export function embedTime(timestamp: string): { unix: number; text: string } | undefined {
  const value = new RegExp(`^${TIME_VALUE_RE.source}$`).exec(timestamp);
  if (value) return { unix: Number(value[1]), text: value[3]! };
  const text = formatIsoDateTime(timestamp);
  return text === timestamp ? undefined : { unix: Math.floor(Date.parse(timestamp) / 1000), text };
}

/** Renders an Action as the console line that runs it: `/jobs what:"rust dev" page:3`. */
export function actionToCommandLine(action: Action): string {
  const parts = [`/${action.command}`];
  for (const [key, value] of Object.entries(action.input)) {
    const text = String(value);
    parts.push(
      /[\s"]/.test(text) || text === '' ? `${key}:"${text.replaceAll('"', '\\"')}"` : `${key}:${text}`,
    );
  }
  return parts.join(' ');
}

/**
 * An action as a line to type, for a message whose buttons no one would answer:
 * ``Next: `/jobs page:2` ``. A backtick in the command becomes `'`, so the code span holds.
 */
export function actionHintLine(action: Action): string {
  const label = action.label.replace(/\s+/g, ' ').trim() || 'More';
  return `${label}: \`${actionToCommandLine(action).replaceAll('`', "'")}\``;
}

/** The embed's own texts: what a person sees, and `image`, which names one of the reply's files. */
const EMBED_TEXT_KEYS = ['title', 'url', 'description', 'footer', 'thumbnail', 'image'] as const;

/** Buttons' labels, confirm questions and string inputs, mapped. */
function mapActions(actions: readonly Action[], fn: (text: string) => string): Action[] {
  return actions.map((a) => ({
    ...a,
    label: fn(a.label),
    input: Object.fromEntries(
      Object.entries(a.input).map(([k, v]) => [k, typeof v === 'string' ? fn(v) : v]),
    ),
    ...(a.confirm
      ? { confirm: { question: fn(a.confirm.question), yes: fn(a.confirm.yes), no: fn(a.confirm.no) } }
      : {}),
  }));
}

/**
 * The one walker of a reply's text: the reply with `fn` applied to every piece of text it shows or
 * sends (text; embeds' texts and fields, their links included; attachments' filenames and alt
 * text; buttons' labels, confirm questions and string inputs; a Home's texts; a form's title, labels, hints and values). Redaction and the platforms' control-character
 * cleaning both go through it, so they cover the same fields. An embed's `image` is mapped like the filename it names, so the two
 * still match afterwards.
 */
export function mapReplyText(reply: Reply, fn: (text: string) => string): Reply {
  const opt = (text: string | undefined): string | undefined => (text === undefined ? undefined : fn(text));
  const out: Reply = { ...reply, text: fn(reply.text) };
  if (reply.heading !== undefined) out.heading = fn(reply.heading);
  if (reply.embeds) {
    out.embeds = reply.embeds.map((e) => {
      const embed: Embed = { ...e };
      for (const key of EMBED_TEXT_KEYS) {
        const text = opt(e[key]);
        if (text !== undefined) embed[key] = text;
      }
      if (e.fields)
        embed.fields = e.fields.map((f) => ({
          ...f,
          name: fn(f.name),
          value: fn(f.value),
          ...(f.link ? { link: { label: fn(f.link.label), url: fn(f.link.url) } } : {}),
        }));
      return embed;
    });
  }
  if (reply.attachments) {
    out.attachments = reply.attachments.map((a) => {
      const attachment: Attachment = { ...a, filename: fn(a.filename) };
      const description = opt(a.description);
      if (description !== undefined) attachment.description = description;
      return attachment;
    });
  }
  if (reply.actions) out.actions = mapActions(reply.actions, fn);
  if (reply.home) {
    const { home } = reply;
    out.home = {
      title: fn(home.title),
      intro: fn(home.intro),
      language: home.language,
      items: home.items.map((item) => ({
        title: fn(item.title),
        lines: item.lines.map(fn),
        actions: mapActions(item.actions, fn),
      })),
      actions: mapActions(home.actions, fn),
      notes: home.notes.map(fn),
    };
  }
  if (reply.form) {
    out.form = {
      ...reply.form,
      title: fn(reply.form.title),
      fields: reply.form.fields.map((f) => ({
        ...f,
        label: fn(f.label),
        hint: fn(f.hint),
        ...(f.value === undefined ? {} : { value: fn(f.value) }),
      })),
    };
  }
  return out;
}

/**
 * Every piece of text mapReplyText visits, one per line: one string to scan when most replies need
 * nothing blanked.
 */
export function replyText(reply: Reply): string {
  const pieces: string[] = [];
  mapReplyText(reply, (text) => {
    pieces.push(text);
    return text;
  });
  return pieces.join('\n');
}

/** One autocomplete suggestion: what the user sees and the value the option takes. */
export interface Choice {
  name: string;
  value: string;
}

/**
 * What leaves for chat: a configured secret echoed by an upstream (a city, a job title) never does.
 * redactValue hands back the reply itself when none of its strings needs blanking (nearly all
 * replies), having copied nothing and joined nothing (a joined copy of its text cost 1.7 KB a
 * command); only a reply that does is mapped, over the fields the renderers' cleaning covers.
 */
export function redactReply(reply: Reply): Reply {
  return redactValue(reply) === reply ? reply : mapReplyText(reply, redactText);
}
