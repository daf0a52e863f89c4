// Reply → Slack message (https://docs.slack.dev/reference/block-kit/blocks), pure: the one Slack
// renderer, for a slash command's answer, a bot post in a channel and an incoming-webhook post
// alike. Every limit is a named constant, every piece of reply text is escaped (slack-escape.ts),
// and a reply that would break a limit is split across blocks or shortened with a visible ellipsis
// and a note, never rejected. Files are described as data; the caller uploads them
// (files.uploadV2), or, where the message cannot carry files (an incoming webhook), one line says
// they were left out.
import {
  actionToCommandLine,
  mapReplyText,
  type Action,
  type Attachment,
  type Color,
  type Embed,
  type Reply,
} from '../core/reply.ts';
import { SLACK_LIMITS } from '../domain/slack.ts';
import {
  escapeMrkdwn,
  escapePlainText,
  formatMrkdwn,
  hasOpenFence,
  mrkdwnLink,
  safeLinkUrl,
  withFieldLink,
} from './slack-escape.ts';
import { withoutBidiControls } from './text-safety.ts';

// Block Kit's objects, the fields herald sets (no SDK here; Bolt's own types accept these).
export interface MrkdwnElement {
  type: 'mrkdwn';
  text: string;
  verbatim?: boolean;
}
export interface PlainTextElement {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}
export interface ImageElement {
  type: 'image';
  image_url: string;
  alt_text: string;
}
export interface SectionBlock {
  type: 'section';
  text?: MrkdwnElement;
  fields?: MrkdwnElement[];
  accessory?: ImageElement;
}
export interface HeaderBlock {
  type: 'header';
  text: PlainTextElement;
}
export interface ContextBlock {
  type: 'context';
  elements: MrkdwnElement[];
}
export interface DividerBlock {
  type: 'divider';
}
export interface Button {
  type: 'button';
  action_id: string;
  text: PlainTextElement;
  value: string;
}
export interface ActionsBlock {
  type: 'actions';
  elements: Button[];
}
export type KnownBlock = SectionBlock | HeaderBlock | ContextBlock | DividerBlock | ActionsBlock;

// Slack's documented limits are domain facts (src/domain/slack.ts); the names below are this renderer's.
/** Blocks per message (100 only in modals and Home tabs). */
export const MAX_BLOCKS = SLACK_LIMITS.blocks;
export const MAX_SECTION_TEXT = SLACK_LIMITS.sectionText;
export const MAX_SECTION_FIELDS = SLACK_LIMITS.sectionFields;
export const MAX_FIELD_TEXT = SLACK_LIMITS.fieldText;
export const MAX_HEADER_TEXT = SLACK_LIMITS.headerText;
export const MAX_CONTEXT_ELEMENTS = SLACK_LIMITS.contextElements;
export const MAX_CONTEXT_TEXT = SLACK_LIMITS.contextText;
export const MAX_ACTION_ELEMENTS = SLACK_LIMITS.actionElements;
export const MAX_BUTTON_TEXT = SLACK_LIMITS.buttonText;
export const MAX_BUTTON_VALUE = SLACK_LIMITS.buttonValue;
export const MAX_IMAGE_URL = SLACK_LIMITS.imageUrl;
/** The message's `text`: shown in notifications; Slack truncates at 40k, readable stays short. */
export const MAX_FALLBACK_TEXT = 3000;
/**
 * Slack answers msg_blocks_too_long at ~13.2k characters of block content (bolt-js #2509,
 * undocumented), so the whole blocks array, measured as JSON, stays under this.
 */
export const MAX_BLOCKS_JSON = SLACK_LIMITS.blocksJson;
/** Room kept for buttons inside MAX_BLOCKS_JSON, so content cannot crowd them out. */
export const MAX_ACTIONS_JSON = 6_000;
/** Buttons across actions blocks; Slack allows 25 per block. */
export const MAX_BUTTONS = 50;
/** Names are shortened so a field's value keeps most of its 2000 characters. */
const MAX_FIELD_NAME = 200;
/** A section is only shortened into the remaining room when that leaves something readable. */
const MIN_PARTIAL_SECTION = 200;
const NOTE_RESERVE_JSON = 400;

export const ELLIPSIS = '…';
export const ACTION_ID_PREFIX = 'herald:run:';

const COLOR_MARK: Readonly<Record<Color, string>> = {
  info: '',
  success: '✅ ',
  warning: '⚠️ ',
  error: '❌ ',
};

