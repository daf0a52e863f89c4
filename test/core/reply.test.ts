import { describe, expect, it } from 'vitest';
import { mapReplyText, replyText, type Reply } from '../../src/core/reply.ts';

const full: Reply = {
  text: 'text',
  embeds: [
    {
      title: 'title',
      url: 'https://example.com/url',
      description: 'description',
      color: 'info',
      fields: [{ name: 'field name', value: 'field value', inline: true }],
      footer: 'footer',
      timestamp: '2026-11-26T00:00:00.000Z',
      thumbnail: 'https://example.com/thumbnail',
      image: 'chart.png',
    },
  ],
  attachments: [
    { filename: 'a.mp3', contentType: 'audio/mpeg', bytes: new Uint8Array(1), description: 'alt' },
  ],
  actions: [{ label: 'Next', command: 'jobs', input: { what: 'rust developer', page: 2 } }],
};

describe('replyText', () => {
  it('holds every text mapReplyText maps, so one scan of it clears the whole reply', () => {
    const mapped: string[] = [];
    mapReplyText(full, (text) => {
      mapped.push(text);
      return text;
    });
    expect(mapped.length).toBeGreaterThan(8);
    const joined = replyText(full);
    for (const text of mapped) expect(joined).toContain(text);
  });
});
