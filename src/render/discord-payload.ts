// Discord's message as herald sends it, no SDK: the objects a message carries (embeds, buttons,
// files), Discord's wire numbers for them, and its limits under the names the renderer uses.
// Limits: https://discord.com/developers/docs/resources/message#embed-object-embed-limits
// Components: https://discord.com/developers/docs/components/reference
import { DISCORD_LIMITS } from '../domain/discord.ts';

// Discord's limits are domain facts (src/domain/discord.ts); the names below are this renderer's.
const L = DISCORD_LIMITS;
export const CONTENT_MAX = L.content;
export const EMBEDS_MAX = L.embeds;
export const EMBED_TITLE_MAX = L.title;
export const EMBED_DESCRIPTION_MAX = L.description;
export const EMBED_FIELDS_MAX = L.fields;
export const FIELD_NAME_MAX = L.fieldName;
export const FIELD_VALUE_MAX = L.fieldValue;
export const FOOTER_MAX = L.footer;
export const EMBEDS_TOTAL_MAX = L.embedsTotal;
export const BUTTONS_PER_ROW = L.buttonsPerRow;
export const ROWS_MAX = L.rows;
export const BUTTON_LABEL_MAX = L.buttonLabel;
export const FILES_MAX = L.files;
export const FILE_BYTES_MAX = L.fileBytes;
export const UPLOAD_BYTES_MAX = L.uploadBytes;
export const AUTOCOMPLETE_CHOICES_MAX = L.autocompleteChoices;
export const CHOICE_NAME_MAX = L.choiceName;
export const CHOICE_VALUE_MAX = L.choiceValue;

/** Discord rejects empty or blank names and values; a zero-width space renders as nothing. */
export const EMPTY_PLACEHOLDER = '\u200b';

// Discord's wire numbers.
export const ACTION_ROW = 1;
export const BUTTON = 2;
export const SECONDARY = 2;
/** Message flag: only the invoker sees the message. */
export const EPHEMERAL = 1 << 6;

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

/** Discord's embed object, the fields herald sets. */
export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: DiscordEmbedField[];
  footer?: { text: string };
  /** ISO 8601. */
  timestamp?: string;
  /** `attachment://<name>` of a file of the same message. */
  image?: { url: string };
  thumbnail?: { url: string };
}

export interface DiscordButton {
  type: typeof BUTTON;
  style: typeof SECONDARY;
  label: string;
  custom_id: string;
}

export interface DiscordActionRow {
  type: typeof ACTION_ROW;
  components: DiscordButton[];
}

/** A file sent with the message (multipart `files[n]`), under a plain name unique in the message. */
export interface DiscordFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
  /** Alt text. */
  description?: string;
}

export interface DiscordMessage {
  content: string;
  embeds: DiscordEmbed[];
  components: DiscordActionRow[];
  files: DiscordFile[];
  allowed_mentions: AllowedMentions;
  flags: number;
}

/** Nobody parsed from the text; only the roles and users listed (a schedule's `ping:`). */
export interface AllowedMentions {
  parse: [];
  roles?: string[];
  users?: string[];
}

/** A webhook post: the same message without buttons (a webhook's clicks reach no one), empty parts left out. */
export interface DiscordWebhookMessage {
  content?: string;
  /** The name the post is shown under; the webhook's own when absent. */
  username?: string;
  embeds?: DiscordEmbed[];
  files?: DiscordFile[];
  /** Set only when the post pings someone (a schedule's `ping:`); absent, it pings no one. */
  allowed_mentions?: AllowedMentions;
}
