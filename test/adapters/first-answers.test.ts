// A burst of commands on the HTTP endpoints: every first answer (Discord's deferral, Slack's ack,
// each owed within 3 s) goes out before any of the commands' handlers starts, so that no arrival
// waits behind another's work. The handlers stand in for the dispatcher's: the deferral follows
// the checks, and the handler waits its turn. The requests are written on kept-alive connections in one go, so
// all of them are waiting when the server next reads its sockets.
import { ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLACK_EVENTS_PATH } from '../../adapters/slack/adapter.ts';
import { APP_ID, slashCommand, startFakeDiscord } from './discord/fake-discord.ts';
import { createHandlers, generateKeys, signedHeaders, startHttpReplica } from './discord/http-support.ts';
import { startSlackHttp } from './slack/fake-config.ts';
import {
  createFakeDispatcher,
  createTestRegistry,
  signature,
  SIGNING_SECRET,
  slashBody,
  startSlackFake,
  waitFor,
} from './slack/fakes.ts';
import { recordingLog, type LogLine } from '../support/command-doubles.ts';

const BURST = 5;

afterEach(() => {
  vi.restoreAllMocks();
});

function raw(url: URL, headers: Record<string, string>, body: string): string {
  const all = { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) };
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
  return `POST ${url.pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The next whole response on `socket` (a Content-Length body or a chunked one). */
function answerOf(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, split))?.[1];
      const isWhole =
        length === undefined ? text.endsWith('\r\n0\r\n\r\n') : text.length - split - 4 >= Number(length);
      if (!isWhole) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
  });
}

/**
 * Opens BURST connections, warms each with `warm` (so the server has taken them all), then writes
 * the requests on them in one go; resolves with the answers, and the order in which the endpoint's
 * responses were ended and the commands' work started.
 */
async function burst(
  url: URL,
  warm: () => string,
  requests: string[],
  work: { mock: { invocationCallOrder: number[] } },
  done: () => Promise<unknown>,
): Promise<{ answers: string[]; order: string[] }> {
  const sockets = await Promise.all(requests.map(() => open(url)));
  const warmed = sockets.map(answerOf);
  sockets.forEach((socket) => socket.write(warm()));
  await Promise.all(warmed);
  const end = vi.spyOn(ServerResponse.prototype, 'end');
  const answered = sockets.map(answerOf);
  sockets.forEach((socket, i) => socket.write(requests[i]!));
  const answers = await Promise.all(answered);
  await done();
  const ends = end.mock.contexts
    .map((res, i) => ({ res: res as ServerResponse, at: end.mock.invocationCallOrder[i]! }))
    .filter(({ res }) => res.req.url === url.pathname)
    .map(({ at }) => ({ what: 'answer', at }));
  const starts = work.mock.invocationCallOrder.slice(-requests.length).map((at) => ({ what: 'work', at }));
  for (const socket of sockets) socket.destroy();
  return { answers, order: [...ends, ...starts].sort((a, b) => a.at - b.at).map((e) => e.what) };
}

const expected = [...Array<string>(BURST).fill('answer'), ...Array<string>(BURST).fill('work')];

describe('first answers before work, under a burst', () => {
  it('Discord HTTP interactions: every deferral before any command runs', async () => {
    const keys = generateKeys();
    const logs: LogLine[] = [];
    const fake = await startFakeDiscord();
    const log = recordingLog(logs);
    const work = vi.fn();
    const replica = await startHttpReplica({
      keys,
      apiUrl: fake.apiUrl,
      webhook: fake.webhook,
      log,
      handlers: (runs) => createHandlers(runs, log, work),
    });
    try {
      const url = new URL(replica.url);
      const signed = (payload: unknown) => {
        const body = JSON.stringify(payload);
        return raw(url, signedHeaders(keys, body), body);
      };
      const ping = { id: '1300000000000000001', application_id: APP_ID, type: 1, token: 'ping', version: 1 };
      const tokens = Array.from({ length: BURST }, (_, i) => `burst-token-${i}-aW50ZXJhY3Rpb246`);
      const { answers, order } = await burst(
        url,
        () => signed(ping),
        tokens.map((token) =>
          signed(
            slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Oslo' }] }),
          ),
        ),
        work,
        () => Promise.all(tokens.map((token) => fake.waitFor((c) => c.token === token && c.kind === 'edit'))),
      );
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200 [^]*\{"type":5,"data":\{\}\}/);
      expect(order).toEqual(expected);
      expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await replica.stop();
      await fake.close();
    }
  });

  it('Slack slash commands: every ack before any command runs', async () => {
    const logs: LogLine[] = [];
    const fake = await startSlackFake();
    const work = vi.fn();
    const dispatcher = createFakeDispatcher(createTestRegistry(), work);
    const { stop, url: eventsUrl } = await startSlackHttp(
      fake,
      createTestRegistry(),
      dispatcher,
      recordingLog(logs),
    );
    try {
      const url = new URL(eventsUrl);
      expect(url.pathname).toBe(SLACK_EVENTS_PATH);
      const signed = (body: string) => {
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': signature(SIGNING_SECRET, timestamp, body),
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        };
        return raw(url, headers, body);
      };
      const ids = Array.from({ length: BURST }, (_, i) => `burst-${i}`);
      const { answers, order } = await burst(
        url,
        // Slack's SSL check, answered by the receiver itself, runs nothing.
        () => signed('ssl_check=1&token=legacy-verification-token'),
        ids.map((id) => signed(slashBody('/weather', 'Oslo', fake.responseUrl(id)))),
        work,
        () => Promise.all(ids.map((id) => waitFor(() => (fake.responses(id).length > 0 ? true : undefined)))),
      );
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(order).toEqual(expected);
      expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await stop();
      await fake.server.close();
    }
  });
});
