// Where a chart goes, per renderer: the embed shows it only when its file is in the same message.
import { describe, expect, it } from 'vitest';
import { renderDiscord, renderDiscordWebhook } from '../../src/render/discord.ts';
import type { Reply } from '../../src/core/reply.ts';

const PNG = new Uint8Array(2048).fill(7);

const chartReply = (bytes: Uint8Array): Reply => ({
  text: 'Sessions 1,204',
  embeds: [{ title: 'Analytics', fields: [{ name: 'Sessions', value: '1,204' }], image: 'report.png' }],
  attachments: [
    { filename: 'report.png', contentType: 'image/png', bytes, description: 'Line chart of sessions' },
  ],
});

describe('a chart in a Discord reply', () => {
  it('is the embed image through attachment://, with its alt text on the file', () => {
    const message = renderDiscord(chartReply(PNG));
    expect(message.embeds[0]!.image).toEqual({ url: 'attachment://report.png' });
    expect(message.files).toEqual([
      { name: 'report.png', contentType: 'image/png', bytes: PNG, description: 'Line chart of sessions' },
    ]);
  });

  it('is left out of the embed when its file is over the upload limit, and the rest stays', () => {
    const message = renderDiscord(chartReply(PNG), { maxFileBytes: 1024 });
    expect(message.files).toEqual([]);
    expect(message.embeds[0]!.image).toBeUndefined();
    expect(message.embeds[0]!.fields).toEqual([{ name: 'Sessions', value: '1,204' }]);
  });
});

describe('a chart in a webhook post', () => {
  it('is a file of the post, referenced from the embed by its name', () => {
    const message = renderDiscordWebhook(chartReply(PNG));
    expect(message.files?.map((f) => f.name)).toEqual(['report.png']);
    expect(message.embeds?.[0]?.image).toEqual({ url: 'attachment://report.png' });
  });
});
