// Two HTTP-mode replicas behind a loopback round-robin proxy (a TCP load balancer), sharing Redis:
// 100 signed commands, each answered exactly once; the same command delivered to both replicas
// (a proxy retrying on the other one) still runs once.
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRedisStore } from '../../../src/store/redis-store.ts';
import type { Store } from '../../../src/store/store.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../../support/redis.ts';
import { slashCommand, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';
import { generateKeys, post, signedHeaders, startHttpReplica, type HttpReplica } from './http-support.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';

const keys = generateKeys();
/** What matters here is how often each command ran, not how fast: a loaded CI machine is slow. */
const SLOW_MACHINE_MS = 60_000;
const prefix = testKeyPrefix();
const logs: LogLine[] = [];
const log = recordingLog(logs);
let fake: FakeDiscord;
let replicas: HttpReplica[] = [];
let stores: Store[] = [];
let proxy: Server;
let proxyUrl: string;

/** Sends each connection to the next replica in turn, as a TCP load balancer does. */
function startProxy(targets: readonly HttpReplica[]): Promise<Server> {
  let next = 0;
  const server = createServer((client) => {
    const target = new URL(targets[next++ % targets.length]!.url);
    const upstream = connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  stores = await Promise.all([0, 1].map(() => createRedisStore(REDIS_URL, { keyPrefix: prefix })));
  replicas = await Promise.all(
    stores.map((claims) =>
      startHttpReplica({ keys, apiUrl: fake.apiUrl, webhook: fake.webhook, log, claims }),
    ),
  );
  proxy = await startProxy(replicas);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/interactions`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await Promise.all(replicas.map((r) => r.stop()));
  await Promise.all(stores.map((s) => s.close()));
  await deleteKeys(prefix);
  await fake?.close();
});

describe('two HTTP-mode replicas behind a round-robin proxy, sharing Redis', { timeout: 120_000 }, () => {
  it('answer 100 signed commands, each exactly once, both taking a share', async () => {
    const tokens = Array.from({ length: 100 }, (_, i) => `lb-token-${i}-aW50ZXJhY3Rpb246`);
    const settled = await Promise.allSettled(
      tokens.map((token, i) => {
        const body = JSON.stringify(
          slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: `City ${i}` }] }),
        );
        return post(proxyUrl, body, signedHeaders(keys, body), SLOW_MACHINE_MS);
      }),
    );
    const answers = settled.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
    expect(answers).toHaveLength(100);
    expect(answers.every((a) => a.status === 200 && (a.json as { type: number }).type === 5)).toBe(true);
    await Promise.all(
      tokens.map((token) => fake.waitFor((c) => c.token === token && c.kind === 'edit', SLOW_MACHINE_MS)),
    );

    for (const token of tokens) {
      expect(fake.calls.filter((c) => c.token === token && c.kind === 'edit')).toHaveLength(1);
    }
    const [first, second] = replicas.map((r) => r.runs.length);
    expect((first ?? 0) + (second ?? 0)).toBe(100);
    // Connections alternate between the replicas; how requests share them is the client's choice.
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
  });

  it('runs a command delivered to both replicas once; the second delivery is not answered', async () => {
    const token = 'lb-token-twice-aW50ZXJhY3Rpb246';
    const body = JSON.stringify(
      slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Oslo' }] }),
    );
    const before = replicas.map((r) => r.runs.length);
    const answers = await Promise.all(
      replicas.map((r) => post(r.url, body, signedHeaders(keys, body), SLOW_MACHINE_MS)),
    );
    await fake.waitFor((c) => c.token === token && c.kind === 'edit', SLOW_MACHINE_MS);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 500]);
    // The loser says why at debug; the unanswered request is logged once.
    expect(logs.filter((l) => l.msg === 'discord.interaction_claimed_elsewhere')).toEqual([
      expect.objectContaining({ level: 'debug', msg: 'discord.interaction_claimed_elsewhere' }),
    ]);
    const ran = replicas.map((r, i) => r.runs.length - (before[i] ?? 0));
    expect(ran.reduce((a, b) => a + b)).toBe(1);
    expect(fake.calls.filter((c) => c.token === token && c.kind === 'edit')).toHaveLength(1);
  });
});
