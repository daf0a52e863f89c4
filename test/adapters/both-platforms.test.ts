// A team on both platforms: the Discord and Slack adapters run in one process, on one registry
// and one dispatcher, each answering its own users.
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { contractCommands, quiet, received } from './contract.ts';
import { discordDriver, slackDriver } from './drivers.ts';

describe('Discord and Slack in one process', () => {
  it('serves both platforms at once through one dispatcher', async () => {
    const registry = createRegistry(contractCommands);
    const dispatcher = createDispatcher({
      registry,
      services: {},
      log: quiet,
      commandTimeoutMs: 5_000,
      serviceVariables: {},
    });
    const discord = await discordDriver();
    const slack = await slackDriver();
    try {
      const [discordAdapter, slackAdapter] = await Promise.all([
        discord.start(registry, dispatcher),
        slack.start(registry, dispatcher),
      ]);
      expect([discordAdapter.isReady(), slackAdapter.isReady()]).toEqual([true, true]);
      const [fromDiscord, fromSlack] = await Promise.all([
        discord.send('echo', { text: 'hello from discord' }),
        slack.send('echo', { text: 'hello from slack' }),
      ]);
      const [discordReplies, slackReplies] = await Promise.all([
        received(discord, fromDiscord),
        received(slack, fromSlack),
      ]);
      expect(discordReplies).toHaveLength(1);
      expect(slackReplies).toHaveLength(1);
      expect(discordReplies[0]!.text).toContain('echo: hello from discord');
      expect(slackReplies[0]!.text).toContain('echo: hello from slack');
      expect(dispatcher.inFlight()).toBe(0);
    } finally {
      await Promise.allSettled([discord.stop(), slack.stop()]);
      await Promise.allSettled([discord.close(), slack.close()]);
    }
  });
});
