// DISCORD_MODE=http's variables: the public key, the port that serves the endpoint, the path.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { ConfigError } from '../../src/errors.ts';

const KEY = 'a1'.repeat(32);
const base = { DISCORD_TOKEN: 'bot-token', DISCORD_APPLICATION_ID: '1187421520894746624' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map((p) => `${p.variable}: ${p.message}`);
    throw err;
  }
}

describe('Discord HTTP mode configuration', () => {
  it('is the gateway unless DISCORD_MODE says http', () => {
    expect(loadConfig(base).discord).toMatchObject({ mode: 'gateway', interactionsPath: '/interactions' });
  });

  it('takes the public key, the port and a path', () => {
    const config = loadConfig({
      ...base,
      DISCORD_MODE: 'http',
      DISCORD_PUBLIC_KEY: KEY,
      PORT: '8080',
      DISCORD_INTERACTIONS_PATH: '/discord/interactions',
    });
    expect(config.discord).toMatchObject({
      mode: 'http',
      publicKey: KEY,
      interactionsPath: '/discord/interactions',
    });
    expect(config.health?.port).toBe(8080);
  });

  it('names each missing or malformed variable', () => {
    expect(problems({ ...base, DISCORD_MODE: 'http' })).toEqual([
      'DISCORD_PUBLIC_KEY: must be set when DISCORD_MODE is http',
      'PORT: must be set when DISCORD_MODE is http',
    ]);
    expect(problems({ ...base, DISCORD_MODE: 'http', DISCORD_PUBLIC_KEY: 'abc', PORT: '8080' })).toEqual([
      expect.stringMatching(/^DISCORD_PUBLIC_KEY: must be the 64 hexadecimal digits/),
    ]);
    expect(problems({ ...base, DISCORD_MODE: 'webhook' })).toEqual([
      expect.stringMatching(/^DISCORD_MODE: /),
    ]);
    expect(
      problems({
        ...base,
        DISCORD_MODE: 'http',
        DISCORD_PUBLIC_KEY: KEY,
        PORT: '8080',
        DISCORD_INTERACTIONS_PATH: '/healthz',
      }),
    ).toEqual(['DISCORD_INTERACTIONS_PATH: must not be /healthz']);
  });
});
