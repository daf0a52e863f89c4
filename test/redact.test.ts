import { describe, expect, it } from 'vitest';
import {
  jsonMayHoldSecret,
  mayNeedRedaction,
  REDACTED,
  redactSecrets,
  redactText,
  redactValue,
  registerSecret,
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

describe('jsonMayHoldSecret', () => {
  const inString = (json: string) => JSON.stringify({ banner: JSON.parse(json) as unknown });

  it('finds a secret written plainly or with any of its characters escaped', () => {
    expect(jsonMayHoldSecret(`{"city":"${SECRET}"}`)).toBe(true);
    const escaped = [...SECRET].map((c, i) =>
      i % 3 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
    );
    const json = `{"city":"${escaped.join('')}"}`;
    expect((JSON.parse(json) as { city: string }).city).toBe(SECRET);
    expect(jsonMayHoldSecret(json)).toBe(true);
    expect(jsonMayHoldSecret(`{"city":"${SECRET.replace('-', '\\u002D')}"}`)).toBe(true);
    expect(jsonMayHoldSecret(inString(`"${SECRET}"`))).toBe(true);
  });

  it('knows the characters of a secret registered after an earlier check', () => {
    expect(jsonMayHoldSecret(String.raw`{"a":"\u005a"}`)).toBe(false);
    const later = 'LATER_ZZZ_secret';
    registerSecret(later);
    expect(jsonMayHoldSecret(String.raw`{"a":"LATER_\u005aZZ_secret"}`)).toBe(true);
    // "\b" in JSON is a backspace, never the letter b of a secret.
    expect(jsonMayHoldSecret(String.raw`{"a":"\b\f\n\r\t"}`)).toBe(false);
  });

  it('says no for escapes that cannot form a secret, so the parsed value is not walked', () => {
    const banner = String.raw`HTTP/1.1 200 OK\r\n\u0000\u0012 \"quoted\" \\ back\/slash\t`;
    const json = `{"data":"${banner}","ports":[80]}`;
    expect((JSON.parse(json) as { data: string }).data).toContain('\r\n\u0000');
    expect(jsonMayHoldSecret(json)).toBe(false);
    expect(jsonMayHoldSecret('{"city":"Oslo"}')).toBe(false);
    // An escaped backslash before "u" is a backslash and the letter u, not a \u escape.
    expect(jsonMayHoldSecret(`{"a":"\\\\u0072${SECRET.slice(1)}"}`)).toBe(false);
  });
});

describe('redactValue', () => {
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
