// Reply → Slack message (https://docs.slack.dev/reference/block-kit/blocks), pure: the one Slack
// renderer, for a slash command's answer, a bot post in a channel and an incoming-webhook post
// alike. Every limit is a named constant (slack-payload.ts), every piece of reply text is escaped
// (slack-escape.ts), and a reply that would break a limit is split across blocks or shortened with a
// visible ellipsis and a note, never rejected. Files are described as data; the caller uploads them
// (files.uploadV2), or, where the message cannot carry files (an incoming webhook), one line says
// they were left out. The parts: slack-embeds.ts, slack-actions.ts, slack-text.ts (cutting).
import { mapReplyText, type Attachment, type Reply } from '../core/reply.ts';
import { escapeMrkdwn, formatMrkdwn } from './slack-escape.ts';
import { withoutControls } from './text-safety.ts';
import { SLACK_LIMITS } from '../domain/slack.ts';
import { mentionToken } from '../domain/mentions.ts';
import { ELLIPSIS } from '../domain/text.ts';
import {
  MAX_BLOCKS,
  MAX_BLOCKS_JSON,
  MAX_CONTEXT_TEXT,
  MAX_FALLBACK_TEXT,
  MAX_FIELD_TEXT,
  MAX_SECTION_TEXT,
  mrkdwn,
  type KnownBlock,
  type SectionBlock,
  type SlackFile,
  type SlackRendered,
} from './slack-payload.ts';
import { truncate } from '../domain/text.ts';
import { truncateMrkdwn } from './slack-text.ts';
import { embedBlocks, textSections } from './slack-embeds.ts';
import { actionBlocks, hintBlocks } from './slack-actions.ts';
import { writeTimes } from './time.ts';

// The message types callers send on and the button value the adapter reads back; the limits and
// the parts are imported from their own modules.
export type { SlackFile, SlackMessage, SlackRendered } from './slack-payload.ts';
export { ACTION_ID_PREFIX, decodeActionValue } from './slack-actions.ts';

/** A section is only shortened into the remaining room when that leaves something readable. */
const MIN_PARTIAL_SECTION = 200;
const NOTE_RESERVE_JSON = 400;

interface SlackRenderOptions {
  /**
   * `upload` (the default): files go beside the message; `none`: the message cannot carry files
   * (an incoming webhook), so one line says which were left out.
   */
  files?: 'upload' | 'none';
  /** Buttons need an app to answer their clicks; an incoming webhook's post lists the commands instead. */
  buttons?: boolean;
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

/**
 * Escaped mrkdwn with its time values as Slack's date tokens, or as plain text where the tokens
 * would take it past `max` (a token is longer than the value it replaces).
 */
export function mrkdwnTimes(text: string, max: number): string {
  const tokens = writeTimes(text, 'slack');
  return tokens.length <= max ? tokens : writeTimes(text, 'plain');
}

/** A block's time values written: tokens in mrkdwn, plain text in a header's plain_text. */
function blockTimes(block: KnownBlock): KnownBlock {
  if (block.type === 'header')
    return { ...block, text: { ...block.text, text: writeTimes(block.text.text, 'plain') } };
  if (block.type === 'context')
    return {
      ...block,
      elements: block.elements.map((e) => ({ ...e, text: mrkdwnTimes(e.text, MAX_CONTEXT_TEXT) })),
    };
  if (block.type !== 'section') return block;
  const out: SectionBlock = { ...block };
  if (block.text) out.text = { ...block.text, text: mrkdwnTimes(block.text.text, MAX_SECTION_TEXT) };
  if (block.fields)
    out.fields = block.fields.map((f) => ({ ...f, text: mrkdwnTimes(f.text, MAX_FIELD_TEXT) }));
  return out;
}

function slackFile({ filename, contentType, bytes, description }: Attachment): SlackFile {
  const file: SlackFile = { filename, contentType, bytes };
  if (description?.trim()) file.description = truncate(description, SLACK_LIMITS.fileAltText);
  return file;
}

/** The Reply as a Slack message and the files to share beside it; never a payload Slack would reject. */
export function renderSlack(shown: Reply, options: SlackRenderOptions = {}): SlackRendered {
  // Control characters could hide or reorder what readers see: gone from every piece of text, file
  // names included.
  const reply = mapReplyText(shown, withoutControls);
  const embeds = reply.embeds ?? [];
  const content: KnownBlock[] = [];
  const text = reply.text.trim();
  // A schedule's ping: only, written by herald from checked ids; every other text is escaped.
  const pings = (reply.mentions ?? [])
    .filter((m) => m.platform === 'slack')
    .map(mentionToken)
    .join(' ');
  if (pings) content.push({ type: 'section', text: mrkdwn(pings) });
  if (reply.heading?.trim()) content.push(...textSections(formatMrkdwn(reply.heading.trim())));
  if (text) content.push(...textSections(formatMrkdwn(text)));
  for (const [i, embed] of embeds.entries()) {
    if (i > 0 || content.length > 0) content.push({ type: 'divider' });
    content.push(...embedBlocks(embed));
  }
  // Written before the blocks are fitted, so the budgets count the tokens as sent.
  const timed = content.map(blockTimes);

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
    timed,
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
      elements: [mrkdwn(truncate(escapeMrkdwn(notes.join(' ')), MAX_CONTEXT_TEXT, { entities: true }))],
    });
  blocks.push(...actions.blocks);

  const fallback =
    text || embeds.find((e) => e.title)?.title || embeds.find((e) => e.description)?.description;
  const notified = mrkdwnTimes(
    truncateMrkdwn(formatMrkdwn(fallback?.trim() || 'herald'), MAX_FALLBACK_TEXT),
    MAX_FALLBACK_TEXT,
  );
  return {
    text: pings ? `${pings} ${notified}` : notified,
    blocks,
    files: canShare ? attachments.filter((a) => !tooLarge.includes(a)).map(slackFile) : [],
  };
}
