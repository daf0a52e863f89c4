// Slack's message as herald sends it (https://docs.slack.dev/reference/block-kit/blocks): the Block
// Kit objects herald sets (no SDK here; Bolt's own types accept these), the message and its files,
// and Slack's limits under the names the renderer uses.
import { SLACK_LIMITS } from '../domain/slack.ts';

// Block Kit's objects, the fields herald sets (no SDK here; Bolt's own types accept these).
export interface MrkdwnElement {
  type: 'mrkdwn';
  text: string;
  verbatim?: boolean;
}
interface PlainTextElement {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}
interface ImageElement {
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
interface DividerBlock {
  type: 'divider';
}
/** Asked before a click counts (…/composition-objects/confirmation-dialog-object). */
interface ConfirmObject {
  title: PlainTextElement;
  text: PlainTextElement;
  confirm: PlainTextElement;
  deny: PlainTextElement;
  style: 'danger';
}
export interface Button {
  type: 'button';
  action_id: string;
  text: PlainTextElement;
  value: string;
  confirm?: ConfirmObject;
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

export function mrkdwn(text: string): MrkdwnElement {
  // verbatim: Slack does not auto-link URLs or channel names or parse mentions in this text.
  return { type: 'mrkdwn', text, verbatim: true };
}
