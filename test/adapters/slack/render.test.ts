import type { types as SlackTypes } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { Action, Embed, Reply } from '../../../src/core/reply.ts';
import { renderSlack } from '../../../src/render/slack.ts';
import { ACTION_ID_PREFIX, decodeActionValue, encodeActionValue } from '../../../src/render/slack-actions.ts';
import { ELLIPSIS } from '../../../src/domain/text.ts';
import {
  MAX_ACTION_ELEMENTS,
  MAX_BLOCKS,
  MAX_BLOCKS_JSON,
  MAX_BUTTON_TEXT,
  MAX_BUTTON_VALUE,
  MAX_CONTEXT_ELEMENTS,
  MAX_FALLBACK_TEXT,
  MAX_FIELD_TEXT,
  MAX_HEADER_TEXT,
  MAX_SECTION_FIELDS,
  MAX_SECTION_TEXT,
  type ActionsBlock,
  type ContextBlock,
  type HeaderBlock,
  type KnownBlock,
  type SectionBlock,
} from '../../../src/render/slack-payload.ts';
import { truncate } from '../../../src/domain/text.ts';
import { splitText, truncateMrkdwn } from '../../../src/render/slack-text.ts';

// The renderer has no SDK import; what it makes must still be what Bolt's Web API calls take.
const _boltTakesIt: SlackTypes.KnownBlock[] = renderSlack({ text: 'x' }).blocks;
void _boltTakesIt;

const sections = (blocks: KnownBlock[]) => blocks.filter((b): b is SectionBlock => b.type === 'section');
const headers = (blocks: KnownBlock[]) => blocks.filter((b): b is HeaderBlock => b.type === 'header');
const contexts = (blocks: KnownBlock[]) => blocks.filter((b): b is ContextBlock => b.type === 'context');
const buttons = (blocks: KnownBlock[]) =>
  blocks.filter((b): b is ActionsBlock => b.type === 'actions').flatMap((b) => b.elements);
const textOf = (b: SectionBlock) => (b.text as { text: string }).text;
const contextText = (b: ContextBlock) => b.elements.map((e) => (e as { text: string }).text).join(' ');
const lastNote = (blocks: KnownBlock[]) => contextText(contexts(blocks).at(-1)!);

