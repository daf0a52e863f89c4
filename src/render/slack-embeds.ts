// A reply's text and embeds as Block Kit: a header for the title (its colour as a mark), sections
// for the text and the fields, a context block for the link, footer and time.
import { embedTime, type Color, type Embed } from '../core/reply.ts';
import {
  escapeMrkdwn,
  escapePlainText,
  formatMrkdwn,
  mrkdwnLink,
  safeLinkUrl,
  withFieldLink,
} from './slack-escape.ts';
import {
  MAX_CONTEXT_ELEMENTS,
  MAX_CONTEXT_TEXT,
  MAX_FIELD_TEXT,
  MAX_HEADER_TEXT,
  MAX_IMAGE_URL,
  MAX_SECTION_FIELDS,
  MAX_SECTION_TEXT,
  mrkdwn,
  type ContextBlock,
  type KnownBlock,
  type MrkdwnElement,
  type SectionBlock,
} from './slack-payload.ts';
import { truncate } from '../domain/text.ts';
import { splitMrkdwn, truncateMrkdwn } from './slack-text.ts';

/** Names are shortened so a field's value keeps most of its 2000 characters. */
const MAX_FIELD_NAME = 200;

const COLOR_MARK: Readonly<Record<Color, string>> = {
  info: '',
  success: '✅ ',
  warning: '⚠️ ',
  error: '❌ ',
};

export function textSections(escaped: string): SectionBlock[] {
  return splitMrkdwn(escaped, MAX_SECTION_TEXT).map((piece) => ({ type: 'section', text: mrkdwn(piece) }));
}

function fieldText({ name, value, link }: NonNullable<Embed['fields']>[number]): string | undefined {
  const n = truncate(escapeMrkdwn(name.replace(/\s+/g, ' ').trim()), MAX_FIELD_NAME, { entities: true });
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
  if (embed.footer?.trim())
    elements.push(mrkdwn(truncate(escapeMrkdwn(embed.footer), MAX_CONTEXT_TEXT, { entities: true })));
  if (embed.timestamp) {
    const at = embedTime(embed.timestamp);
    const fallback = escapeMrkdwn(at?.text ?? embed.timestamp);
    elements.push(
      mrkdwn(
        at
          ? `<!date^${at.unix}^{date_short_pretty} {time}|${truncate(fallback, 100, { entities: true })}>`
          : truncate(fallback, MAX_CONTEXT_TEXT, { entities: true }),
      ),
    );
  }
  return elements.length > 0
    ? { type: 'context', elements: elements.slice(0, MAX_CONTEXT_ELEMENTS) }
    : undefined;
}

export function embedBlocks(embed: Embed): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const mark = embed.color ? COLOR_MARK[embed.color] : '';
  const title = embed.title?.replace(/\s+/g, ' ').trim();
  if (title) {
    blocks.push({
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncate(mark + escapePlainText(title), MAX_HEADER_TEXT, { entities: true }),
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
