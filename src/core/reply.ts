// The platform-neutral reply model (DESIGN.md, "The reply model"). Commands return it; each
// adapter's pure renderer turns it into the platform's payload and keeps the platform's limits.

/** Palette tokens; each renderer maps them to its own colours. */
export type Color = 'info' | 'success' | 'warning' | 'error';

export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface Embed {
  title?: string;
  url?: string;
  description?: string;
  color?: Color;
  fields?: EmbedField[];
  footer?: string;
  /** ISO 8601. */
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
}

export interface Reply {
  /** Always set: the fallback for the console and for notifications. */
  text: string;
  embeds?: Embed[];
  attachments?: Attachment[];
  actions?: Action[];
  /** Only the invoker sees it. */
  ephemeral?: boolean;
}

export const COLOR_HEX: Readonly<Record<Color, number>> = {
  info: 0x3b82f6,
  success: 0x22c55e,
  warning: 0xf59e0b,
  error: 0xef4444,
};

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
