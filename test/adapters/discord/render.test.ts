import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action, Embed, Reply } from '../../../src/core/reply.ts';
import { COLOR_HEX } from '../../../src/core/reply.ts';
import { truncate } from '../../../src/domain/text.ts';
import { renderChoices, renderDiscord, type DiscordMessage } from '../../../src/render/discord.ts';
import { embedLength } from '../../../src/render/discord-embeds.ts';
import {
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW,
  CONTENT_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELDS_MAX,
  EMBED_TITLE_MAX,
  EMBEDS_MAX,
  EMBEDS_TOTAL_MAX,
  EMPTY_PLACEHOLDER,
  FIELD_NAME_MAX,
  FIELD_VALUE_MAX,
  FILES_MAX,
  FOOTER_MAX,
  ROWS_MAX,
} from '../../../src/render/discord-payload.ts';
import { defuseMaskedLinks } from '../../../src/render/discord-text.ts';
import { customIdFor } from '../../../adapters/discord/custom-id.ts';

/** How the adapter renders: buttons with its custom ids. */
const BUTTONS = { customIdFor };

const x = (n: number, ch = 'a') => ch.repeat(n);

function totalEmbedChars(message: DiscordMessage): number {
  return message.embeds.reduce((n, e) => n + embedLength(e), 0);
}

function action(page: number, label = `Page ${page}`): Action {
  return { label, command: 'jobs', input: { what: 'rust developer', page } };
}

