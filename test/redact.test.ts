import { describe, expect, it } from 'vitest';
import {
  mayNeedRedaction,
  REDACTED,
  redactSecrets,
  redactText,
  redactValue,
  registerSecret,
  TOO_DEEP,
} from '../src/redact.ts';

const SECRET = 'redact-test-secret-8c1f0e';
registerSecret(SECRET);

describe('redactText', () => {
  it('blanks a registered secret, plain and percent-encoded, and leaves clean text as it is', () => {
    const spaced = 'redact test/secret+9a';
    registerSecret(spaced);
    expect(redactText(`a ${SECRET} b ${encodeURIComponent(spaced)} c`)).toBe(`a ${REDACTED} b ${REDACTED} c`);
    expect(redactText('London, 12 °C')).toBe('London, 12 °C');
  });

  it("blanks Discord's webhook and interaction tokens, and a secret only the caller knows", () => {
    expect(
      redactText('POST /api/v10/interactions/123/tok.en-1/callback and /webhooks/9/abc?wait=true', [
        'own-token-42',
      ]),
    ).toBe(`POST /api/v10/interactions/123/${REDACTED}/callback and /webhooks/9/${REDACTED}?wait=true`);
    expect(redactText('failed with own-token-42', ['own-token-42'])).toBe(`failed with ${REDACTED}`);
    // Short values would blank ordinary words.
    expect(redactText('the cat sat', ['cat'])).toBe('the cat sat');
  });
});

describe('mayNeedRedaction', () => {
  it('is false exactly when redactText would return the text as it is', () => {
    const texts = [
      'London, 12 °C',
      `a ${SECRET} b`,
      `a\n${encodeURIComponent(`${SECRET}/+`)}`,
      'city?appid=abc',
      'Authorization: Bearer abc.def',
      'xoxb-123-456',
      'see https://hooks.slack.com/actions/T1/2/3',
      'POST /webhooks/9/abc',
      'weather\nxoxb-1\nok',
    ];
    registerSecret(`${SECRET}/+`);
    for (const text of texts) expect(mayNeedRedaction(text)).toBe(redactText(text) !== text);
  });
});

describe('redactSecrets', () => {
  it('blanks registered secrets only, so that data shaped like a carrier stays as it is', () => {
    expect(redactSecrets(`Bad city&appid=evil ${SECRET}`)).toBe(`Bad city&appid=evil ${REDACTED}`);
    expect(redactText('Bad city&appid=evil')).toBe(`Bad city&appid=${REDACTED}`);
  });
});

describe('an upstream answer, parsed then walked', () => {
  const walked = (json: string) => redactValue(JSON.parse(json) as unknown, redactSecrets);

  it('blanks a secret written plainly or with any of its characters escaped', () => {
    expect(walked(`{"city":"${SECRET}"}`)).toEqual({ city: REDACTED });
    const escaped = [...SECRET].map((c, i) =>
      i % 3 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
    );
    expect(walked(`{"city":"${escaped.join('')}","ok":true}`)).toEqual({ city: REDACTED, ok: true });
    expect(walked(`{"city":"${SECRET.replace('-', '\\u002D')}"}`)).toEqual({ city: REDACTED });
    expect(walked(JSON.stringify({ banner: { nested: [`x ${SECRET} y`] } }))).toEqual({
      banner: { nested: [`x ${REDACTED} y`] },
    });
  });

  it('blanks a secret registered after an earlier answer', () => {
    const later = 'LATER_ZZZ_secret';
    const json = String.raw`{"a":"LATER_\u005aZZ_secret"}`;
    expect(walked(json)).toEqual({ a: later });
    registerSecret(later);
    expect(walked(json)).toEqual({ a: REDACTED });
  });

  it('returns a clean answer itself, escapes and all', () => {
    const banner = String.raw`HTTP/1.1 200 OK\r\n\u0000\u0012 \"quoted\" \\ back\/slash\t`;
    const parsed = JSON.parse(`{"data":"${banner}","ports":[80]}`) as unknown;
    expect(redactValue(parsed, redactSecrets)).toBe(parsed);
    // An escaped backslash before "u" is a backslash and the letter u, not a \u escape.
    expect(walked(`{"a":"\\\\u0072${SECRET.slice(1)}"}`)).toEqual({ a: `\\u0072${SECRET.slice(1)}` });
  });
});

describe('redactValue', () => {
  it('blanks what lies below the depth it walks instead of handing it back', () => {
    // An analytics answer whose deepest level echoes the request, key and all.
    const answer = {
      data: {
        report: {
          rows: [
            {
              dimensions: [
                {
                  value: 'Oslo',
                  source: { meta: { debug: { request: `GET /v1/report?key=${SECRET}` } } },
                },
              ],
              metrics: [{ value: '1204' }],
            },
          ],
        },
      },
    };
    const safe = redactValue(answer, redactSecrets);
    expect(JSON.stringify(safe)).not.toContain(SECRET);
    const dimension = safe.data.report.rows[0]!.dimensions[0]!;
    expect(dimension.value).toBe('Oslo');
    expect(dimension.source.meta.debug).toBe(TOO_DEEP);
    expect(safe.data.report.rows[0]!.metrics[0]!.value).toBe('1204');
    // A clean value as deep is blanked too: below the walk nothing is known to be clean.
    const clean = { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: 'plain' } } } } } } } } } };
    expect(JSON.stringify(redactValue(clean))).toContain(TOO_DEEP);
  });

  it('blanks secrets at any depth of a reply and keeps bytes and dates as they are', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const when = new Date(0);
    const reply = {
      text: `City: ${SECRET}`,
      embeds: [{ title: 'ok', fields: [{ name: 'Company', value: `Acme ${SECRET}` }], timestamp: when }],
      attachments: [{ filename: 'a.mp3', contentType: 'audio/mpeg', bytes }],
    };
    const safe = redactValue(reply);
    expect(safe.text).toBe(`City: ${REDACTED}`);
    expect(safe.embeds[0]!.fields[0]!.value).toBe(`Acme ${REDACTED}`);
    expect(safe.embeds[0]!.timestamp).toBe(when);
    expect(safe.attachments[0]!.bytes).toBe(bytes);
    // The original is not changed.
    expect(reply.text).toContain(SECRET);
  });

  it('returns the very value when nothing needed blanking', () => {
    const reply = { text: 'Oslo', embeds: [{ title: 'Oslo', fields: [{ name: 'a', value: 'b' }] }] };
    expect(redactValue(reply)).toBe(reply);
  });
});