export interface SlackMessage {
  /** Fallback for notifications and clients without blocks. */
  text: string;
  blocks: KnownBlock[];
}

/** A file to upload beside the message (files.uploadV2), its name and alt text cleaned like the text. */
export interface SlackFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  /** Alt text. */
  description?: string;
}

/** The message, and the files to share in the channel after it (empty when it cannot carry them). */
export interface SlackRendered extends SlackMessage {
  files: SlackFile[];
}

export interface SlackRenderOptions {
  /**
   * `upload` (the default): files go beside the message; `none`: the message cannot carry files
   * (an incoming webhook), so one line says which were left out.
   */
  files?: 'upload' | 'none';
  /** Buttons need an app to answer their clicks; an incoming webhook's post lists the commands instead. */
  buttons?: boolean;
}

export interface ActionPayload {
  command: string;
  input: Record<string, string | number | boolean>;
}

/** Shortens to `max` characters with a visible ellipsis, never splitting an entity or a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - ELLIPSIS.length);
  const amp = text.lastIndexOf('&', cut - 1);
  if (amp !== -1) {
    const entity = /^&(?:amp|lt|gt);/.exec(text.slice(amp));
    if (entity && amp + entity[0].length > cut) cut = amp;
  }
  const before = text.charCodeAt(cut - 1);
  if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
  return text.slice(0, cut) + ELLIPSIS;
}

/** Splits escaped text into pieces of at most `max`, preferring line and word breaks. */
export function splitText(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut < max / 2) cut = rest.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    const amp = rest.lastIndexOf('&', cut - 1);
    if (
      amp !== -1 &&
      amp > cut - 5 &&
      /^&(?:amp|lt|gt);/.test(rest.slice(amp)) &&
      !rest.startsWith(';', cut - 1)
    ) {
      cut = amp;
    }
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[ \n]/, '');
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

const FENCE = '```';

/** truncate for mrkdwn: a code block the cut would leave open is closed. */
export function truncateMrkdwn(text: string, max: number): string {
  const cut = truncate(text, max);
  if (cut === text || !hasOpenFence(cut)) return cut;
  const shorter = truncate(text, max - FENCE.length - 1);
  return hasOpenFence(shorter) ? `${shorter}\n${FENCE}` : shorter;
}

/** splitText for mrkdwn: a code block crossing a split is closed and reopened. */
export function splitMrkdwn(text: string, max: number): string[] {
  if (!text.includes(FENCE)) return splitText(text, max);
  let isOpen = false;
  return splitText(text, max - 2 * (FENCE.length + 1)).map((piece) => {
    let out = isOpen ? `${FENCE}\n${piece}` : piece;
    isOpen = hasOpenFence(out);
    if (isOpen) out = `${out}\n${FENCE}`;
    return out;
  });
}

/** The button value: {command, input} as JSON, or undefined when Slack's 2000 characters cannot hold it. */
export function encodeActionValue(action: Action): string | undefined {
  const value = JSON.stringify({ command: action.command, input: action.input } satisfies ActionPayload);
  return value.length <= MAX_BUTTON_VALUE ? value : undefined;
}

export function decodeActionValue(value: string | undefined): ActionPayload | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { command, input } = parsed as { command?: unknown; input?: unknown };
  if (typeof command !== 'string' || typeof input !== 'object' || input === null || Array.isArray(input)) {
    return undefined;
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (!entries.every(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))) return undefined;
  return { command, input: Object.fromEntries(entries) as ActionPayload['input'] };
}

function mrkdwn(text: string): MrkdwnElement {
  // verbatim: Slack does not auto-link URLs or channel names or parse mentions in this text.
  return { type: 'mrkdwn', text, verbatim: true };
}

function textSections(escaped: string): SectionBlock[] {
  return splitMrkdwn(escaped, MAX_SECTION_TEXT).map((piece) => ({ type: 'section', text: mrkdwn(piece) }));
}

function fieldText({ name, value, link }: NonNullable<Embed['fields']>[number]): string | undefined {
  const n = truncate(escapeMrkdwn(name.replace(/\s+/g, ' ').trim()), MAX_FIELD_NAME);
  const v = formatMrkdwn(value.trim());
  if (!n && !v) return undefined;
  const head = n ? `*${n}*\n` : '';
  return head + withFieldLink(v || '—', link, MAX_FIELD_TEXT - head.length, truncateMrkdwn);
}

