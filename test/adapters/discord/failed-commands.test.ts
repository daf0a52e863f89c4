// What a failed public command costs on Discord, with the real dispatcher, in both modes, counted
// against the fake Discord whose REST routes keep Discord's contract (contract.ts). A refusal by a
// check that runs before any work (input, access, rate limit) is the interaction's one private
// first answer; a failure during the work edits the loading message into the error. Either answer
// quotes a reference that the failure's log line carries.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import type { ChatAdapter } from '../../../src/core/adapter.ts';
import { defineCommand } from '../../../src/core/command.ts';
import { createDispatcher } from '../../../src/core/dispatch.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { ServiceError, UserError } from '../../../src/errors.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';
import { fakeDiscordConfig } from './fake-config.ts';
import { slashCommand, startFakeDiscord, type DiscordCall, type FakeDiscord } from './fake-discord.ts';
import { generateKeys, post, signedHeaders, startHttpReplica, type HttpReplica } from './http-support.ts';

const EPHEMERAL = 64;
const REF = /\(ref ([0-9a-f]{8})\)\.$/;

const registry = createRegistry([
  defineCommand({
    name: 'forecast',
    description: 'A forecast from an upstream that is down',
    options: z.object({ city: z.string().max(40).describe('City') }),
    needs: [],
    handler: () =>
      Promise.reject(
        new ServiceError({
          service: 'weather',
          operation: 'forecast',
          code: 'unavailable',
          message: 'HTTP 503 from api.openweathermap.org',
          retryAfterMs: 30_000,
        }),
      ),
  }),
  defineCommand({
    name: 'host',
    description: 'Guarded by an access check',
    options: z.object({}),
    needs: [],
    access: [() => new UserError({ code: 'forbidden', message: 'You are not allowed to use /host.' })],
    handler: () => Promise.resolve({ text: 'never runs' }),
  }),
]);

/** The real dispatcher, with a per-user rate limit the test turns on. */
function dispatcherFor(logs: LogLine[]) {
  const limit = { isSpent: false };
  const dispatcher = createDispatcher({
    registry,
    services: {},
    log: recordingLog(logs),
    commandTimeoutMs: 5_000,
    serviceVariables: {},
    rateLimit: { consume: () => Promise.resolve({ allowed: !limit.isSpent, retryAfterMs: 20_000 }) },
  });
  return { dispatcher, limit };
}

const forecast = (token: string, city = 'Oslo') =>
  slashCommand({ name: 'forecast', token, options: [{ name: 'city', type: 3, value: city }] });
const tooLong = (token: string) => forecast(token, 'x'.repeat(41));

/** The failure's log line, whose `ref` the answer must quote. */
function failedLine(logs: LogLine[], ref: string): LogLine | undefined {
  return logs.find((l) => l.msg === 'command.failed' && (l.obj as { ref?: string }).ref === ref);
}

let fake: FakeDiscord;
let tokens = 0;
const newToken = () => `failed-command-${(tokens += 1)}-aW50ZXJhY3Rpb246`;

beforeAll(async () => {
  fake = await startFakeDiscord();
});

afterAll(async () => {
  await fake?.close();
});