/** Every mrkdwn and plain_text string in the blocks, for limit and escaping checks. */
function allTexts(blocks: KnownBlock[]): { type: string; text: string }[] {
  const out: { type: string; text: string }[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ((o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string') {
        out.push({ type: o.type, text: o.text });
      }
      Object.values(o).forEach(visit);
    }
  };
  visit(blocks);
  return out;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const action = (page: number, extra: Partial<Action> = {}): Action => ({
  label: `Page ${page}`,
  command: 'jobs',
  input: { what: 'rust developer', where: 'Berlin', page },
  ...extra,
});

describe('renderSlack', () => {
  it('renders text, a header, a described section, fields and a context footer', () => {
    const reply: Reply = {
      text: 'Weather for Paris',
      embeds: [
        {
          title: 'Paris, FR',
          url: 'https://openweathermap.org/city/2988507',
          description: 'Clear sky',
          color: 'success',
          fields: [
            { name: 'Temperature', value: '21.4 °C', inline: true },
            { name: 'Humidity', value: '40 %', inline: true },
          ],
          footer: 'OpenWeather',
          timestamp: '2026-05-01T12:00:00Z',
        },
      ],
    };
    const { text, blocks } = renderSlack(reply);
    expect(text).toBe('Weather for Paris');
    expect(blocks.map((b) => b.type)).toEqual([
      'section',
      'divider',
      'header',
      'section',
      'section',
      'context',
    ]);
    expect(textOf(blocks[0] as SectionBlock)).toBe('Weather for Paris');
    expect((blocks[2] as HeaderBlock).text).toEqual({
      type: 'plain_text',
      text: '✅ Paris, FR',
      emoji: true,
    });
    expect((blocks[4] as SectionBlock).fields).toEqual([
      { type: 'mrkdwn', text: '*Temperature*\n21.4 °C', verbatim: true },
      { type: 'mrkdwn', text: '*Humidity*\n40 %', verbatim: true },
    ]);
    const context = blocks[5] as ContextBlock;
    expect(context.elements.map((e) => (e as { text: string }).text)).toEqual([
      '🔗 <https://openweathermap.org/city/2988507|openweathermap.org>',
      'OpenWeather',
      `<!date^${Date.parse('2026-05-01T12:00:00Z') / 1000}^{date_short_pretty} {time}|1 May 2026, 12:00 UTC>`,
    ]);
    expect(context.elements.length).toBeLessThanOrEqual(MAX_CONTEXT_ELEMENTS);
  });

  it('marks every mrkdwn text verbatim so Slack auto-links nothing', () => {
    const { blocks } = renderSlack({
      text: 'see https://example.com #general',
      embeds: [{ description: 'x', footer: 'y' }],
    });
    const mrkdwn = JSON.stringify(blocks).match(/"type":"mrkdwn"[^}]*/g) ?? [];
    expect(mrkdwn.length).toBeGreaterThan(2);
    for (const m of mrkdwn) expect(m).toContain('"verbatim":true');
  });

  it('escapes user text everywhere so no mention, ping or link gets through', () => {
    const hostile = '@everyone <!channel> <@U123> <!here> <!subteam^S1|@ops> <http://evil.example|login>';
    const { text, blocks } = renderSlack({
      text: hostile,
      embeds: [
        {
          title: hostile,
          description: hostile,
          fields: [{ name: hostile, value: hostile }],
          footer: hostile,
          timestamp: hostile,
        },
      ],
      actions: [{ label: '@here next', command: 'jobs', input: { what: hostile } }],
    });
    const escaped =
      '@\u2060everyone &lt;!channel&gt; &lt;@U123&gt; &lt;!here&gt; &lt;!subteam^S1|@ops&gt; &lt;http://evil.example|login&gt;';
    expect(text).toBe(escaped);
    expect(textOf(sections(blocks)[0]!)).toBe(escaped);
    expect(textOf(sections(blocks)[1]!)).toBe(escaped);
    expect((sections(blocks)[2]!.fields![0] as { text: string }).text).toBe(`*${escaped}*\n${escaped}`);
    expect(contextText(contexts(blocks)[0]!)).toBe(`${escaped} ${escaped}`);
    // plain_text gets no formatting, but its control characters are escaped like everywhere else.
    expect(headers(blocks)[0]!.text.text).toBe(escaped);
    expect(buttons(blocks)[0]!.text.text).toBe('@\u2060here next');
    for (const { type, text: t } of allTexts(blocks)) {
      if (type === 'mrkdwn') expect(t).not.toMatch(/<[!@#h]/);
      expect(t).not.toMatch(/@(everyone|here|channel)\b/);
    }
  });

  it('renders the code blocks and spans commands write, as Slack code', () => {
    const { blocks } = renderSlack({
      text: 'Voice `21m00Tcm4TlvDq8ikWAM`',
      embeds: [{ title: 'Host 8.8.8.8', description: '```\n53/udp  dnsmasq <2.85>\n443/tcp https\n```' }],
    });
    expect(textOf(sections(blocks)[0]!)).toBe('Voice `21m00Tcm4TlvDq8ikWAM`');
    expect(textOf(sections(blocks)[1]!)).toBe('```\n53/udp  dnsmasq &lt;2.85&gt;\n443/tcp https\n```');
  });

  it('closes and reopens a code block split across sections', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `${1000 + i}/tcp  service-${i}`).join('\n');
    const { blocks } = renderSlack({ text: 'x', embeds: [{ description: `\`\`\`\n${lines}\n\`\`\`` }] });
    const parts = sections(blocks).slice(1).map(textOf);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(MAX_SECTION_TEXT);
      expect(p.startsWith('```')).toBe(true);
      expect(p.endsWith('```')).toBe(true);
    }
  });

  it('closes a code block that a field cut leaves open', () => {
    const value = `\`\`\`\n${'CVE-2024-0001 '.repeat(300)}\n\`\`\``;
    const { blocks } = renderSlack({ text: 'x', embeds: [{ fields: [{ name: 'CVEs', value }] }] });
    const field = (sections(blocks)[1]!.fields![0] as { text: string }).text;
    expect(field.length).toBeLessThanOrEqual(MAX_FIELD_TEXT);
    expect(field.endsWith(`${ELLIPSIS}\n\`\`\``)).toBe(true);
    expect(truncateMrkdwn('```abcdefgh```', 10)).toBe('```ab…\n```');
    expect(truncateMrkdwn('plain text here', 10)).toBe('plain tex…');
  });

  it('links an embed URL only when it is http or https', () => {
    const { blocks } = renderSlack({
      text: 't',
      embeds: [{ title: 'x', url: 'javascript:alert(1)', footer: 'f' }],
    });
    expect(contextText(contexts(blocks)[0]!)).toBe('f');
  });

  it('shortens a header to 150 characters with a visible ellipsis', () => {
    const { blocks } = renderSlack({ text: 't', embeds: [{ title: 'T'.repeat(400) }] });
    const header = headers(blocks)[0]!.text.text;
    expect(header).toHaveLength(MAX_HEADER_TEXT);
    expect(header.endsWith(ELLIPSIS)).toBe(true);
  });

  it('splits a long description across sections of at most 3000 characters, losing nothing', () => {
    const long = words(1500); // about 12k characters would exceed the budget, so stay under it
    const description = long.slice(0, 8000);
    const { blocks } = renderSlack({ text: 'x', embeds: [{ description }] });
    const parts = sections(blocks).slice(1).map(textOf);
    expect(parts.length).toBe(3);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(MAX_SECTION_TEXT);
    expect(parts.join(' ')).toBe(description);
  });

  it('splits text without spaces hard at 3000 characters', () => {
    const { blocks } = renderSlack({ text: 'a'.repeat(7000) });
    expect(sections(blocks).map((s) => textOf(s).length)).toEqual([3000, 3000, 1000]);
  });

  it('puts at most 10 fields in a section and continues in the next', () => {
    const fields = Array.from({ length: 23 }, (_, i) => ({
      name: `Port ${i}`,
      value: `service ${i}`,
      inline: true,
    }));
    const { blocks } = renderSlack({ text: 'x', embeds: [{ title: 'Host', fields }] });
    const withFields = sections(blocks).filter((s) => s.fields);
    expect(withFields.map((s) => s.fields!.length)).toEqual([MAX_SECTION_FIELDS, MAX_SECTION_FIELDS, 3]);
    expect((withFields[2]!.fields![2] as { text: string }).text).toBe('*Port 22*\nservice 22');
  });

  it("renders a field's link as <url|label> after its escaped value, and only an http(s) one", () => {
    const url = 'https://herald-test.slack.com/archives/C0GENERAL/p1714560000000200';
    const { blocks } = renderSlack({
      text: 'x',
      embeds: [
        {
          fields: [
            { name: 'slot', value: 'posted <!here>', link: { label: 'view message', url } },
            { name: 'odd', value: 'posted', link: { label: 'x', url: 'javascript:alert(1)' } },
            { name: 'amp', value: 'v', link: { label: 'a|b>', url: 'https://example.com/?a=1&b=2|x' } },
          ],
        },
      ],
    });
    const texts = (sections(blocks)[1]!.fields as { text: string }[]).map((f) => f.text);
    expect(texts).toEqual([
      `*slot*\nposted &lt;!here&gt; <${url}|view message>`,
      '*odd*\nposted',
      '*amp*\nv <https://example.com/?a=1&amp;b=2%7Cx|a|b&gt;>',
    ]);
  });

  it('cuts a long value before its link, so the link stays whole within 2000 characters', () => {
    const url = 'https://herald-test.slack.com/archives/C0GENERAL/p1714560000000200';
    const { blocks } = renderSlack({
      text: 'x',
      embeds: [
        { fields: [{ name: 'n', value: 'word '.repeat(1000), link: { label: 'view message', url } }] },
      ],
    });
    const field = (sections(blocks)[1]!.fields![0] as { text: string }).text;
    expect(field.length).toBeLessThanOrEqual(MAX_FIELD_TEXT);
    expect(field.endsWith(`${ELLIPSIS} <${url}|view message>`)).toBe(true);
  });

  it('shortens a field to 2000 characters with a visible ellipsis and keeps its name', () => {
    const { blocks } = renderSlack({
      text: 'x',
      embeds: [{ fields: [{ name: 'CVEs', value: 'CVE-2024-0001 '.repeat(500) }] }],
    });
    const field = (sections(blocks)[1]!.fields![0] as { text: string }).text;
    expect(field).toHaveLength(MAX_FIELD_TEXT);
    expect(field.startsWith('*CVEs*\n')).toBe(true);
    expect(field.endsWith(ELLIPSIS)).toBe(true);
  });

  it('never sends more than 50 blocks and says what was left out, keeping the buttons', () => {
    const embeds: Embed[] = Array.from({ length: 40 }, (_, i) => ({
      title: `Job ${i}`,
      description: `Listing ${i}`,
    }));
    const { blocks } = renderSlack({ text: 'Jobs', embeds, actions: [action(2)] });
    expect(blocks.length).toBeLessThanOrEqual(MAX_BLOCKS);
    expect(blocks.at(-1)!.type).toBe('actions');
    expect(lastNote(blocks)).toMatch(/^… Reply shortened to fit Slack's limits: \d+ parts not shown\.$/);
    expect(headers(blocks)[0]!.text.text).toBe('Job 0');
  });

  it('keeps the whole blocks array under the aggregate size budget', () => {
    const embeds: Embed[] = Array.from({ length: 12 }, (_, i) => ({
      title: `Embed ${i}`,
      description: `${i} `.repeat(1400),
      fields: [{ name: 'a', value: 'b'.repeat(1500) }],
    }));
    const { blocks } = renderSlack({ text: 'y'.repeat(2500), embeds, actions: [action(2), action(3)] });
    const size = JSON.stringify(blocks).length;
    expect(size).toBeLessThanOrEqual(MAX_BLOCKS_JSON);
    expect(size).toBeGreaterThan(MAX_BLOCKS_JSON * 0.8); // filled, not emptied
    expect(buttons(blocks)).toHaveLength(2);
    expect(lastNote(blocks)).toContain('Reply shortened');
  });

  it('cuts the text section that crosses the budget with an ellipsis instead of dropping it', () => {
    const embeds: Embed[] = Array.from({ length: 6 }, (_, i) => ({ description: `${i}`.repeat(2900) }));
    const { blocks } = renderSlack({ text: 'Report', embeds });
    const texts = sections(blocks).map(textOf);
    expect(texts.slice(1, 4)).toEqual(['0'.repeat(2900), '1'.repeat(2900), '2'.repeat(2900)]);
    const cut = texts[4]!;
    expect(cut.length).toBeGreaterThan(200);
    expect(cut.length).toBeLessThan(2900);
    expect(cut).toBe(`${'3'.repeat(cut.length - 1)}${ELLIPSIS}`);
    expect(lastNote(blocks)).toBe("… Reply shortened to fit Slack's limits: 2 parts not shown.");
    expect(JSON.stringify(blocks).length).toBeLessThanOrEqual(MAX_BLOCKS_JSON);
  });

  it('stays under the budget even when JSON escaping lengthens the text', () => {
    const { blocks } = renderSlack({ text: '"\n'.repeat(6000) });
    expect(JSON.stringify(blocks).length).toBeLessThanOrEqual(MAX_BLOCKS_JSON);
  });

  it('renders actions as buttons with unique ids, 75-character labels and a decodable value', () => {
    const { blocks } = renderSlack({
      text: 'x',
      actions: [action(2, { label: 'Next page '.repeat(20) }), action(3)],
    });
    const [first, second] = buttons(blocks);
    expect(first!.text.text).toHaveLength(MAX_BUTTON_TEXT);
    expect(first!.text.text.endsWith(ELLIPSIS)).toBe(true);
    expect(first!.action_id).toBe(`${ACTION_ID_PREFIX}0`);
    expect(second!.action_id).toBe(`${ACTION_ID_PREFIX}1`);
    expect(decodeActionValue(first!.value)).toEqual({
      command: 'jobs',
      input: { what: 'rust developer', where: 'Berlin', page: 2 },
    });
  });

  it('puts at most 25 buttons in one actions block', () => {
    const actions = Array.from({ length: 30 }, (_, i) => ({
      label: `${i}`,
      command: 'jobs',
      input: { page: i },
    }));
    const { blocks } = renderSlack({ text: 'x', actions });
    const rows = blocks.filter((b): b is ActionsBlock => b.type === 'actions');
    expect(rows.map((r) => r.elements.length)).toEqual([MAX_ACTION_ELEMENTS, 5]);
  });

  it('leaves out a button whose value would exceed 2000 characters and says so', () => {
    const big = action(2, { input: { what: 'x'.repeat(MAX_BUTTON_VALUE) } });
    expect(encodeActionValue(big)).toBeUndefined();
    const { blocks } = renderSlack({ text: 'x', actions: [big, action(3)] });
    expect(buttons(blocks).map((b) => b.text.text)).toEqual(['Page 3']);
    for (const b of buttons(blocks)) expect(b.value.length).toBeLessThanOrEqual(MAX_BUTTON_VALUE);
    expect(lastNote(blocks)).toBe('1 button left out: too large for Slack.');
  });

  it('notes files it cannot share when the reply is private', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const { blocks } = renderSlack({
      text: 'audio',
      ephemeral: true,
      attachments: [{ filename: 'speech.mp3', contentType: 'audio/mpeg', bytes }],
    });
    expect(lastNote(blocks)).toBe(
      '1 file not shared: Slack can only share files in the channel, and this reply is private.',
    );
    expect(
      renderSlack({ text: 'audio', attachments: [{ filename: 'a.mp3', contentType: 'audio/mpeg', bytes }] })
        .blocks,
    ).toHaveLength(1);
  });

  it('shortens the fallback text to 3000 characters and never leaves it empty', () => {
    expect(renderSlack({ text: 'z'.repeat(5000) }).text).toHaveLength(MAX_FALLBACK_TEXT);
    expect(renderSlack({ text: '', embeds: [{ title: 'Only a title' }] }).text).toBe('Only a title');
    expect(renderSlack({ text: '  ' }).text).toBe('herald');
  });

  it('adds a thumbnail only from an http(s) URL', () => {
    const ok = renderSlack({
      text: '',
      embeds: [{ description: 'd', thumbnail: 'https://img.example/t.png' }],
    });
    expect(sections(ok.blocks)[0]!.accessory).toEqual({
      type: 'image',
      image_url: 'https://img.example/t.png',
      alt_text: 'thumbnail',
    });
    const bad = renderSlack({
      text: '',
      embeds: [{ description: 'd', thumbnail: 'data:image/png;base64,AAAA' }],
    });
    expect(sections(bad.blocks)[0]!.accessory).toBeUndefined();
  });
});

