// Interaction answers never take from Discord's budget: callbacks, edits and follow-ups made with an
// interaction's token are outside Discord's global limit
// (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit), so a command's answer
// goes at once even while the budget is paused, out of turns, and past its invalid-request limit.
// The budget here is a double that fails every call; the answers reach the loopback fake Discord.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RateBudget } from '../../src/domain/rate-budget.ts';
import { createInteractionWebhookClient } from '../../src/services/webhook/discord-interaction.ts';
import { APP_ID, startFakeDiscord, type FakeDiscord } from '../adapters/discord/fake-discord.ts';

let discord: FakeDiscord;
beforeAll(async () => void (discord = await startFakeDiscord()));
afterAll(() => discord.close());

it('edits, follows up and deletes with no call to the budget', async () => {
  const called: string[] = [];
  const refuse = (name: string) => () => {
    called.push(name);
    return Promise.reject(new Error('an interaction answer must not wait for the budget'));
  };
  const budget: RateBudget = {
    take: refuse('take'),
    pause: refuse('pause'),
    countInvalid: refuse('countInvalid'),
    invalidLimitReached: refuse('invalidLimitReached'),
  };
  const client = createInteractionWebhookClient(
    { apiUrl: discord.apiUrl, applicationId: APP_ID },
    { rateBudget: budget },
  );
  const message = {
    content: 'Weather in Oslo: clear sky, 4 °C',
    embeds: [],
    components: [],
    files: [],
    allowed_mentions: { parse: [] as [] },
    flags: 0,
  };
  await client.editOriginal('aW50ZXJhY3Rpb246MTE4NzQyMTUyMDg5NDc0NjkwMA', message);
  await client.followUp('aW50ZXJhY3Rpb246MTE4NzQyMTUyMDg5NDc0NjkwMA', { ...message, flags: 64 });
  await client.deleteOriginal('aW50ZXJhY3Rpb246MTE4NzQyMTUyMDg5NDc0NjkwMA');
  await client.close();
  expect(called).toEqual([]);
  expect(discord.calls.filter((c) => c.path.includes(`/webhooks/${APP_ID}/`)).length).toBe(3);
});
