// With the sandbox answering and a chat platform (SANDBOX=on with Slack or Discord), an answer the
// whole channel sees says that its data is simulated; an answer only its asker sees, and the
// console (whose start says the sandbox answers), stay as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildServices, registrationParts } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { Reply } from '../../src/core/reply.ts';
import { createLogger } from '../../src/log.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { planServices, SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const log = createLogger({ level: 'silent', format: 'json' });
let fake: SandboxServer;
beforeAll(async () => {
  fake = await startFake(sandboxHandlers({ credential: SANDBOX_CREDENTIAL }));
});
afterAll(() => fake.close());

function botFor(env: Record<string, string>) {
  const config = loadConfig(env);
  const { services } = buildServices(config, planServices(config), fake.url, {});
  return buildApp(config, 'bot', { ...registrationParts(log), services }).dispatcher;
}

async function answer(
  env: Record<string, string>,
  platform: Actor['platform'],
  command: string,
  rawInput: string,
) {
  let reply: Reply | undefined;
  await botFor(env).onInvocation({
    command,
    rawInput,
    actor: { platform, id: 'U0MARKER1', displayName: 'ana', roles: [] },
    channelId: 'C0MARKER1',
    signal: new AbortController().signal,
    respond: (r) => {
      reply = r;
      return Promise.resolve();
    },
  });
  return reply!;
}

const SLACK = { SANDBOX: 'on', SLACK_BOT_TOKEN: 'xoxb-marker', SLACK_APP_TOKEN: 'xapp-marker' };
const DISCORD = {
  SANDBOX: 'on',
  DISCORD_TOKEN: 'discord-marker-token',
  DISCORD_APPLICATION_ID: '123456789012345678',
};
const MARK = 'Simulated data (built-in sandbox): weather.';

describe('channel answers from the simulator', () => {
  it('carry the simulated-data marker on Slack, in the text and on the card', async () => {
    const reply = await answer(SLACK, 'slack', 'weather', 'Oslo');
    expect(reply.ephemeral).toBeFalsy();
    expect(reply.text.endsWith(`\n\n${MARK}`)).toBe(true);
    for (const embed of reply.embeds ?? []) expect(embed.footer).toContain(MARK);
  });

  it('carry it on Discord alike', async () => {
    expect((await answer(DISCORD, 'discord', 'weather', 'Oslo')).text).toContain(MARK);
  });

  it('leave out an answer only its asker sees, a command that uses no simulated service, and the console', async () => {
    expect((await answer(SLACK, 'slack', 'weather', '')).text).not.toContain('Simulated data');
    expect((await answer(SLACK, 'slack', 'help', '')).text).not.toContain('Simulated data');
    expect((await answer({ SANDBOX: 'on' }, 'console', 'weather', 'Oslo')).text).not.toContain(
      'Simulated data',
    );
  });

  it('leave real data unmarked', async () => {
    const env = {
      ...SLACK,
      SANDBOX: 'auto',
      WEATHER_API_KEY: SANDBOX_CREDENTIAL,
      WEATHER_BASE_URL: `${fake.url}/weather/data/2.5`,
    };
    const reply = await answer(env, 'slack', 'weather', 'Oslo');
    expect(reply.text).toContain('Oslo');
    expect(reply.text).not.toContain('Simulated data');
  });

  it('name every simulated service the run used, the speech of speak:yes included', async () => {
    const reply = await answer(SLACK, 'slack', 'weather', 'Oslo speak:yes');
    expect(reply.attachments?.some((a) => a.contentType === 'audio/mpeg')).toBe(true);
    expect(reply.text.endsWith('\n\nSimulated data (built-in sandbox): weather, speech.')).toBe(true);
  });
});
