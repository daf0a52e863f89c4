// A Slack request runs once: a retry (X-Slack-Retry-Num, newly signed, same trigger_id), a
// captured request replayed inside Bolt's 5-minute window, on this replica or another sharing
// Redis; and a timestamp more than a minute ahead is refused. The real Bolt App in HTTP mode.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionClaims } from '../../../src/core/claims.ts';
import { createRedisStore } from '../../../src/store/redis-store.ts';
import type { Store } from '../../../src/store/store.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../../support/redis.ts';
import {
  createFakeDispatcher,
  createTestRegistry,
  postSigned,
  slashBody,
  startSlackFake,
  triggerId,
  waitFor,
  type FakeDispatcher,
  type SlackFake,
} from './fakes.ts';
import { fakeSlackConfig, serveSlack, type ServedSlack } from './fake-config.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';

const logs: LogLine[] = [];
const log = recordingLog(logs);

const registry = createTestRegistry();
const prefix = testKeyPrefix();
let fake: SlackFake;
let stores: Store[] = [];
let replicas: (ServedSlack & { dispatcher: FakeDispatcher })[] = [];
let seq = 0;

async function startReplica(claims: InteractionClaims) {
  const served = await serveSlack({ config: fakeSlackConfig(fake), log, claims });
  const dispatcher = createFakeDispatcher(registry);
  await served.adapter.start(registry, dispatcher);
  return { ...served, dispatcher };
}

beforeAll(async () => {
  fake = await startSlackFake();
  stores = await Promise.all([0, 1].map(() => createRedisStore(REDIS_URL, { keyPrefix: prefix })));
  replicas = [await startReplica(stores[0]!), await startReplica(stores[1]!)];
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await Promise.all(stores.map((s) => s.close()));
  await deleteKeys(prefix);
  await fake.server.close();
});

afterEach(() => {
  for (const r of replicas) r.dispatcher.invocations.length = 0;
  logs.length = 0;
});

const runs = () => replicas.reduce((n, r) => n + r.dispatcher.invocations.length, 0);
const now = () => Math.floor(Date.now() / 1000);

describe('Slack requests run once', () => {
  it('runs a slash command retried with X-Slack-Retry-Num once: one answer, one run', async () => {
    const id = `retry-${++seq}`;
    const body = slashBody('/weather', 'Paris', fake.responseUrl(id), triggerId());
    const [first] = replicas;
    expect((await postSigned(first!.url, body)).status).toBe(200);
    // Slack's retry is signed anew (a later timestamp) and says which attempt it is.
    const retry = await postSigned(first!.url, body, {
      timestamp: now() + 1,
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(retry.status).toBe(200);
    await waitFor(() => (fake.responses(id).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.responses(id)).toHaveLength(1);
    expect(runs()).toBe(1);
    expect(logs.filter((l) => l.msg === 'slack.already_handled')).toEqual([
      expect.objectContaining({ level: 'debug', msg: 'slack.already_handled' }),
    ]);
  });

  it('runs a retry that reaches the other replica once, through the claim shared in Redis', async () => {
    const id = `retry-${++seq}`;
    const body = slashBody('/weather', 'Oslo', fake.responseUrl(id), triggerId());
    await postSigned(replicas[0]!.url, body);
    await postSigned(replicas[1]!.url, body, { timestamp: now() + 1, headers: { 'x-slack-retry-num': '1' } });
    await waitFor(() => (fake.responses(id).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.responses(id)).toHaveLength(1);
    expect(replicas.map((r) => r.dispatcher.invocations.length)).toEqual([1, 0]);
  });

  it('runs a captured signed request replayed three times once', async () => {
    const id = `replay-${++seq}`;
    const body = slashBody('/weather', 'Bergen', fake.responseUrl(id), triggerId());
    const timestamp = now();
    const answers = [];
    for (const r of [0, 1, 0, 1]) answers.push(await postSigned(replicas[r]!.url, body, { timestamp }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    await waitFor(() => (fake.responses(id).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(runs()).toBe(1);
    expect(logs.filter((l) => l.msg === 'slack.replay_refused')).toHaveLength(3);
  });

  it('refuses a timestamp more than a minute ahead with 401, and takes one within the minute', async () => {
    const ahead = await postSigned(
      replicas[0]!.url,
      slashBody('/weather', 'Rome', fake.responseUrl(`ahead-${++seq}`), triggerId()),
      { timestamp: now() + 120 },
    );
    expect(ahead.status).toBe(401);
    expect(runs()).toBe(0);
    const id = `skew-${++seq}`;
    const skewed = await postSigned(
      replicas[0]!.url,
      slashBody('/weather', 'Rome', fake.responseUrl(id), triggerId()),
      { timestamp: now() + 30 },
    );
    expect(skewed.status).toBe(200);
    await waitFor(() => (fake.responses(id).length > 0 ? true : undefined));
    expect(runs()).toBe(1);
  });

  it('still refuses a request older than 5 minutes (Bolt) and a wrong signature', async () => {
    const body = slashBody('/weather', 'Lima', fake.responseUrl(`old-${++seq}`), triggerId());
    expect((await postSigned(replicas[0]!.url, body, { timestamp: now() - 301 })).status).toBe(401);
    expect((await postSigned(replicas[0]!.url, body, { secret: 'not-the-secret' })).status).toBe(401);
    expect(runs()).toBe(0);
  });
});