describe('a failed public command on the Discord gateway', () => {
  const logs: LogLine[] = [];
  let adapter: ChatAdapter;
  let limit: { isSpent: boolean };

  beforeAll(async () => {
    const built = dispatcherFor(logs);
    limit = built.limit;
    adapter = createDiscordAdapter({
      config: fakeDiscordConfig(fake),
      webhook: fake.webhook,
      log: recordingLog(logs),
    });
    await adapter.start(registry, built.dispatcher);
  });

  afterAll(async () => {
    await adapter?.stop();
  });

  beforeEach(() => {
    limit.isSpent = false;
  });

  it.each([
    ['input it cannot read', () => tooLong(newToken()), /^That city name is too long|city/],
    ['an access check', () => slashCommand({ name: 'host', token: newToken() }), /not allowed to use \/host/],
  ])('answers a refusal by %s in one private first answer', async (_what, payload, sentence) => {
    const sent = payload();
    const calls = await settled(sent);
    expect(calls.map((c) => c.kind)).toEqual(['callback']);
    const [answer] = calls;
    expect(answer!.json).toMatchObject({ type: 4, data: { flags: EPHEMERAL } });
    const content = String((answer!.json!.data as { content: string }).content);
    expect(content).toMatch(sentence);
    expect(failedLine(logs, REF.exec(content)![1]!)).toBeDefined();
  });

  it('answers a spent rate limit in one private first answer', async () => {
    limit.isSpent = true;
    const calls = await settled(forecast(newToken()));
    expect(calls.map((c) => c.kind)).toEqual(['callback']);
    const content = String((calls[0]!.json!.data as { content: string }).content);
    expect(content).toMatch(
      /^You are sending commands too quickly; try again in 20 seconds? \(ref [0-9a-f]{8}\)\.$/,
    );
    expect(failedLine(logs, REF.exec(content)![1]!)?.obj).toMatchObject({ code: 'rate_limited' });
  });

  it('turns the loading message into the error when the upstream fails during the work', async () => {
    const calls = await settled(forecast(newToken()));
    expect(calls.map((c) => c.kind)).toEqual(['callback', 'edit']);
    expect(calls[0]!.json).toEqual({ type: 5, data: {} });
    const content = String(calls[1]!.json!.content);
    expect(content).toMatch(
      /^The weather service is unavailable; try again in 30 seconds \(ref [0-9a-f]{8}\)\.$/,
    );
    expect(content).not.toContain('503');
    expect(failedLine(logs, REF.exec(content)![1]!)?.obj).toMatchObject({ service: 'weather' });
  });

  /** Every call the interaction cost: its answer is sent before its failure is logged. */
  async function settled(payload: { token: string }): Promise<DiscordCall[]> {
    const before = logs.filter((l) => l.msg === 'command.failed').length;
    fake.dispatch('INTERACTION_CREATE', payload);
    await expect.poll(() => logs.filter((l) => l.msg === 'command.failed').length).toBe(before + 1);
    return fake.calls.filter((c) => c.token === payload.token);
  }
});

describe('a failed public command on the Discord HTTP endpoint', () => {
  const keys = generateKeys();
  const logs: LogLine[] = [];
  let replica: HttpReplica;
  let limit: { isSpent: boolean };

  beforeAll(async () => {
    const built = dispatcherFor(logs);
    limit = built.limit;
    replica = await startHttpReplica({
      keys,
      apiUrl: fake.apiUrl,
      webhook: fake.webhook,
      log: recordingLog(logs),
      handlers: () => built.dispatcher,
      registry,
    });
  });

  afterAll(async () => {
    await replica?.stop();
  });

  function signedPost(payload: unknown) {
    const body = JSON.stringify(payload);
    return post(replica.url, body, signedHeaders(keys, body));
  }

  it('answers a refusal before any work in the HTTP response alone', async () => {
    for (const payload of [tooLong(newToken()), slashCommand({ name: 'host', token: newToken() })]) {
      const answer = await signedPost(payload);
      expect(answer).toMatchObject({ status: 200, json: { type: 4, data: { flags: EPHEMERAL } } });
      const content = (answer.json as { data: { content: string } }).data.content;
      expect(failedLine(logs, REF.exec(content)![1]!)).toBeDefined();
      expect(fake.calls.filter((c) => c.token === payload.token)).toEqual([]);
    }
    limit.isSpent = true;
    const limited = await signedPost(forecast(newToken()));
    limit.isSpent = false;
    expect(limited).toMatchObject({ status: 200, json: { type: 4, data: { flags: EPHEMERAL } } });
  });

  it('defers in the response and edits the loading message into the error: one call', async () => {
    const token = newToken();
    expect(await signedPost(forecast(token))).toEqual({ status: 200, json: { type: 5, data: {} } });
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    const content = String(edit.json!.content);
    expect(content).toMatch(/^The weather service is unavailable; .* \(ref [0-9a-f]{8}\)\.$/);
    await expect.poll(() => failedLine(logs, REF.exec(content)![1]!)).toBeDefined();
    expect(fake.calls.filter((c) => c.token === token).map((c) => c.kind)).toEqual(['edit']);
  });
});