function contextBlock(embed: Embed): ContextBlock | undefined {
  const elements: MrkdwnElement[] = [];
  if (embed.url) {
    const href = safeLinkUrl(embed.url);
    if (href !== undefined) {
      const link = `🔗 ${mrkdwnLink(embed.url, new URL(embed.url).host)}`;
      if (link.length <= MAX_CONTEXT_TEXT) elements.push(mrkdwn(link));
    }
  }
  if (embed.footer?.trim()) elements.push(mrkdwn(truncate(escapeMrkdwn(embed.footer), MAX_CONTEXT_TEXT)));
  if (embed.timestamp) {
    const ms = Date.parse(embed.timestamp);
    const fallback = escapeMrkdwn(embed.timestamp);
    elements.push(
      mrkdwn(
        Number.isFinite(ms)
          ? `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${truncate(fallback, 100)}>`
          : truncate(fallback, MAX_CONTEXT_TEXT),
      ),
    );
  }
  return elements.length > 0
    ? { type: 'context', elements: elements.slice(0, MAX_CONTEXT_ELEMENTS) }
    : undefined;
}

function embedBlocks(embed: Embed): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const mark = embed.color ? COLOR_MARK[embed.color] : '';
  const title = embed.title?.replace(/\s+/g, ' ').trim();
  if (title) {
    blocks.push({
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncate(mark + escapePlainText(title), MAX_HEADER_TEXT),
        emoji: true,
      },
    });
  }
  const description = embed.description?.trim();
  if (description) {
    const sections = textSections((title ? '' : mark) + formatMrkdwn(description));
    const thumb = embed.thumbnail;
    if (thumb && safeLinkUrl(thumb) !== undefined && thumb.length <= MAX_IMAGE_URL && sections[0]) {
      sections[0].accessory = { type: 'image', image_url: thumb, alt_text: 'thumbnail' };
    }
    blocks.push(...sections);
  }
  const fields = (embed.fields ?? []).map(fieldText).filter((f) => f !== undefined);
  for (let i = 0; i < fields.length; i += MAX_SECTION_FIELDS) {
    blocks.push({ type: 'section', fields: fields.slice(i, i + MAX_SECTION_FIELDS).map(mrkdwn) });
  }
  const context = contextBlock(embed);
  if (context) blocks.push(context);
  return blocks;
}

function actionBlocks(actions: readonly Action[]): { blocks: KnownBlock[]; dropped: number } {
  const buttons: Button[] = [];
  let size = 0;
  for (const [i, action] of actions.entries()) {
    const value = encodeActionValue(action);
    if (value === undefined || buttons.length >= MAX_BUTTONS) continue;
    const label = escapePlainText(action.label.replace(/\s+/g, ' ').trim()) || action.command;
    const button: Button = {
      type: 'button',
      action_id: `${ACTION_ID_PREFIX}${i}`,
      text: { type: 'plain_text', text: truncate(label, MAX_BUTTON_TEXT), emoji: true },
      value,
    };
    const buttonSize = JSON.stringify(button).length + 1;
    if (size + buttonSize > MAX_ACTIONS_JSON) continue;
    size += buttonSize;
    buttons.push(button);
  }
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < buttons.length; i += MAX_ACTION_ELEMENTS) {
    blocks.push({ type: 'actions', elements: buttons.slice(i, i + MAX_ACTION_ELEMENTS) });
  }
  return { blocks, dropped: actions.length - buttons.length };
}

