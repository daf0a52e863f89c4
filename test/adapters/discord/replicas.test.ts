// Two gateway replicas of one bot: Discord sends every INTERACTION_CREATE to every session, so
// both receive each interaction. With the store's claim shared through Redis, exactly one answers;
// without it, the race decides and the loser's callback is refused with 40060.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import { customIdFor } from '../../../adapters/discord/custom-id.ts';
import type { AdapterHandlers, ChatAdapter } from '../../../src/core/adapter.ts';
import { createLocalClaims, type InteractionClaims } from '../../../src/core/claims.ts';
import { defineCommand } from '../../../src/core/command.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { createRedisStore } from '../../../src/store/redis-store.ts';
import type { Store } from '../../../src/store/store.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../../support/redis.ts';
import { directContext, recordingLog, type LogLine } from '../../support/command-doubles.ts';
import { buttonClick, slashCommand, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';
import { fakeDiscordConfig } from './fake-config.ts';

const sent: string[] = [];
const registry = createRegistry([
  defineCommand({
    name: 'email send',
    description: 'Send an email',
    options: z.object({ to: z.string().describe('Recipient'), subject: z.string().describe('Subject') }),
    needs: [],
    ephemeral: true,
    autocomplete: { to: () => Promise.resolve([{ name: 'Ops', value: 'ops@example.com' }]) },
    handler: (input) => {
      sent.push(input.to);
      return Promise.resolve({ text: `Sent to ${input.to}.`, ephemeral: true });
    },
  }),
]);

/** The dispatcher's part that matters here: each invocation runs the handler and answers once. */
function handlersCounting(runs: string[]): AdapterHandlers {
  return {
    async onInvocation(inv) {
      runs.push(inv.command);
      const command = registry.get(inv.command)!;
      inv.beginWork?.();
      const reply = await command.handler(
        command.options.parse(inv.rawInput),
        directContext(inv, 'replica-test'),
      );
      await inv.respond(reply);
    },
    onAutocomplete: () => Promise.resolve([{ name: 'Ops', value: 'ops@example.com' }]),
  };
}

let fake: FakeDiscord;
const prefix = testKeyPrefix();
const stores: Store[] = [];
let adapters: ChatAdapter[] = [];
let tokens = 0;
const newToken = () => `replica-token-${(tokens += 1)}-aW50ZXJhY3Rpb246`;

async function startReplicas(claims: [InteractionClaims, InteractionClaims]) {
  const runs: string[][] = [[], []];
  const logs: LogLine[][] = [[], []];
  // The buttons here are short and travel inline; long ones are in button-targets.test.ts.
  adapters = claims.map((claim, i) =>
    createDiscordAdapter({
      config: fakeDiscordConfig(fake),
      webhook: fake.webhook,
      log: recordingLog(logs[i]!),
      claims: claim,
    }),
  );
  for (const [i, adapter] of adapters.entries()) await adapter.start(registry, handlersCounting(runs[i]!));
  expect(fake.connections()).toBe(2);
  return { runs, logs };
}

beforeAll(async () => {
  fake = await startFakeDiscord();
});

afterEach(async () => {
  await Promise.all(adapters.map((a) => a.stop()));
  adapters = [];
  sent.length = 0;
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await deleteKeys(prefix);
  await fake?.close();
});

async function sharedRedisClaims(): Promise<[Store, Store]> {
  const pair = await Promise.all([
    createRedisStore(REDIS_URL, { keyPrefix: prefix }),
    createRedisStore(REDIS_URL, { keyPrefix: prefix }),
  ]);
  stores.push(...pair);
  return pair;
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('two gateway replicas receiving the same interaction', () => {
  it('answer a command once through the claim shared in Redis: one callback, one run, one email', async () => {
    const { runs, logs } = await startReplicas(await sharedRedisClaims());
    const token = newToken();
    const payload = slashCommand({
      name: 'email',
      subcommand: 'send',
      token,
      options: [
        { name: 'to', type: 3, value: 'ops@example.com' },
        { name: 'subject', type: 3, value: 'Weekly' },
      ],
    });
    fake.dispatch('INTERACTION_CREATE', payload);
    await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    await settle();

    const calls = fake.calls.filter((c) => c.token === token);
    expect(calls.filter((c) => c.kind === 'callback')).toHaveLength(1);
    expect(calls.filter((c) => c.kind === 'edit')).toHaveLength(1);
    expect(runs.flat()).toEqual(['email send']);
    expect(sent).toEqual(['ops@example.com']);
    // The loser did nothing but say so at debug; nobody logged an error or a 40060.
    const all = logs.flat();
    expect(all.filter((l) => l.msg === 'discord.interaction_claimed_elsewhere')).toHaveLength(1);
    expect(all.find((l) => l.msg === 'discord.interaction_claimed_elsewhere')?.level).toBe('debug');
    expect(all.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    expect(JSON.stringify(all)).not.toContain('40060');
  });

  it('answer a button press and an autocomplete once each', async () => {
    const { runs, logs } = await startReplicas(await sharedRedisClaims());
    const click = newToken();
    const customId = customIdFor({
      command: 'email send',
      input: { to: 'a@example.com', subject: 'Hi' },
    });
    fake.dispatch('INTERACTION_CREATE', buttonClick({ customId, token: click }));
    const typed = newToken();
    const focused = { name: 'to', type: 3, value: 'op', focused: true };
    fake.dispatch('INTERACTION_CREATE', {
      ...slashCommand({ name: 'email', subcommand: 'send', token: typed, options: [focused] }),
      type: 4,
    });
    // A private answer to a public message is a follow-up (respond.ts).
    await fake.waitFor((c) => c.token === click && c.kind === 'followup');
    await fake.waitFor((c) => c.token === typed && c.kind === 'callback');
    await settle();

    const callbacks = (token: string) => fake.calls.filter((c) => c.token === token && c.kind === 'callback');
    expect(callbacks(click)).toHaveLength(1);
    expect(callbacks(click)[0]?.json).toMatchObject({ type: 6 });
    expect(callbacks(typed)).toHaveLength(1);
    expect(callbacks(typed)[0]?.json).toMatchObject({
      type: 8,
      data: { choices: [{ name: 'Ops', value: 'ops@example.com' }] },
    });
    expect(runs.flat()).toEqual(['email send']);
    expect(sent).toEqual(['a@example.com']);
    expect(logs.flat().filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('without a shared claim, both answer and the loser is refused with 40060 (what the claim prevents)', async () => {
    const { runs, logs } = await startReplicas([createLocalClaims(), createLocalClaims()]);
    const token = newToken();
    fake.dispatch(
      'INTERACTION_CREATE',
      slashCommand({
        name: 'email',
        subcommand: 'send',
        token,
        options: [
          { name: 'to', type: 3, value: 'ops@example.com' },
          { name: 'subject', type: 3, value: 'Weekly' },
        ],
      }),
    );
    await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    await settle();
    expect(fake.calls.filter((c) => c.token === token && c.kind === 'callback')).toHaveLength(2);
    expect(runs.flat()).toHaveLength(2);
    const refused = logs
      .flat()
      .filter((l) => l.level === 'error')
      .map((l) => (l.obj as { err: Error }).err.message);
    expect(refused).toEqual([expect.stringContaining('Interaction has already been acknowledged')]);
  });
});
