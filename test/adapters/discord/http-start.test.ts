// HTTP mode while herald starts: the endpoint is served before the adapter (and discord.js) is
// loaded, answers Discord's PING at once, holds a command until the adapter attaches and then
// answers it; after the adapter stops, a command is refused at once. The last test runs the whole
// bot and sends its PING and a command as soon as its port opens.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import { createHttpInteractions, discordPublicKey } from '../../../adapters/discord/http.ts';
import type { CommandLog } from '../../../src/core/command.ts';
import { createRoutes, startHealthServer, type HealthServer } from '../../../src/health.ts';
import { createMetrics } from '../../../src/metrics.ts';
import { startHerald } from '../../support/spawn-herald.ts';
import { APP_ID, BOT_TOKEN, slashCommand, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';
import { createHandlers, generateKeys, post, registry, signedHeaders } from './http-support.ts';

const keys = generateKeys();
const silent: CommandLog = { debug() {}, info() {}, warn() {}, error() {} };
/** What the endpoint logged at debug: it says when it holds an interaction. */
const debugLines: string[] = [];
const recording: CommandLog = { ...silent, debug: (_obj: object, msg: string) => void debugLines.push(msg) };
const PING = JSON.stringify({
  id: '1300000000000000001',
  application_id: APP_ID,
  type: 1,
  token: 'p',
  version: 1,
});
let fake: FakeDiscord;
let tokens = 0;
const weather = () => {
  const token = `start-token-${(tokens += 1)}-aW50ZXJhY3Rpb246`;
  const body = JSON.stringify(
    slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Oslo' }] }),
  );
  return { token, body };
};

beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(async () => {
  await fake?.close();
});

/** herald's server on PORT with the endpoint on it and no adapter yet, as main.ts serves it first. */
async function serveEndpoint(firstAnswerDeadlineMs?: number) {
  const interactions = createHttpInteractions({
    publicKey: discordPublicKey(keys.publicKeyHex),
    log: recording,
    ...(firstAnswerDeadlineMs === undefined ? {} : { firstAnswerDeadlineMs }),
  });
  const routes = createRoutes();
  routes.add('/interactions', interactions.route);
  const server: HealthServer = await startHealthServer({
    port: 0,
    checks: [],
    metrics: createMetrics(),
    routes,
  });
  const adapter = createDiscordAdapter({
    config: {
      token: BOT_TOKEN,
      applicationId: APP_ID,
      guildId: undefined,
      apiUrl: fake.apiUrl,
      mode: 'http',
      publicKey: keys.publicKeyHex,
      interactionsPath: '/interactions',
    },
    webhook: fake.webhook,
    log: silent,
    interactions,
  });
  const url = `http://127.0.0.1:${server.port}/interactions`;
  const send = (body: string) => post(url, body, signedHeaders(keys, body));
  return { adapter, server, send };
}

describe('the endpoint before the adapter attaches', () => {
  it('answers a PING with a PONG', async () => {
    const { server, send } = await serveEndpoint();
    try {
      expect(await send(PING)).toEqual({ status: 200, json: { type: 1 } });
    } finally {
      await server.close();
    }
  });

  it('holds a command until the adapter starts, then defers it and edits @original', async () => {
    const { adapter, server, send } = await serveEndpoint();
    try {
      const { token, body } = weather();
      debugLines.length = 0;
      const answer = send(body);
      // Verified and held: nothing has reached Discord yet.
      await vi.waitFor(() => expect(debugLines).toEqual(['discord.http_held_until_started']));
      expect(fake.calls.filter((c) => c.token === token)).toEqual([]);
      const runs: unknown[] = [];
      await adapter.start(registry, createHandlers(runs as never[]));
      expect(await answer).toEqual({ status: 200, json: { type: 5, data: {} } });
      const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
      expect(edit.json).toMatchObject({ embeds: [{ title: 'Weather in Oslo' }] });
      expect(runs).toHaveLength(1);
    } finally {
      await adapter.stop();
      await server.close();
    }
  });

  it('answers 503 to a command held past the first-answer deadline, and never runs it', async () => {
    const { adapter, server, send } = await serveEndpoint(50);
    try {
      const { body } = weather();
      expect((await send(body)).status).toBe(503);
      const runs: unknown[] = [];
      await adapter.start(registry, createHandlers(runs as never[]));
      expect(runs).toEqual([]);
    } finally {
      await adapter.stop();
      await server.close();
    }
  });

  it('refuses a command at once with 503 after the adapter stopped, still answering PINGs', async () => {
    const { adapter, server, send } = await serveEndpoint();
    try {
      await adapter.start(registry, createHandlers([]));
      await adapter.stop();
      expect((await send(weather().body)).status).toBe(503);
      expect(await send(PING)).toEqual({ status: 200, json: { type: 1 } });
    } finally {
      await server.close();
    }
  });

  it('still refuses a bad signature with 401 and parses nothing', async () => {
    const { server } = await serveEndpoint();
    try {
      const other = generateKeys();
      const url = `http://127.0.0.1:${server.port}/interactions`;
      expect((await post(url, PING, signedHeaders(other, PING))).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('the whole bot in HTTP mode', () => {
  it('answers PING before the Discord adapter is up, and a command sent during start-up', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const herald = startHerald(
      {
        DISCORD_MODE: 'http',
        DISCORD_TOKEN: BOT_TOKEN,
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_PUBLIC_KEY: keys.publicKeyHex,
        DISCORD_API_URL: fake.apiUrl,
        PORT: String(port),
        SANDBOX: 'on',
        STORE_URL: ':memory:',
        LOG_LEVEL: 'info',
      },
      { dropServiceVars: true },
    );
    try {
      const url = `http://127.0.0.1:${port}/interactions`;
      let pong: Awaited<ReturnType<typeof post>> | undefined;
      while (pong === undefined) {
        if (herald.child.exitCode !== null) throw new Error(`herald exited: ${herald.err()}`);
        pong = await post(url, PING, signedHeaders(keys, PING)).catch(() => undefined);
        if (pong === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(pong).toEqual({ status: 200, json: { type: 1 } });
      // Answered while the commands were still loading.
      expect(herald.err()).not.toContain('discord.http_ready');
      const { token, body } = weather();
      expect(await post(url, body, signedHeaders(keys, body), 10_000)).toEqual({
        status: 200,
        json: { type: 5, data: {} },
      });
      const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit', 10_000);
      expect(JSON.stringify(edit.json)).toContain('Oslo');
      // The documented set-up publishes the interactions port: /metrics is not served there.
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(404);
      await metrics.body?.cancel();
      // discord.js is never loaded in HTTP mode: no gateway session, no client.
      expect(fake.connections()).toBe(0);
    } finally {
      herald.child.kill('SIGTERM');
      await herald.exited;
    }
  }, 30_000);
});
