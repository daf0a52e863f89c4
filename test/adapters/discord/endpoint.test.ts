// `npm run register -- --endpoint https://…`: the application's interactions endpoint URL is set
// with Edit Current Application (PATCH /applications/@me), as the Developer Portal would.
import { describe, expect, it } from 'vitest';
import { setInteractionsEndpoint } from '../../../adapters/discord/register.ts';
import { AdapterError } from '../../../src/errors.ts';
import { readArgs } from '../../../src/register-commands.ts';
import { SILENT_LOG } from '../../support/command-doubles.ts';
import { APP_ID, BOT_TOKEN, GUILD_ID } from './fake-discord.ts';
import { DISCORD_ENV, registerRun, useFakeDiscord } from './registration.ts';

const fake = useFakeDiscord();
const config = () => ({ token: BOT_TOKEN, applicationId: APP_ID, guildId: GUILD_ID, apiUrl: fake.apiUrl });

describe('the interactions endpoint URL', () => {
  it('is set with PATCH /applications/@me and the bot token', async () => {
    await setInteractionsEndpoint({
      config: config(),
      url: 'https://bot.example.org/interactions',
      log: SILENT_LOG,
    });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({
      kind: 'application',
      method: 'PATCH',
      path: '/api/v10/applications/@me',
      authorization: `Bot ${BOT_TOKEN}`,
      json: { interactions_endpoint_url: 'https://bot.example.org/interactions' },
    });
  });

  it('refuses anything but an https:// URL without calling Discord', async () => {
    for (const url of ['http://bot.example.org/interactions', 'bot.example.org', '']) {
      await expect(setInteractionsEndpoint({ config: config(), url, log: SILENT_LOG })).rejects.toThrow(
        'must be an https:// URL',
      );
    }
    expect(fake.calls).toHaveLength(0);
  });

  it('says Discord could not verify the URL, without the token', async () => {
    const failure = setInteractionsEndpoint({
      config: config(),
      url: 'https://unreachable.example.org/interactions',
      log: SILENT_LOG,
    });
    await expect(failure).rejects.toBeInstanceOf(AdapterError);
    const err = (await failure.catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^Discord rejected the interactions endpoint URL: /);
    expect(err.message).toContain('could not be verified');
    expect(err.message).not.toContain(BOT_TOKEN);
  });

  it('reads --endpoint URL and --endpoint=URL from the command line', () => {
    expect(readArgs([]).endpoint).toBeUndefined();
    expect(readArgs(['--endpoint', 'https://a.example/i']).endpoint).toBe('https://a.example/i');
    expect(readArgs(['--endpoint=https://a.example/i']).endpoint).toBe('https://a.example/i');
    expect(() => readArgs(['--endpoint'])).toThrow();
    expect(() => readArgs(['--endpoint='])).toThrow(/https:\/\/ URL/);
    expect(() => readArgs(['--endpoint', 'https://a.example/i', '--slack-manifest'])).toThrow(/for Discord/);
  });

  it('npm run register -- --endpoint publishes the commands, then sets the endpoint', async () => {
    const { code, stdout, stderr } = await registerRun(
      ['--endpoint', 'https://bot.example.org/interactions'],
      {
        ...DISCORD_ENV,
        DISCORD_API_URL: fake.apiUrl,
      },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(fake.calls.map((c) => c.kind)).toEqual(['commands', 'application']);
    expect(stdout).toContain('Interactions endpoint set to https://bot.example.org/interactions\n');
  });
});
