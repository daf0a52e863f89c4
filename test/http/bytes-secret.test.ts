// Binary answers (an S5 mp3, anything taken as bytes) searched for configured secrets in every
// form a body can carry them: raw, percent-encoded and base64 at any alignment.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesHoldSecret, registerSecret } from '../../src/redact.ts';

const KEY = 'sk_live-bytes/secret+4f9a=c';
registerSecret(KEY);

/** An mp3-looking body: a frame header, random audio bytes, then `inner` at `at`, then more. */
function mp3With(inner: Uint8Array | string, at = 1_000): Uint8Array {
  const body = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(at)]);
  return Buffer.concat([body, Buffer.from(inner), randomBytes(2_000)]);
}

describe('bytesHoldSecret', () => {
  it('finds a configured secret raw, percent-encoded and base64 (standard and URL-safe) in audio bytes', () => {
    expect(bytesHoldSecret(mp3With(KEY))).toBe(true);
    expect(bytesHoldSecret(mp3With(encodeURIComponent(KEY)))).toBe(true);
    for (let lead = 0; lead < 3; lead += 1) {
      const b64 = Buffer.concat([randomBytes(lead + 3), Buffer.from(KEY), randomBytes(4)]).toString('base64');
      expect(bytesHoldSecret(mp3With(b64)), `standard, lead ${lead}`).toBe(true);
      const url = b64.replaceAll('+', '-').replaceAll('/', '_');
      expect(bytesHoldSecret(mp3With(url)), `URL-safe, lead ${lead}`).toBe(true);
    }
  });

  it('finds a secret it is handed besides the registered ones', () => {
    expect(bytesHoldSecret(mp3With('other-key-12345'), ['other-key-12345'])).toBe(true);
    expect(bytesHoldSecret(mp3With('other-key-12345'))).toBe(false);
  });

  it('passes audio that holds no secret, whatever its bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4_096 }), (bytes) => {
        expect(bytesHoldSecret(mp3With(bytes))).toBe(false);
      }),
      { numRuns: 200 },
    );
    expect(bytesHoldSecret(new Uint8Array(0))).toBe(false);
  });

  it('reads a view into a larger buffer by its own bounds only', () => {
    const whole = Buffer.concat([Buffer.from(KEY), randomBytes(64)]);
    expect(bytesHoldSecret(whole.subarray(KEY.length))).toBe(false);
    expect(bytesHoldSecret(whole.subarray(0, KEY.length))).toBe(true);
  });
});