describe('truncate and splitText', () => {
  it('never cuts an entity or a surrogate pair in half', () => {
    expect(truncate('ab&amp;cd', 5, { entities: true })).toBe('ab…');
    expect(truncate('a😀b', 3, { entities: true })).toBe('a…');
    expect(truncate('short', 10, { entities: true })).toBe('short');
  });

  it('splits at line breaks first and never inside an entity', () => {
    expect(splitText('aaaa\nbbbb cc', 8)).toEqual(['aaaa', 'bbbb cc']);
    expect(splitText('xxxxxx&lt;yy', 8)).toEqual(['xxxxxx', '&lt;yy']);
  });
});

describe('decodeActionValue', () => {
  it('rejects anything that is not {command, input} with primitive values', () => {
    expect(decodeActionValue(undefined)).toBeUndefined();
    expect(decodeActionValue('not json')).toBeUndefined();
    expect(decodeActionValue('{"command":"jobs"}')).toBeUndefined();
    expect(decodeActionValue('{"command":"jobs","input":{"a":{"b":1}}}')).toBeUndefined();
    expect(decodeActionValue('{"command":"jobs","input":{"page":2}}')).toEqual({
      command: 'jobs',
      input: { page: 2 },
    });
  });
});

describe('renderSlack: terminal controls', () => {
  it('drops NUL, BEL, ESC, DEL and C1 controls but keeps newlines and tabs', () => {
    const rendered = renderSlack({
      text: 'Org\u0000: ACME\u0007\u001b[31m\nline\ttwo\u007f\u0085',
      embeds: [{ title: 'Host\u001b]0;pwned\u0007', fields: [{ name: 'Org\u0008', value: 'ACME\r\nInc' }] }],
    });
    expect(JSON.stringify(rendered)).not.toMatch(/\\u00(0[0-8b-f]|1[0-9a-f])|[\u007f-\u009f]/);
    expect(rendered.text).toContain('Org: ACME[31m\nline\ttwo');
  });
});

