// Discord's cap on follow-up messages for an interaction only a user's install authorised (5:
// https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message).
// The fake refuses the 6th as Discord does (40094, follow-up-limit.ts); herald's adapter, in gateway
// and HTTP mode, answers past the 5th by editing its latest answer, so nothing it sends is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterHandlers, ChatAdapter } from '../../../src/core/adapter.ts';
import { ServiceError } from '../../../src/errors.ts';
import { renderDiscord } from '../../../src/render/discord.ts';
import { startDiscordGateway } from './fake-config.ts';
import { asUserInstall, slashCommand, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';
import {
  generateKeys,
  post,
  registry,
  signedHeaders,
  startHttpReplica,
  type HttpReplica,
} from './http-support.ts';

/** Room in a route's bucket for one interaction's 8 answers: the cap is under test here, not the bucket. */
const ROOMY = { bucket: { limit: 10, windowMs: 2_000 } };
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let n = 0;
const weather = (token: string) =>
  slashCommand({ name: 'weather', options: [{ name: 'city', type: 3, value: 'Paris' }], token });
const newToken = () => `follow-ups-${++n}-aW50ZXJhY3Rpb246`;

/** A handler that answers `answers` times, as nothing in herald does; the adapter must still keep the cap. */
const answering = (answers: number): AdapterHandlers => ({
  async onInvocation(inv) {
    inv.beginWork?.();
    for (let i = 1; i <= answers; i++) await inv.respond({ text: `answer ${i} of ${answers}` });
  },
  onAutocomplete: () => Promise.resolve([]),
});

describe("the fake Discord keeps Discord's cap on a user install's follow-ups", () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await startFakeDiscord(ROOMY);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('refuses the 6th follow-up to an interaction only a user install authorised, with 40094', async () => {
    const { token } = asUserInstall(weather(newToken()));
    for (let i = 1; i <= 5; i++)
      await fake.webhook.followUp(token, renderDiscord({ text: `follow-up ${i}` }));
    const sixth = fake.webhook.followUp(token, renderDiscord({ text: 'follow-up 6' }));
    await expect(sixth).rejects.toBeInstanceOf(ServiceError);
    await expect(sixth).rejects.toMatchObject({
      status: 400,
      providerMessage: expect.stringContaining('40094'),
    });
    expect(fake.followUps.refused).toBe(1);
  });

  it('takes a 6th where herald is installed in the server', async () => {
    const { token } = weather(newToken());
    for (let i = 1; i <= 6; i++)
      await fake.webhook.followUp(token, renderDiscord({ text: `follow-up ${i}` }));
    expect(fake.calls.filter((c) => c.token === token && c.kind === 'followup')).toHaveLength(6);
  });
});

describe.each(['gateway', 'http'] as const)('herald within the cap, %s mode', (mode) => {
  const keys = generateKeys();
  let fake: FakeDiscord;
  let adapter: ChatAdapter | undefined;
  let replica: HttpReplica | undefined;

  beforeAll(async () => {
    fake = await startFakeDiscord(ROOMY);
    if (mode === 'gateway') adapter = await startDiscordGateway(fake, registry, answering(8), quiet);
    else
      replica = await startHttpReplica({
        keys,
        apiUrl: fake.apiUrl,
        webhook: fake.webhook,
        log: quiet,
        handlers: () => answering(8),
      });
  });
  afterAll(async () => {
    await adapter?.stop();
    await replica?.stop();
    await fake?.close();
  });

  async function send(interaction: { token: string }) {
    if (replica) {
      const body = JSON.stringify(interaction);
      expect((await post(replica.url, body, signedHeaders(keys, body))).status).toBe(200);
    } else fake.dispatch('INTERACTION_CREATE', interaction);
    const last = (c: { token?: string; json?: Record<string, unknown> }) =>
      c.token === interaction.token && JSON.stringify(c.json ?? {}).includes('answer 8 of 8');
    await fake.waitFor(last, 10_000);
    return fake.calls.filter((c) => c.token === interaction.token);
  }

  it('sends at most 5 follow-ups to a user install, then edits its latest answer', async () => {
    const calls = await send(asUserInstall(weather(newToken())));
    expect(calls.filter((c) => c.kind === 'followup')).toHaveLength(5);
    expect(calls.filter((c) => c.kind === 'edit').map((c) => c.json?.content)).toEqual([
      'answer 1 of 8',
      'answer 7 of 8',
      'answer 8 of 8',
    ]);
    expect(fake.followUps.refused).toBe(0);
  });

  it('follows up every answer where herald is installed in the server', async () => {
    const calls = await send(weather(newToken()));
    expect(calls.filter((c) => c.kind === 'followup')).toHaveLength(7);
  });
});
