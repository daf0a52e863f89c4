import { describe, expect, it } from 'vitest';
import { mapReplyText, replyText, type Reply } from '../../src/core/reply.ts';

const full: Reply = {
  text: 'text',
  heading: 'heading',
  embeds: [
    {
      title: 'title',
      url: 'https://example.com/url',
      description: 'description',
      color: 'info',
      fields: [
        { name: 'field name', value: 'field value', inline: true },
        { name: 'run', value: 'posted', link: { label: 'view message', url: 'https://example.com/message' } },
      ],
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

describe('mapReplyText, the one walker of a reply', () => {
  it('visits every text a reply shows or sends: filenames, alt text, the image it names, links, button inputs', () => {
    const mapped: string[] = [];
    mapReplyText(full, (text) => {
      mapped.push(text);
      return text;
    });
    expect(mapped.sort()).toEqual(
      [
        'text',
        'heading',
        'title',
        'https://example.com/url',
        'description',
        'footer',
        'https://example.com/thumbnail',
        'chart.png',
        'field name',
        'field value',
        'run',
        'posted',
        'view message',
        'https://example.com/message',
        'a.mp3',
        'alt',
        'Next',
        'rust developer',
      ].sort(),
    );
  });

  it('keeps an embed image naming its file after both are mapped, and leaves bytes, numbers and colours alone', () => {
    const reply: Reply = {
      text: 'chart',
      embeds: [{ title: 'x', image: 'sessions\u202e.png', color: 'warning' }],
      attachments: [
        { filename: 'sessions\u202e.png', contentType: 'image/png', bytes: new Uint8Array([1, 2]) },
      ],
      actions: [{ label: 'Page', command: 'jobs', input: { page: 2, remote: true } }],
    };
    const out = mapReplyText(reply, (t) => t.replaceAll('\u202e', ''));
    expect(out.embeds![0]!.image).toBe(out.attachments![0]!.filename);
    expect(out.attachments![0]!.filename).toBe('sessions.png');
    expect(out.attachments![0]!.bytes).toBe(reply.attachments![0]!.bytes);
    expect(out.embeds![0]!.color).toBe('warning');
    expect(out.actions![0]!.input).toEqual({ page: 2, remote: true });
    expect(reply.attachments![0]!.filename).toBe('sessions\u202e.png');
  });
});
