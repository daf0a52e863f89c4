// Every credential readable from a file (`<NAME>_FILE`), as Docker and Kubernetes secrets are
// mounted: the value is the file's text less its trailing line break, a variable set both ways is
// refused with the other problems, and what a file holds is redacted like any credential.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepare, type Io } from '../../src/cli.ts';
import { loadConfig, secretsOf } from '../../src/config/index.ts';
import { MAX_SECRET_FILE_BYTES, SECRET_VARIABLES, isSecretVariable } from '../../src/config/secret-files.ts';
import { problemsOf } from '../support/config-problems.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-secret-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A secret file as `kubectl create secret` or `docker secret create` from `echo` leaves it. */
async function secretFile(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('<NAME>_FILE', () => {
  it('reads a bot token from its file, trailing newline trimmed, and registers it for redaction', async () => {
    const token = 'discord-token-from-file-1234567890';
    const config = loadConfig({
      DISCORD_TOKEN_FILE: await secretFile('discord-token', `${token}\n`),
      DISCORD_APPLICATION_ID: '123456789012345678',
    });
    expect(config.discord?.token).toBe(token);
    expect(secretsOf(config)).toContain(token);
  });

  it('trims one CRLF line break, and a value without one is taken whole', async () => {
    const config = loadConfig({
      WEATHER_API_KEY_FILE: await secretFile('weather', 'owm-key-from-windows\r\n'),
      GEOCODING_API_KEY_FILE: await secretFile('geocoding', 'pk.eyJ1IjoiaGVyYWxkIn0.no-newline'),
    });
    expect(config.services.weather?.apiKey).toBe('owm-key-from-windows');
    expect(config.services.geocoding?.apiKey).toBe('pk.eyJ1IjoiaGVyYWxkIn0.no-newline');
  });

  it('fills a variable that another one needs: EMAIL_FROM pairs with a token read from a file', async () => {
    const config = loadConfig({
      EMAIL_ACCESS_TOKEN_FILE: await secretFile('resend', 'test-email-token-from-file\n'),
      EMAIL_FROM: 'herald <bot@example.com>',
    });
    expect(config.services.email?.accessToken).toBe('test-email-token-from-file');
  });

  it('refuses a variable set both directly and by file, listed with the other problems', async () => {
    const problems = problemsOf({
      SLACK_BOT_TOKEN: 'test-slack-bot-direct',
      SLACK_BOT_TOKEN_FILE: await secretFile('slack-bot', 'test-slack-bot-from-file\n'),
      SLACK_APP_TOKEN: 'xapp-test-app-token',
      REDIS_URL: 'http://not-redis:6379',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          variable: 'SLACK_BOT_TOKEN_FILE',
          message: 'set either SLACK_BOT_TOKEN or SLACK_BOT_TOKEN_FILE, not both',
        },
        { variable: 'REDIS_URL', message: expect.stringContaining('redis://') },
      ]),
    );
    expect(problems).toHaveLength(2);
    // The refusal names variables and paths, never what the file holds.
    expect(JSON.stringify(problems)).not.toContain('from-file');
  });

  it('refuses a missing file, a folder and an oversized file, naming the path', async () => {
    const missing = join(dir, 'does-not-exist');
    const big = await secretFile('big', 'x'.repeat(MAX_SECRET_FILE_BYTES + 1));
    const problems = problemsOf({
      WEATHER_API_KEY_FILE: missing,
      SPEECH_API_KEY_FILE: dir,
      HOSTSCAN_API_KEY_FILE: big,
    });
    expect(problems).toEqual([
      { variable: 'WEATHER_API_KEY_FILE', message: `cannot read ${missing} (ENOENT)` },
      {
        variable: 'SPEECH_API_KEY_FILE',
        message: `${dir} is a directory, not a regular file; name the file that holds the value`,
      },
      {
        variable: 'HOSTSCAN_API_KEY_FILE',
        message: `${big} holds ${MAX_SECRET_FILE_BYTES + 1} bytes; a credential file holds one value`,
      },
    ]);
  });

  it('follows symlinks to a regular file, as Kubernetes mounts a Secret (..data/ links)', async () => {
    const target = await secretFile('k8s-weather', 'weather-key-behind-a-link\n');
    const link = join(dir, 'WEATHER_API_KEY');
    await symlink(target, link);
    expect(loadConfig({ WEATHER_API_KEY_FILE: link }).services.weather?.apiKey).toBe(
      'weather-key-behind-a-link',
    );
  });

  it('refuses /dev/zero, a FIFO and a symlink to a device at once, each in one sentence, without reading', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const linkToZero = join(dir, 'zero-link');
    await symlink('/dev/zero', linkToZero);
    const problems = problemsOf({
      WEATHER_API_KEY_FILE: '/dev/zero',
      SPEECH_API_KEY_FILE: fifo,
      HOSTSCAN_API_KEY_FILE: linkToZero,
    });
    expect(problems).toEqual([
      {
        variable: 'WEATHER_API_KEY_FILE',
        message: '/dev/zero is a device, not a regular file; name the file that holds the value',
      },
      {
        variable: 'SPEECH_API_KEY_FILE',
        message: `${fifo} is a FIFO, not a regular file; name the file that holds the value`,
      },
      {
        variable: 'HOSTSCAN_API_KEY_FILE',
        message: `${linkToZero} is a device, not a regular file; name the file that holds the value`,
      },
    ]);
  });

  it('treats an empty <NAME>_FILE and an empty file as unset', async () => {
    const config = loadConfig({
      WEATHER_API_KEY_FILE: '',
      SPEECH_API_KEY_FILE: await secretFile('empty', '\n'),
    });
    expect(config.services.weather).toBeUndefined();
    expect(config.services.speech).toBeUndefined();
  });

  it('reads a named destination from WEBHOOK_URL_<NAME>_FILE, which is never a destination itself', async () => {
    const url = 'https://discord.com/api/webhooks/223456789012345678/dest-token-from-file_abcdef';
    const config = loadConfig({ WEBHOOK_URL_OPS_FILE: await secretFile('ops', `${url}\n`) });
    expect(Object.keys(config.schedule.destinations)).toEqual(['ops']);
    expect(config.schedule.destinations.ops?.token).toBe('dest-token-from-file_abcdef');
  });

  it('registers the whole of what a file holds, also for a variable secretsOf does not list (REDIS_URL)', async () => {
    const url = 'redis://default:s3cret-redis-password@redis.internal:6379/0';
    const config = loadConfig({ REDIS_URL_FILE: await secretFile('redis', `${url}\n`) });
    expect(config.redisUrl).toBe(url);
    expect(secretsOf(config)).toContain(url);
  });

  it('does not read a file for a variable that is not a credential', async () => {
    const config = loadConfig({ PORT_FILE: await secretFile('port', '3000\n') });
    expect(config.health).toBeUndefined();
  });

  it('covers every credential herald registers: each secret lives in a variable readable from a file', () => {
    const env: Record<string, string> = {
      EMAIL_ACCESS_TOKEN: 're_email_token_0001',
      EMAIL_FROM: 'herald <bot@example.com>',
      ANALYTICS_ACCESS_TOKEN: 'ya29.analytics_token_0002',
      ANALYTICS_PROPERTY_ID: '123456789',
      WEATHER_API_KEY: 'weather_key_0003',
      GEOCODING_API_KEY: 'geocoding_key_0004',
      SPEECH_API_KEY: 'speech_key_0005',
      HOSTSCAN_API_KEY: 'hostscan_key_0006',
      WEBHOOK_ID: '323456789012345678',
      WEBHOOK_TOKEN: 'webhook_token_0007',
      JOBS_APP_ID: 'jobs_app_0008',
      JOBS_API_KEY: 'jobs_key_0009',
      DISCORD_TOKEN: 'discord_token_0010',
      DISCORD_APPLICATION_ID: '423456789012345678',
      SLACK_BOT_TOKEN: 'slack_bot_0011',
      SLACK_SIGNING_SECRET: 'slack_signing_0012',
      WEBHOOK_URL_OPS: 'https://discord.com/api/webhooks/523456789012345678/ops_token_0013',
    };
    const secrets = secretsOf(loadConfig(env));
    expect(secrets.length).toBeGreaterThanOrEqual(13);
    const fileable = Object.entries(env).filter(([name]) => isSecretVariable(name));
    for (const secret of secrets) {
      expect(
        fileable.some(([, value]) => value.includes(secret)),
        secret,
      ).toBe(true);
    }
    expect(SECRET_VARIABLES).toContain('SLACK_APP_TOKEN');
  });

  it('reaches `npm start -- --check` through .env as well: a _FILE in the file is read', async () => {
    const envFile = await secretFile(
      'herald.env',
      `WEATHER_API_KEY_FILE=${await secretFile('w2', 'weather-key-via-dotenv\n')}\nSANDBOX=off\n`,
    );
    const io: Io & { out: (t: string) => void; text: string } = {
      text: '',
      out: (t) => void (io.text += t),
      err: (t) => void (io.text += t),
    };
    expect(prepare(['--check'], { HERALD_ENV_FILE: envFile }, io)).toEqual({ kind: 'exit', code: 0 });
    expect(io.text).toContain('service weather: real');
  });
});
