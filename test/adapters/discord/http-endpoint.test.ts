// The endpoint's parts on their own: the header window on a fixed clock, the Ed25519 check, the
// public key's form, and a request nothing answers in time.
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkSignatureHeaders,
  createHttpInteractions,
  discordPublicKey,
  verifySignature,
} from '../../../adapters/discord/http.ts';
import type { CommandLog } from '../../../src/core/command.ts';
import { createRoutes, startHealthServer, type HealthServer } from '../../../src/health.ts';
import { createMetrics } from '../../../src/metrics.ts';
import { generateKeys, post, signedHeaders } from './http-support.ts';

const keys = generateKeys();
const SIG = 'ab'.repeat(64);
const NOW = 1_795_000_000_000;
const seconds = (ms: number) => String(Math.floor(ms / 1000));

describe('checkSignatureHeaders', () => {
  it.each([
    ['now', seconds(NOW), true],
    ['5 minutes old', seconds(NOW - 300_000), true],
    ['over 5 minutes old', seconds(NOW - 301_000), false],
    ['a minute ahead', seconds(NOW + 60_000), true],
    ['over a minute ahead', seconds(NOW + 61_000), false],
    ['not a number', 'yesterday', false],
    ['fractional', `${seconds(NOW)}.5`, false],
  ])('a timestamp %s: %s', (_name, timestamp, ok) => {
    expect(checkSignatureHeaders(SIG, timestamp, NOW)).toBe(ok);
  });

  it('refuses a missing, short or non-hex signature', () => {
    expect(checkSignatureHeaders(undefined, seconds(NOW), NOW)).toBe(false);
    expect(checkSignatureHeaders(SIG.slice(2), seconds(NOW), NOW)).toBe(false);
    expect(checkSignatureHeaders(`${SIG.slice(2)}zz`, seconds(NOW), NOW)).toBe(false);
    expect(checkSignatureHeaders(SIG, undefined, NOW)).toBe(false);
  });
});

describe('verifySignature and discordPublicKey', () => {
  it('verifies Ed25519 over the timestamp followed by the raw body', () => {
    const body = '{"type":1}';
    const headers = signedHeaders(keys, body, 1_795_000_000);
    const key = discordPublicKey(keys.publicKeyHex);
    const sig = headers['x-signature-ed25519']!;
    expect(verifySignature(key, sig, '1795000000', Buffer.from(body))).toBe(true);
    expect(verifySignature(key, sig, '1795000001', Buffer.from(body))).toBe(false);
    expect(verifySignature(key, sig, '1795000000', Buffer.from('{"type":2}'))).toBe(false);
  });

  it('takes 64 hex digits only', () => {
    expect(() => discordPublicKey('xyz')).toThrow('64 hexadecimal digits');
    expect(() => discordPublicKey(keys.publicKeyHex.slice(2))).toThrow('64 hexadecimal digits');
  });
});

describe('a request nothing answers', () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('gets 503 after the first-answer deadline, logged', async () => {
    const lines: string[] = [];
    const log = {
      debug() {},
      info() {},
      warn: (_o: object, m: string) => lines.push(m),
      error() {},
    } as CommandLog;
    const endpoint = createHttpInteractions({
      publicKey: discordPublicKey(keys.publicKeyHex),
      log,
      firstAnswerDeadlineMs: 50,
    });
    endpoint.attach(() => undefined);
    const routes = createRoutes();
    routes.add('/interactions', endpoint.route);
    server = await startHealthServer({ port: 0, checks: [], metrics: createMetrics(), routes });
    const url = `http://127.0.0.1:${server.port}/interactions`;
    const body = JSON.stringify({ id: '1300000000000000099', type: 2, token: 't', version: 1 });
    expect((await post(url, body, signedHeaders(keys, body))).status).toBe(503);
    expect(lines).toEqual(['discord.http_first_answer_late']);
  });
});