describe('renderDiscord', () => {
  it('sends plain text as content and never lets it mention anyone', () => {
    const message = renderDiscord({ text: 'hello @everyone and <@123456789012345678>' });
    expect(message.content).toBe('hello @everyone and <@123456789012345678>');
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.embeds).toEqual([]);
    expect(message.components).toEqual([]);
    expect(message.files).toEqual([]);
    expect(message.flags).toBe(0);
  });

  it('marks an ephemeral reply with the EPHEMERAL flag (64)', () => {
    expect(renderDiscord({ text: 'only you', ephemeral: true }).flags).toBe(64);
  });

  it('renders an embed with palette colour, fields, footer, timestamp and thumbnail', () => {
    const embed: Embed = {
      title: 'Paris',
      url: 'https://openweathermap.org/city/2988507',
      description: 'light rain',
      color: 'info',
      fields: [
        { name: 'Temperature', value: '12.3 °C', inline: true },
        { name: 'Humidity', value: '81 %' },
      ],
      footer: 'OpenWeatherMap',
      timestamp: '2024-05-01T12:00:00+02:00',
      thumbnail: 'https://openweathermap.org/img/wn/10d@2x.png',
    };
    const message = renderDiscord({ text: 'Weather in Paris: light rain', embeds: [embed] });
    expect(message.content).toBe('');
    expect(message.embeds).toEqual([
      {
        title: 'Paris',
        url: 'https://openweathermap.org/city/2988507',
        description: 'light rain',
        color: COLOR_HEX.info,
        fields: [
          { name: 'Temperature', value: '12.3 °C', inline: true },
          { name: 'Humidity', value: '81 %' },
        ],
        footer: { text: 'OpenWeatherMap' },
        timestamp: '2024-05-01T10:00:00.000Z',
        thumbnail: { url: 'https://openweathermap.org/img/wn/10d@2x.png' },
      },
    ]);
  });

  it('maps every palette token to its COLOR_HEX value', () => {
    const colors = ['info', 'success', 'warning', 'error'] as const;
    const message = renderDiscord({ text: 't', embeds: colors.map((color) => ({ title: color, color })) });
    expect(message.embeds.map((e) => e.color)).toEqual(colors.map((c) => COLOR_HEX[c]));
  });

  it('shortens content over 2000 characters with an ellipsis and a note', () => {
    const message = renderDiscord({ text: x(2500) });
    expect(CONTENT_MAX).toBe(2000);
    expect(message.content.length).toBeLessThanOrEqual(2000);
    const [body, note] = message.content.split('\n');
    expect(body!.endsWith('…')).toBe(true);
    expect(note).toContain('shortened');
  });

  it('keeps content of exactly 2000 characters untouched', () => {
    expect(renderDiscord({ text: x(2000) }).content).toBe(x(2000));
  });

  it('keeps at most 10 embeds and notes how many were left out', () => {
    const embeds = Array.from({ length: 13 }, (_, i) => ({ title: `Job ${i}` }));
    const message = renderDiscord({ text: '13 jobs', embeds });
    expect(EMBEDS_MAX).toBe(10);
    expect(message.embeds).toHaveLength(10);
    expect(message.embeds[9]!.title).toBe('Job 9');
    expect(message.content).toContain('3 more sections left out');
  });

  it('shortens a title over 256 characters', () => {
    const message = renderDiscord({ text: 't', embeds: [{ title: x(300) }] });
    expect(message.embeds[0]!.title).toHaveLength(EMBED_TITLE_MAX);
    expect(message.embeds[0]!.title!.endsWith('…')).toBe(true);
    expect(message.content).toContain('shortened');
  });

  it('shortens a description over 4096 characters', () => {
    const message = renderDiscord({ text: 't', embeds: [{ description: x(5000) }] });
    expect(message.embeds[0]!.description).toHaveLength(EMBED_DESCRIPTION_MAX);
    expect(message.embeds[0]!.description!.endsWith('…')).toBe(true);
  });

  it('keeps at most 25 fields per embed and notes the rest', () => {
    const fields = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: `v${i}` }));
    const message = renderDiscord({ text: 't', embeds: [{ title: 'many', fields }] });
    expect(message.embeds[0]!.fields).toHaveLength(EMBED_FIELDS_MAX);
    expect(message.embeds[0]!.fields![24]).toEqual({ name: 'f24', value: 'v24' });
    expect(message.content).toContain('5 fields left out');
  });

  it('shortens field names over 256 and values over 1024 characters', () => {
    const message = renderDiscord({ text: 't', embeds: [{ fields: [{ name: x(300), value: x(2000) }] }] });
    const field = message.embeds[0]!.fields![0]!;
    expect(field.name).toHaveLength(FIELD_NAME_MAX);
    expect(field.value).toHaveLength(FIELD_VALUE_MAX);
    expect(field.name.endsWith('…') && field.value.endsWith('…')).toBe(true);
  });

  it("renders a field's link as a masked link after its value, and only an http(s) one", () => {
    const url = 'https://discord.com/channels/1187421520894746700/1187421520894746711/1300000000000000042';
    const message = renderDiscord({
      text: 't',
      embeds: [
        {
          fields: [
            { name: 'slot', value: 'posted 27 Mar', link: { label: 'view message', url } },
            { name: 'odd', value: 'posted', link: { label: 'x', url: 'javascript:alert(1)' } },
            { name: 'tricky', value: 'v', link: { label: 'a]b[', url: 'https://example.com/a_(b)' } },
          ],
        },
      ],
    });
    const [linked, odd, tricky] = message.embeds[0]!.fields!;
    expect(linked!.value).toBe(`posted 27 Mar [view message](${url})`);
    expect(odd!.value).toBe('posted');
    expect(tricky!.value).toBe('v [a\\]b\\[](https://example.com/a_%28b%29)');
  });

  it('cuts a long value before its link, so the link stays whole within 1024 characters', () => {
    const url = 'https://discord.com/channels/1187421520894746700/1187421520894746711/1300000000000000042';
    const message = renderDiscord({
      text: 't',
      embeds: [{ fields: [{ name: 'n', value: x(2000), link: { label: 'view message', url } }] }],
    });
    const value = message.embeds[0]!.fields![0]!.value;
    expect(value).toHaveLength(FIELD_VALUE_MAX);
    expect(value.endsWith(`… [view message](${url})`)).toBe(true);
  });

  it("keeps each field's link whole when the embed is cut to fit the 6000 total", () => {
    const url = 'https://discord.com/channels/1187421520894746700/1187421520894746711/1300000000000000042';
    const fields = Array.from({ length: 10 }, (_, i) => ({
      name: `run ${i}`,
      value: x(700),
      link: { label: 'view message', url },
    }));
    const message = renderDiscord({ text: 't', embeds: [{ fields }] });
    const values = message.embeds[0]!.fields!.map((f) => f.value);
    expect(totalEmbedChars(message)).toBeLessThanOrEqual(EMBEDS_TOTAL_MAX);
    expect(values.length).toBeLessThan(10);
    for (const value of values)
      expect(value.endsWith(`a [view message](${url})`) || value.endsWith(`… [view message](${url})`)).toBe(
        true,
      );
    expect(values.at(-1)).toContain('…');
  });

  it('still defuses masked links typed into a value that has a link of its own', () => {
    const message = renderDiscord({
      text: 't',
      embeds: [
        {
          fields: [
            {
              name: 'n',
              value: '[click](https://evil.example)',
              link: { label: 'view message', url: 'https://discord.com/channels/1/2/3' },
            },
          ],
        },
      ],
    });
    expect(message.embeds[0]!.fields![0]!.value).toBe(
      '\\[click](https://evil.example) [view message](https://discord.com/channels/1/2/3)',
    );
  });

  it('replaces an empty or blank field name or value with a zero-width placeholder', () => {
    const message = renderDiscord({ text: 't', embeds: [{ fields: [{ name: '', value: '   ' }] }] });
    expect(message.embeds[0]!.fields![0]).toEqual({ name: EMPTY_PLACEHOLDER, value: EMPTY_PLACEHOLDER });
  });

  it('shortens a footer over 2048 characters', () => {
    const message = renderDiscord({ text: 't', embeds: [{ title: 'x', footer: x(3000) }] });
    expect(message.embeds[0]!.footer!.text).toHaveLength(FOOTER_MAX);
    expect(message.embeds[0]!.footer!.text.endsWith('…')).toBe(true);
  });

  it('keeps all embeds of a message within 6000 characters, shortening one and dropping the rest', () => {
    const embeds = [
      { description: x(4000, 'a') },
      { description: x(4000, 'b') },
      { description: x(4000, 'c') },
    ];
    const message = renderDiscord({ text: 't', embeds });
    expect(totalEmbedChars(message)).toBeLessThanOrEqual(EMBEDS_TOTAL_MAX);
    expect(message.embeds).toHaveLength(2);
    expect(message.embeds[0]!.description).toBe(x(4000, 'a'));
    expect(message.embeds[1]!.description).toHaveLength(2000);
    expect(message.embeds[1]!.description!.endsWith('…')).toBe(true);
    expect(message.content).toContain('1 more section left out');
    expect(message.content).toContain('shortened');
  });

  it('counts field names, values, titles and footers towards the 6000 total', () => {
    const fields = Array.from({ length: 25 }, () => ({ name: x(256), value: x(1024) }));
    const embeds = Array.from({ length: 10 }, () => ({ title: x(256), fields, footer: x(2048) }));
    const message = renderDiscord({ text: 't', embeds });
    expect(totalEmbedChars(message)).toBeLessThanOrEqual(EMBEDS_TOTAL_MAX);
    expect(message.embeds.length).toBeGreaterThanOrEqual(1);
    expect(message.embeds[0]!.fields!.length).toBeLessThan(25);
  });

  it('counts title, description, field names and values and footer towards an embed length', () => {
    expect(
      embedLength({
        title: 'ab',
        description: 'cde',
        fields: [{ name: 'f', value: 'gh' }],
        footer: { text: x(10) },
      }),
    ).toBe(18);
  });

  it('lays out buttons five per row in at most five rows and notes the rest', () => {
    const actions = Array.from({ length: 27 }, (_, i) => action(i + 1));
    const message = renderDiscord({ text: 't', actions }, BUTTONS);
    expect(message.components).toHaveLength(ROWS_MAX);
    for (const row of message.components) {
      expect(row.type).toBe(1);
      expect(row.components).toHaveLength(BUTTONS_PER_ROW);
    }
    expect(message.components[4]!.components[4]!.label).toBe('Page 25');
    expect(message.content).toContain('2 buttons left out');
  });

  it('shortens a button label over 80 characters', () => {
    const message = renderDiscord({ text: 't', actions: [action(2, x(120))] }, BUTTONS);
    const button = message.components[0]!.components[0]!;
    expect(button.label).toHaveLength(BUTTON_LABEL_MAX);
    expect(button.label.endsWith('…')).toBe(true);
    expect(button.style).toBe(2);
    expect(button.type).toBe(2);
  });

  it('gives every button a custom_id of at most 100 characters, even for a long input', () => {
    const long: Action = { label: 'Next', command: 'jobs', input: { what: x(300), page: 2 } };
    const message = renderDiscord({ text: 't', actions: [action(2), long] }, BUTTONS);
    const ids = message.components[0]!.components.map((b) => b.custom_id);
    expect(ids[0]).toBe('h1:["jobs",{"what":"rust developer","page":2}]');
    expect(ids[1]!.length).toBeLessThanOrEqual(100);
    expect(ids[1]!.startsWith('h1#')).toBe(true);
  });

  it('uses the custom id function it is given', () => {
    const message = renderDiscord(
      { text: 't', actions: [action(2)] },
      { customIdFor: (a) => `id-${a.input.page}` },
    );
    expect(message.components[0]!.components[0]!.custom_id).toBe('id-2');
  });

  it('lists actions as commands to type when no one can click them (a webhook post), five at most', () => {
    const actions = [
      ...Array.from({ length: 6 }, (_, i) => action(i + 1)),
      action(9, '[go](https://evil.example)'),
    ];
    const message = renderDiscord({ text: 'page 1', actions });
    expect(message.components).toEqual([]);
    expect(message.content).toBe(
      [
        'page 1',
        '-# 2 buttons left out.',
        ...Array.from(
          { length: 5 },
          (_, i) => `-# Page ${i + 1}: \`/jobs what:"rust developer" page:${i + 1}\``,
        ),
      ].join('\n'),
    );
    const hostile = renderDiscord({ text: 'x', actions: [action(9, '[go](https://evil.example)')] });
    expect(hostile.content).toContain('-# \\[go](https://evil.example): ');
  });

  it('attaches files and keeps at most 10, naming those left out', () => {
    const attachments = Array.from({ length: 12 }, (_, i) => ({
      filename: `clip-${i}.mp3`,
      contentType: 'audio/mpeg',
      bytes: new Uint8Array([0xff, 0xfb, i]),
    }));
    const message = renderDiscord({ text: 'audio', attachments });
    expect(message.files).toHaveLength(FILES_MAX);
    expect(message.files[0]).toEqual({
      name: 'clip-0.mp3',
      contentType: 'audio/mpeg',
      bytes: attachments[0]!.bytes,
    });
    expect(message.content).toContain('Not attached: clip-10.mp3, clip-11.mp3');
  });

  it('leaves out a file larger than the upload limit, with a note', () => {
    const big = { filename: 'big.mp3', contentType: 'audio/mpeg', bytes: new Uint8Array(2048) };
    const message = renderDiscord({ text: 'audio', attachments: [big] }, { maxFileBytes: 1024 });
    expect(message.files).toEqual([]);
    expect(message.content).toContain('Not attached: big.mp3');
  });

  it('strips path separators and odd characters from file names', () => {
    const message = renderDiscord({
      text: 'a',
      attachments: [
        { filename: '../../etc/pass wd.mp3', contentType: 'audio/mpeg', bytes: new Uint8Array(1) },
      ],
    });
    expect(message.files[0]!.name).toBe('pass_wd.mp3');
  });

  it('keeps a URL only on the first embed that uses it, since Discord merges such embeds', () => {
    const url = 'https://example.com/jobs/1';
    const message = renderDiscord({
      text: 't',
      embeds: [
        { title: 'a', url },
        { title: 'b', url },
      ],
    });
    expect(message.embeds[0]!.url).toBe(url);
    expect(message.embeds[1]!.url).toBeUndefined();
  });

  it('drops malformed URLs and timestamps instead of sending them', () => {
    const message = renderDiscord({
      text: 't',
      embeds: [{ title: 'a', url: 'javascript:alert(1)', thumbnail: 'not a url', timestamp: 'yesterday' }],
    });
    expect(message.embeds[0]).toEqual({ title: 'a' });
  });

  it('falls back to the text when every embed is empty', () => {
    const message = renderDiscord({ text: 'fallback', embeds: [{ color: 'info' }] });
    expect(message.embeds).toEqual([]);
    expect(message.content).toBe('fallback');
  });

  it('never sends an empty message', () => {
    expect(renderDiscord({ text: '' }).content).toBe(EMPTY_PLACEHOLDER);
  });

  it('keeps every limit for any reply', () => {
    const text = fc.string({ maxLength: 3000 });
    const embed = fc.record(
      {
        title: fc.string({ maxLength: 400 }),
        description: fc.string({ maxLength: 5000 }),
        fields: fc.array(
          fc.record({ name: fc.string({ maxLength: 300 }), value: fc.string({ maxLength: 1200 }) }),
          {
            maxLength: 30,
          },
        ),
        footer: fc.string({ maxLength: 2100 }),
      },
      { requiredKeys: [] },
    );
    const reply = fc.record({
      text,
      embeds: fc.array(embed, { maxLength: 12 }),
      actions: fc.array(fc.record({ label: fc.string({ maxLength: 100 }), page: fc.nat() }), {
        maxLength: 30,
      }),
    });
    fc.assert(
      // Both paths: an interaction's answer (buttons) and a post no one can click (command lines).
      fc.property(reply, fc.boolean(), (r, hasButtons) => {
        const message = renderDiscord(
          {
            text: r.text,
            embeds: r.embeds,
            actions: r.actions.map((a) => action(a.page, a.label)),
          } satisfies Reply,
          hasButtons ? BUTTONS : {},
        );
        expect(message.content.length).toBeLessThanOrEqual(CONTENT_MAX);
        expect(message.content.length > 0 || message.embeds.length > 0).toBe(true);
        expect(message.embeds.length).toBeLessThanOrEqual(EMBEDS_MAX);
        expect(totalEmbedChars(message)).toBeLessThanOrEqual(EMBEDS_TOTAL_MAX);
        for (const e of message.embeds) {
          expect(e.title?.length ?? 0).toBeLessThanOrEqual(EMBED_TITLE_MAX);
          expect(e.description?.length ?? 0).toBeLessThanOrEqual(EMBED_DESCRIPTION_MAX);
          expect(e.fields?.length ?? 0).toBeLessThanOrEqual(EMBED_FIELDS_MAX);
          for (const f of e.fields ?? []) {
            expect(f.name.length).toBeGreaterThan(0);
            expect(f.name.length).toBeLessThanOrEqual(FIELD_NAME_MAX);
            expect(f.value.length).toBeGreaterThan(0);
            expect(f.value.length).toBeLessThanOrEqual(FIELD_VALUE_MAX);
          }
          expect(e.footer?.text.length ?? 0).toBeLessThanOrEqual(FOOTER_MAX);
        }
        expect(message.components.length).toBeLessThanOrEqual(ROWS_MAX);
        const ids = message.components.flatMap((row) => row.components.map((b) => b.custom_id));
        expect(new Set(ids).size).toBe(ids.length);
        for (const row of message.components) {
          expect(row.components.length).toBeLessThanOrEqual(BUTTONS_PER_ROW);
          for (const b of row.components) {
            expect(b.label.length).toBeGreaterThan(0);
            expect(b.label.length).toBeLessThanOrEqual(BUTTON_LABEL_MAX);
            expect(b.custom_id.length).toBeLessThanOrEqual(100);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('truncate', () => {
  it('does not split a surrogate pair', () => {
    const out = truncate(`ab${'😀'.repeat(5)}`, 5);
    expect(out.length).toBeLessThanOrEqual(5);
    expect(out).toBe('ab😀…');
  });
});

describe('renderChoices', () => {
  it('offers at most 25 choices, shortening names and dropping values over 100 characters', () => {
    const choices = [
      { name: x(150), value: 'long-name' },
      { name: 'too long value', value: x(101) },
      ...Array.from({ length: 30 }, (_, i) => ({ name: `Voice ${i}`, value: `v${i}` })),
    ];
    const out = renderChoices(choices);
    expect(out).toHaveLength(25);
    expect(out[0]!.name).toHaveLength(100);
    expect(out[0]!.name.endsWith('…')).toBe(true);
    expect(out.some((c) => c.value.length > 100)).toBe(false);
    expect(out[1]).toEqual({ name: 'Voice 0', value: 'v0' });
  });
});

describe('masked links', () => {
  it('shows a [label](url) from data as typed, in content, descriptions and field values', () => {
    const bait = 'Free nitro [click here](https://evil.example/claim) now';
    const message = renderDiscord({
      text: bait,
      embeds: [{ title: 'Jobs', description: bait, fields: [{ name: 'Acme', value: bait }] }],
    });
    expect(message.embeds[0]!.description).toBe('Free nitro \\[click here](https://evil.example/claim) now');
    expect(message.embeds[0]!.fields![0]!.value).toBe(
      'Free nitro \\[click here](https://evil.example/claim) now',
    );
    const plain = renderDiscord({ text: bait });
    expect(plain.content).toBe('Free nitro \\[click here](https://evil.example/claim) now');
  });

  it('leaves code, plain brackets and already escaped links alone', () => {
    expect(defuseMaskedLinks('`[a](https://x)` and ```\n[b](https://y)\n```')).toBe(
      '`[a](https://x)` and ```\n[b](https://y)\n```',
    );
    expect(defuseMaskedLinks('[not a link] (https://x)')).toBe('[not a link] (https://x)');
    expect(defuseMaskedLinks('\\[x](https://y)')).toBe('\\[x](https://y)');
  });
});

describe('renderDiscord: control characters everywhere a reply sends text', () => {
  it('drops bidi controls from file names, alt text and button custom ids as from the text', () => {
    const message = renderDiscord(
      {
        text: 'report',
        embeds: [{ title: 'chart', image: 'chart\u202egnp.png' }],
        attachments: [
          {
            filename: 'chart\u202egnp.png',
            contentType: 'image/png',
            bytes: new Uint8Array([1]),
            description: 'alt \u2066text',
          },
        ],
        actions: [{ label: 'Next\u202e', command: 'jobs', input: { what: 'rust\u202e', page: 2 } }],
      },
      BUTTONS,
    );
    expect(JSON.stringify(message)).not.toMatch(/\p{Bidi_Control}/u);
    expect(message.files[0]).toMatchObject({ name: 'chartgnp.png', description: 'alt text' });
    expect(message.embeds[0]!.image).toEqual({ url: 'attachment://chartgnp.png' });
    expect(message.components[0]!.components[0]!.custom_id).toBe('h1:["jobs",{"what":"rust","page":2}]');
  });

  it('drops terminal controls (NUL, BEL, ESC, DEL, C1) but keeps newlines and tabs', () => {
    const message = renderDiscord(
      {
        text: 'Org\u0000: ACME\u0007\u001b[31m',
        embeds: [
          {
            title: 'Host\u001b]0;pwned\u0007',
            description: 'line one\nline\ttwo\u007f\u0085',
            fields: [{ name: 'Org\u0008', value: 'ACME\r\nInc' }],
          },
        ],
      },
      BUTTONS,
    );
    expect(JSON.stringify(message).replace(/\\[nt]/g, '')).not.toMatch(/\\u00[01][0-9a-f]|\\u007f|\u0085/);
    expect(message.embeds[0]).toMatchObject({
      title: 'Host]0;pwned',
      description: 'line one\nline\ttwo',
      fields: [{ name: 'Org', value: 'ACME\nInc' }],
    });
  });

  it('turns a lone carriage return into a line break instead of joining the lines', () => {
    const message = renderDiscord({ text: 'Port 22 open\rPort 80 open\r\nPort 443 open' }, BUTTONS);
    expect(message.content).toBe('Port 22 open\nPort 80 open\nPort 443 open');
  });
});
