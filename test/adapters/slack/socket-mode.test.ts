// Socket Mode, the default: the real Bolt App and Slack's socket-mode client against a fake
// apps.connections.open and a minimal WebSocket server on loopback (RFC 6455 text, ping, close).
import { setImmediate } from 'node:timers';
import { SocketModeClient } from '@slack/socket-mode';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/adapter.ts';
import { createLocalClaims, type InteractionClaims } from '../../../src/core/claims.ts';
import {
  APP_TOKEN,
  BOT_TOKEN,
  createFakeDispatcher,
  createTestRegistry,
  slashPayload,
  startSlackFake,
  waitFor,
} from './fakes.ts';
import { startSocketServer } from './fake-slack-socket.ts';

/** A slash command's envelope as Slack delivers it over the socket. */
function slashEnvelope(
  envelopeId: string,
  responseUrl: string,
  triggerId = '7000000000005.7000000000006.abcdef0123456789',
) {
  return {
    envelope_id: envelopeId,
    type: 'slash_commands',
    accepts_response_payload: true,
    payload: slashPayload('/weather', 'Oslo', responseUrl, triggerId),
  };
}

/** The fake Slack API and socket server, and a Socket Mode adapter pointed at them. */
async function startSocketMode(claims?: InteractionClaims) {
  const fake = await startSlackFake();
  const sockets = await startSocketServer();
  fake.server.use(
    http.post('*/api/apps.connections.open', () =>
      HttpResponse.json({
        ok: true,
        url: `ws://127.0.0.1:${sockets.port}/link/?ticket=test-ticket&app_id=A0HERALD`,
      }),
    ),
  );
  const adapter = createSlackAdapter({
    config: {
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      signingSecret: undefined,
      apiUrl: `${fake.server.url}/api/`,
      port: 3000,
    },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    ...(claims ? { claims } : {}),
  });
  return {
    fake,
    sockets,
    adapter,
    async close() {
      await adapter.stop();
      await sockets.close();
      await fake.server.close();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Slack adapter, Socket Mode', () => {
  it('connects with the app-level token, acks a slash command on the socket, answers and closes on stop', async () => {
    const { fake, sockets, adapter, close } = await startSocketMode();
    const dispatcher = createFakeDispatcher(createTestRegistry());
    try {
      await adapter.start(createTestRegistry(), dispatcher);
      const open = fake.server.requests.find((r) => r.pathname === '/api/apps.connections.open');
      expect(open!.headers.authorization).toBe(`Bearer ${APP_TOKEN}`);
      expect(adapter.isReady()).toBe(true);

      const delivery = slashEnvelope('c8a1b0e2-5d2e-4f4e-9d57-0f7c5b1f0a11', fake.responseUrl('socket-1'));
      sockets.send(delivery);
      const ack = await waitFor(() => sockets.received.find((m) => m.envelope_id !== undefined));
      expect(ack.envelope_id).toBe('c8a1b0e2-5d2e-4f4e-9d57-0f7c5b1f0a11');
      const [reply] = await waitFor(() =>
        fake.responses('socket-1').length > 0 ? fake.responses('socket-1') : undefined,
      );
      expect(reply!.text).toBe('Weather for Oslo');
      expect(dispatcher.invocations[0]!.rawInput).toBe('Oslo');

      // Slack redelivers an envelope it thinks was missed: acked again, run no more.
      sockets.send({ ...delivery, retry_attempt: 1, retry_reason: 'timeout' });
      await waitFor(() =>
        sockets.received.filter((m) => m.envelope_id !== undefined).length === 2 ? true : undefined,
      );
      expect(dispatcher.invocations).toHaveLength(1);
      expect(fake.responses('socket-1')).toHaveLength(1);

      await adapter.stop();
      expect(adapter.isReady()).toBe(false);
      await waitFor(() => (sockets.isClosed() ? true : undefined));
    } finally {
      await close();
    }
  });

  it('acks every slash command of a burst before any command runs', async () => {
    // Each claim answered in its own callback of the event loop, as a shared store's replies can
    // arrive (in separate reads), so each envelope is acked in its own callback. Answered together,
    // every envelope of one read is acked at the same promise depth, before any work, turns or not.
    const local = createLocalClaims();
    const claims: InteractionClaims = {
      claimOnce: (key, ttlMs) =>
        new Promise((resolve) => setImmediate(() => resolve(local.claimOnce(key, ttlMs)))),
    };
    const { fake, sockets, adapter, close } = await startSocketMode(claims);
    const work = vi.fn();
    const dispatcher = createFakeDispatcher(createTestRegistry(), work);
    // The ack leaves through the socket-mode client's send, called once per envelope.
    const send = vi.spyOn(SocketModeClient.prototype, 'send');
    try {
      await adapter.start(createTestRegistry(), dispatcher);
      const ids = Array.from({ length: 5 }, (_, i) => `burst-${i}`);
      const envelopeIds = ids.map((_, i) => `e0b5c1d2-0000-4000-8000-00000000000${i}`);
      // Five different commands: each has its own trigger_id (one trigger_id runs once).
      sockets.sendTogether(
        ids.map((id, i) =>
          slashEnvelope(
            envelopeIds[i]!,
            fake.responseUrl(id),
            `700000000000${i}.7000000000006.abcdef0123456789`,
          ),
        ),
      );
      await Promise.all(ids.map((id) => waitFor(() => (fake.responses(id).length > 0 ? true : undefined))));
      const acks = send.mock.invocationCallOrder.map((at) => ({ what: 'ack', at }));
      const starts = work.mock.invocationCallOrder.map((at) => ({ what: 'work', at }));
      const order = [...acks, ...starts].sort((a, b) => a.at - b.at).map((e) => e.what);
      expect(order).toEqual([...Array<string>(5).fill('ack'), ...Array<string>(5).fill('work')]);
      expect(send.mock.calls.map(([envelopeId]) => envelopeId).sort()).toEqual(envelopeIds);
    } finally {
      await close();
    }
  });
});
