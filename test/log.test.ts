import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../src/log.ts';
import { redactText, registerSecret, TOO_DEEP } from '../src/redact.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      cb();
    },
  });
  return { lines, log: createLogger({ level: 'debug', destination }) };
}

const SECRET = {
  bearer: 'sentinel-bearer-4f1c9a',
  xApiKey: 'sentinel-xapikey-77ab2c',
  xiApiKey: 'sentinel-xi-9d0e11',
  appid: 'sentinel-appid-31bb4e',
  accessToken: 'pk.sentinel-mapbox-5a6b7c',
  key: 'sentinel-shodan-0f0f0f',
  appId: 'sentinel-adzuna-id-123',
  appKey: 'sentinel-adzuna-key-456',
  webhookToken: 'sentinel-webhook-token-abcdef',
};

describe('log redaction', () => {
  it('redacts every credential carrier by key and by pattern, even when the value was never registered', async () => {
    const { lines, log } = capture();
    log.info(
      {
        headers: {
          authorization: `Bearer ${SECRET.bearer}`,
          'x-api-key': SECRET.xApiKey,
          'xi-api-key': SECRET.xiApiKey,
        },
        url: `https://api.example.com/data/2.5/weather?q=Oslo&appid=${SECRET.appid}&units=metric`,
      },
      'request',
    );
    log.warn(
      { url: `https://api.mapbox.com/geocoding/v5/mapbox.places/x.json?access_token=${SECRET.accessToken}` },
      'geo',
    );
    log.warn(`GET https://api.shodan.io/shodan/host/1.1.1.1?key=${SECRET.key} failed`);
    log.error(
      { err: new Error(`failed https://a/jobs/gb/search/1?app_id=${SECRET.appId}&app_key=${SECRET.appKey}`) },
      'jobs',
    );
    log.error({ target: `https://discord.com/api/webhooks/123/${SECRET.webhookToken}` }, 'webhook');
    log.info({ msg2: `Authorization: Bearer ${SECRET.bearer}` }, 'free text');
    log.flush();
    await new Promise((r) => setTimeout(r, 20));
    const out = lines.join('\n');
    expect(lines.length).toBe(6);
    for (const value of Object.values(SECRET)) expect(out).not.toContain(value);
    expect(out).toContain('[REDACTED]');
    expect(out).toContain('q=Oslo');
  });

  it('redacts a registered secret wherever it appears, including URL-encoded', () => {
    registerSecret('sentinel/odd+secret=value');
    const text = `boom sentinel/odd+secret=value and ${encodeURIComponent('sentinel/odd+secret=value')}`;
    expect(redactText(text)).toBe('boom [REDACTED] and [REDACTED]');
  });

  it('blanks credential keys at any depth, whatever their value', async () => {
    const { lines, log } = capture();
    log.info(
      {
        req: { headers: { 'X-Api-Key': 'unregistered-key-value-1', Authorization: 'Basic dXNlcjpwdw==' } },
        config: {
          services: { weather: { apiKey: 'unregistered-key-value-2' }, jobs: { appId: 'unregistered-3' } },
        },
        slack: { botToken: 'unregistered-4', signingSecret: 'unregistered-5' },
        city: 'Oslo',
      },
      'nested',
    );
    log.flush();
    await new Promise((r) => setTimeout(r, 20));
    const out = lines.join('\n');
    for (const v of [
      'unregistered-key-value-1',
      'dXNlcjpwdw==',
      'unregistered-key-value-2',
      'unregistered-3',
      'unregistered-4',
      'unregistered-5',
    ]) {
      expect(out).not.toContain(v);
    }
    expect(out).toContain('"city":"Oslo"');
  });

  it('blanks what lies below the depth it walks: a header deep in an error cause is never logged', async () => {
    const { lines, log } = capture();
    // An HTTP library's error, its request's options (and their headers) kept on the cause.
    const cause = {
      name: 'RequestError',
      response: {
        statusCode: 503,
        request: {
          options: {
            agent: { name: 'undici' },
            transport: { headers: { 'x-api-key': 'unregistered-deep-key-1', accept: 'application/json' } },
          },
        },
      },
    };
    const err = Object.assign(new Error('weather.current failed: unavailable'), { status: 503, cause });
    log.error({ err, command: 'weather' }, 'command.failed');
    log.flush();
    await new Promise((r) => setTimeout(r, 20));
    const out = lines.join('\n');
    expect(out).not.toContain('unregistered-deep-key-1');
    expect(out).toContain(TOO_DEEP);
    const line = JSON.parse(lines.at(-1)!) as { err: { cause: { response: { statusCode: number } } } };
    expect(line.err.cause.response.statusCode).toBe(503);
  });

  it("keeps a date inside a logged error as its ISO time (a quota's next call)", async () => {
    const { lines, log } = capture();
    const err = Object.assign(new Error('jobSearch.search failed: rate_limited'), {
      quota: { limit: 250, per: 'day', nextAt: new Date(Date.UTC(2026, 10, 25)) },
    });
    log.warn({ err, at: new Date(Number.NaN) }, 'quota');
    log.flush();
    await new Promise((r) => setTimeout(r, 20));
    const line = JSON.parse(lines[0]!) as { err: { quota: { nextAt: string } }; at: string };
    expect(line.err.quota.nextAt).toBe('2026-11-25T00:00:00.000Z');
    expect(line.at).toBe('Invalid Date');
  });

  it('redacts inside nested error causes', async () => {
    const { lines, log } = capture();
    registerSecret(SECRET.xiApiKey);
    const err = new Error('outer', { cause: new Error(`inner with ${SECRET.xiApiKey}`) });
    log.error({ err }, 'nested');
    log.flush();
    await new Promise((r) => setTimeout(r, 20));
    expect(lines.join('\n')).not.toContain(SECRET.xiApiKey);
    expect(lines.join('\n')).toContain('inner with [REDACTED]');
  });

  it('blanks a flat record (a command.finished line) by key and by value, and keeps it whole when clean', async () => {
    const { lines, log } = capture();
    registerSecret(SECRET.appid);
    log.info({ command: 'weather', userId: `u-${SECRET.appid}`, durationMs: 3 }, 'command.finished');
    log.info({ command: 'weather', token: 'unregistered-flat-token', isOk: true }, 'command.finished');
    log.info({ command: 'weather', invocationId: 'abc', outcome: 'ok', durationMs: 52 }, 'command.finished');
    log.info({ command: 'weather' }, `message with ${SECRET.appid}`);
    log.flush();
    await new Promise((r) => setTimeout(r, 20));
    const out = lines.join('\n');
    expect(out).not.toContain(SECRET.appid);
    expect(out).not.toContain('unregistered-flat-token');
    expect(JSON.parse(lines[0]!)).toMatchObject({ userId: 'u-[REDACTED]', durationMs: 3 });
    expect(JSON.parse(lines[1]!)).toMatchObject({ token: '[REDACTED]', isOk: true });
    expect(JSON.parse(lines[2]!)).toMatchObject({ invocationId: 'abc', outcome: 'ok', durationMs: 52 });
    expect(JSON.parse(lines[3]!)).toMatchObject({ msg: 'message with [REDACTED]' });
  });
});