function jsonSize(value: unknown): number {
  return JSON.stringify(value).length;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Fits content blocks into what the buttons and the note leave of the block and size budgets. */
function fit(
  content: KnownBlock[],
  roomBlocks: number,
  roomJson: number,
): { kept: KnownBlock[]; omitted: number } {
  const kept: KnownBlock[] = [];
  let used = 2; // the array's brackets
  for (const [i, block] of content.entries()) {
    const size = jsonSize(block) + 1;
    if (kept.length < roomBlocks && used + size <= roomJson) {
      kept.push(block);
      used += size;
      continue;
    }
    let isPartial = false;
    if (kept.length < roomBlocks && block.type === 'section' && block.text) {
      // JSON escaping makes a text longer than its characters, so shrink until the block fits.
      let max = roomJson - used - 100;
      while (max >= MIN_PARTIAL_SECTION) {
        const partial: SectionBlock = {
          type: 'section',
          text: { ...block.text, text: truncateMrkdwn(block.text.text, max) },
        };
        const over = used + jsonSize(partial) + 1 - roomJson;
        if (over <= 0) {
          kept.push(partial);
          isPartial = true;
          break;
        }
        max -= over;
      }
    }
    const rest = content.slice(isPartial ? i + 1 : i).filter((b) => b.type !== 'divider');
    return { kept, omitted: rest.length };
  }
  return { kept, omitted: 0 };
}

/** Actions as one context block of commands to type, for a message whose buttons no one would answer. */
function hintBlocks(actions: readonly Action[]): { blocks: KnownBlock[]; dropped: number } {
  const lines = actions.slice(0, MAX_CONTEXT_ELEMENTS).map((action) => {
    const label = action.label.replace(/\s+/g, ' ').trim() || 'More';
    const command = actionToCommandLine(action).replaceAll('`', "'");
    return mrkdwn(truncateMrkdwn(formatMrkdwn(`${label}: \`${command}\``), MAX_CONTEXT_TEXT));
  });
  return {
    blocks: lines.length === 0 ? [] : [{ type: 'context', elements: lines }],
    dropped: actions.length - lines.length,
  };
}

function slackFile({ filename, contentType, bytes, description }: Attachment): SlackFile {
  const file: SlackFile = { filename, contentType, bytes };
  if (description?.trim()) file.description = truncate(description, SLACK_LIMITS.fileAltText);
  return file;
}

/** The Reply as a Slack message and the files to share beside it; never a payload Slack would reject. */
export function renderSlack(shown: Reply, options: SlackRenderOptions = {}): SlackRendered {
  // Bidi controls could reorder what readers see: gone from every piece of text, file names included.
  const reply = mapReplyText(shown, withoutBidiControls);
  const embeds = reply.embeds ?? [];
  const content: KnownBlock[] = [];
  const text = reply.text.trim();
  if (text) content.push(...textSections(formatMrkdwn(text)));
  for (const [i, embed] of embeds.entries()) {
    if (i > 0 || content.length > 0) content.push({ type: 'divider' });
    content.push(...embedBlocks(embed));
  }

  const notes: string[] = [];
  const attachments = reply.attachments ?? [];
  const canShare = options.files !== 'none' && !reply.ephemeral;
  const tooLarge = canShare ? attachments.filter((a) => a.bytes.length > SLACK_LIMITS.fileBytes) : [];
  if (tooLarge.length > 0)
    notes.push(`Not shared, larger than Slack takes: ${tooLarge.map((a) => a.filename).join(', ')}.`);
  if (attachments.length > 0 && options.files === 'none') {
    const names = attachments.map((a) => a.filename).join(', ');
    notes.push(
      `${plural(attachments.length, 'file')} left out (${names}): a Slack incoming webhook cannot carry files.`,
    );
  } else if (attachments.length > 0 && reply.ephemeral) {
    notes.push(
      `${plural(attachments.length, 'file')} not shared: Slack can only share files in the channel, and this reply is private.`,
    );
  }
  const actions =
    options.buttons === false ? hintBlocks(reply.actions ?? []) : actionBlocks(reply.actions ?? []);
  const actionsJson = actions.blocks.reduce((n, b) => n + jsonSize(b) + 1, 0);
  const { kept, omitted } = fit(
    content,
    MAX_BLOCKS - actions.blocks.length - 1,
    MAX_BLOCKS_JSON - actionsJson - NOTE_RESERVE_JSON,
  );
  if (omitted > 0)
    notes.push(`${ELLIPSIS} Reply shortened to fit Slack's limits: ${plural(omitted, 'part')} not shown.`);
  if (actions.dropped > 0) notes.push(`${plural(actions.dropped, 'button')} left out: too large for Slack.`);

  const blocks: KnownBlock[] = [...kept];
  while (blocks.at(-1)?.type === 'divider') blocks.pop();
  if (notes.length > 0)
    blocks.push({
      type: 'context',
      elements: [mrkdwn(truncate(escapeMrkdwn(notes.join(' ')), MAX_CONTEXT_TEXT))],
    });
  blocks.push(...actions.blocks);

  const fallback =
    text || embeds.find((e) => e.title)?.title || embeds.find((e) => e.description)?.description;
  return {
    text: truncateMrkdwn(formatMrkdwn(fallback?.trim() || 'herald'), MAX_FALLBACK_TEXT),
    blocks,
    files: canShare ? attachments.filter((a) => !tooLarge.includes(a)).map(slackFile) : [],
  };
}