describe('renderSlack: files and control characters', () => {
  const reply: Reply = {
    text: 'report \u202eevil',
    attachments: [
      {
        filename: 'chart\u202egnp.exe',
        contentType: 'image/png',
        bytes: new Uint8Array([1]),
        description: 'alt \u2066text',
      },
    ],
    actions: [{ label: 'Next \u202e', command: 'jobs', input: { what: 'rust\u202e', page: 2 } }],
  };

  it('describes the files to upload with names and alt text cleaned like the text, buttons included', () => {
    const rendered = renderSlack(reply);
    expect(rendered.files).toEqual([
      {
        filename: 'chartgnp.exe',
        contentType: 'image/png',
        bytes: reply.attachments![0]!.bytes,
        description: 'alt text',
      },
    ]);
    expect(JSON.stringify(rendered)).not.toMatch(/\p{Bidi_Control}/u);
    expect(decodeActionValue(buttons(rendered.blocks)[0]!.value)).toEqual({
      command: 'jobs',
      input: { what: 'rust', page: 2 },
    });
  });

  it('shares no file from a private reply, and none where the message cannot carry files', () => {
    expect(renderSlack({ ...reply, ephemeral: true }).files).toEqual([]);
    const webhook = renderSlack(reply, { files: 'none', buttons: false });
    expect(webhook.files).toEqual([]);
    expect(contexts(webhook.blocks).map(contextText).join('\n')).toContain(
      '1 file left out (chartgnp.exe): a Slack incoming webhook cannot carry files.',
    );
    expect(buttons(webhook.blocks)).toEqual([]);
  });
});
