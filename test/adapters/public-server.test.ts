// The attacks on herald's public port, end to end against the real servers: Discord's interactions
// endpoint (adapter in HTTP mode) and Slack's receiver (real Bolt), both routes of herald's one
// server. Anyone can open a connection there, so a request is refused before its body is read
// unless its signature headers are well formed; a body has its payload's bound (told by
// Content-Length) and a deadline; bodies above a few kilobytes share one budget; connections are
// capped in total and, where configured, per address. Requests are written by hand on raw sockets,
// so that a test controls what is sent and when.
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INTERACTION_BODY_MAX } from '../../adapters/discord/http.ts';
import { SLACK_BODY_MAX } from '../../adapters/slack/endpoint.ts';
import type { ConnectionLimits } from '../../src/health.ts';
import { createBodyBudget } from '../../src/request-body.ts';
import { recordingLog, type LogLine } from '../support/command-doubles.ts';
import { slashCommand, startFakeDiscord, type FakeDiscord } from './discord/fake-discord.ts';
import { generateKeys, signedHeaders as discordSigned, startHttpReplica } from './discord/http-support.ts';
import { fakeSlackConfig, serveSlack } from './slack/fake-config.ts';
import {
  createFakeDispatcher,
  createTestRegistry,
  signature,
  SIGNING_SECRET,
  slashBody,
  startSlackFake,
  type SlackFake,
} from './slack/fakes.ts';

const keys = generateKeys();
const logs: LogLine[] = [];
const log = recordingLog(logs);
let discord: FakeDiscord;
let slack: SlackFake;
let tokens = 0;

beforeAll(async () => {
  discord = await startFakeDiscord();
  slack = await startSlackFake();
});
afterAll(async () => {
  await discord?.close();
  await slack?.server.close();
});

interface Served {
  port: number;
  path: string;
  stop(): Promise<void>;
}

/** What differs between the two platforms' endpoints. */
interface Platform {
  name: string;
  /** The largest body the endpoint takes. */
  bodyMax: number;
  serve(limits: ConnectionLimits): Promise<Served>;
  /** A real request's body and headers, signed as the platform signs it. */
  signed(): { body: string; headers: Record<string, string> };
  /** Headers of the platform's form with a signature that is not well formed. */
  malformed(): Record<string, string>;
  contentType: string;
}

const platforms: Platform[] = [
  {
    name: "Discord's interactions endpoint",
    bodyMax: INTERACTION_BODY_MAX,
    contentType: 'application/json',
    async serve(limits) {
      const replica = await startHttpReplica({
        keys,
        apiUrl: discord.apiUrl,
        webhook: discord.webhook,
        log,
        limits,
      });
      return { port: replica.server.port, path: '/interactions', stop: () => replica.stop() };
    },
    signed() {
      const token = `hardening-token-${(tokens += 1)}-aW50ZXJhY3Rpb246`;
      const body = JSON.stringify(
        slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Oslo' }] }),
      );
      return { body, headers: discordSigned(keys, body) };
    },
    malformed: () => ({
      'x-signature-ed25519': 'z'.repeat(128),
      'x-signature-timestamp': String(Math.floor(Date.now() / 1000)),
    }),
  },
  {
    name: "Slack's receiver",
    bodyMax: SLACK_BODY_MAX,
    contentType: 'application/x-www-form-urlencoded',
    async serve(limits) {
      const served = await serveSlack({ config: fakeSlackConfig(slack), log }, limits);
      const registry = createTestRegistry();
      await served.adapter.start(registry, createFakeDispatcher(registry));
      return {
        port: Number(new URL(served.url).port),
        path: new URL(served.url).pathname,
        stop: served.stop,
      };
    },
    signed() {
      const body = slashBody('/weather', 'Oslo', slack.responseUrl(`hardening-${(tokens += 1)}`));
      const timestamp = Math.floor(Date.now() / 1000);
      return {
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': signature(SIGNING_SECRET, timestamp, body),
        },
      };
    },
    malformed: () => ({
      'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-slack-signature': `v1=${'a'.repeat(64)}`,
    }),
  },
];

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The request line and headers, without the body. */
function head(path: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** What the server sent before it closed the connection, and that it did close it. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += String(chunk)));
    // A connection dropped at once may end with a reset rather than a close.
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);

describe.each(platforms)('$name on the public port', (platform) => {
  let served: Served | undefined;
  const sockets: Socket[] = [];
  const serve = async (limits: ConnectionLimits = {}) => (served = await platform.serve(limits));
  const socket = async () => {
    const s = await open(served!.port);
    sockets.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await served?.stop();
    served = undefined;
  });

  it('refuses a request without signature headers with 401 before reading its body, and closes', async () => {
    await serve();
    const s = await socket();
    const closed = untilClosed(s);
    // A large body is announced and never sent: the answer cannot wait for it.
    s.write(head(served!.path, { 'content-type': platform.contentType, 'content-length': '100000' }));
    const answer = await closed;
    expect(statusOf(answer)).toBe(401);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('refuses signature headers that are not well formed the same way', async () => {
    await serve();
    const s = await socket();
    const closed = untilClosed(s);
    s.write(
      head(served!.path, {
        'content-type': platform.contentType,
        'content-length': '100000',
        ...platform.malformed(),
      }),
    );
    expect(statusOf(await closed)).toBe(401);
  });

  it("answers 413 to a signed request whose Content-Length is over its payload's bound, before any of it arrives", async () => {
    await serve();
    const s = await socket();
    const closed = untilClosed(s);
    const { headers } = platform.signed();
    s.write(head(served!.path, { ...headers, 'content-length': String(platform.bodyMax + 1) }));
    expect(statusOf(await closed)).toBe(413);
  });

  it('times out a signed request whose body trickles in, with 408', async () => {
    await serve({ bodyDeadlineMs: 200 });
    const s = await socket();
    const closed = untilClosed(s);
    const { body, headers } = platform.signed();
    s.write(head(served!.path, { ...headers, 'content-length': String(Buffer.byteLength(body)) }));
    s.write(body.slice(0, 10));
    expect(statusOf(await closed)).toBe(408);
  });

  it('closes a connection whose headers never end', async () => {
    await serve({ headersTimeoutMs: 300 });
    const s = await socket();
    const closed = untilClosed(s);
    s.write(`POST ${served!.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
    await closed;
    expect(s.destroyed).toBe(true);
  });

  it('answers 503 to a large body while the budget for large bodies is taken, and small ones still run', async () => {
    const large = Math.min(platform.bodyMax, 100_000);
    await serve({ budget: createBodyBudget(large + large / 2), bodyDeadlineMs: 2_000 });
    const held = await socket();
    void untilClosed(held);
    const { headers } = platform.signed();
    held.write(head(served!.path, { ...headers, 'content-length': String(large) }));
    held.write('{');
    // Wait until the first body has taken its part of the budget.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await socket();
    const refused = untilClosed(second);
    second.write(head(served!.path, { ...headers, 'content-length': String(large) }));
    expect(statusOf(await refused)).toBe(503);
    const { body, headers: signed } = platform.signed();
    const res = await fetch(`http://127.0.0.1:${served!.port}${served!.path}`, {
      method: 'POST',
      body,
      headers: signed,
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it('still answers a signed command at once while slow connections are held', async () => {
    await serve();
    for (let i = 0; i < 50; i++) {
      const s = await socket();
      s.on('error', () => undefined);
      const { headers } = platform.signed();
      s.write(head(served!.path, { ...headers, 'content-length': '4000' }));
      s.write('{');
    }
    const { body, headers } = platform.signed();
    const res = await fetch(`http://127.0.0.1:${served!.port}${served!.path}`, {
      method: 'POST',
      body,
      headers,
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});

describe("the public server's connection caps", () => {
  let served: Served | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await served?.stop();
    served = undefined;
  });
  const hold = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const s = await open(served!.port);
      s.on('error', () => undefined);
      s.write('POST /interactions HTTP/1.1\r\n');
      sockets.push(s);
    }
  };

  it('drops a connection past HTTP_MAX_CONNECTIONS, and takes one again once another closed', async () => {
    served = await platforms[0]!.serve({ maxConnections: 3 });
    await hold(3);
    const over = await open(served.port);
    await untilClosed(over);
    expect(over.destroyed).toBe(true);
    sockets.shift()!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const health = await fetch(`http://127.0.0.1:${served.port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('drops a connection past the cap per address only where one is set', async () => {
    served = await platforms[0]!.serve({ maxConnectionsPerAddress: 2 });
    await hold(2);
    const over = await open(served.port);
    await untilClosed(over);
    expect(over.destroyed).toBe(true);
    await served.stop();
    served = await platforms[0]!.serve({});
    await hold(5);
    const health = await fetch(`http://127.0.0.1:${served.port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('drops the connection open longest once more than HTTP_MAX_UNVERIFIED_CONNECTIONS wait unverified', async () => {
    served = await platforms[0]!.serve({ maxUnverifiedConnections: 3 });
    await hold(3);
    const [first, second] = sockets;
    const firstClosed = untilClosed(first!);
    await hold(1);
    await firstClosed;
    expect(first!.destroyed).toBe(true);
    // Each newcomer past the bound drops the next longest waiting: at most 3 are held.
    const secondClosed = untilClosed(second!);
    await hold(1);
    await secondClosed;
    expect(sockets.filter((s) => !s.destroyed && !s.readableEnded)).toHaveLength(3);
  });

  it('never drops a connection a signed request came through, and a signed command still gets in', async () => {
    served = await platforms[0]!.serve({ maxUnverifiedConnections: 3 });
    // A load balancer's connection: one signed command answered, the connection kept open.
    const balancer = await open(served.port);
    sockets.push(balancer);
    const answered = new Promise<string>((resolve) =>
      balancer.once('data', (chunk) => resolve(String(chunk))),
    );
    const { body, headers } = platforms[0]!.signed();
    balancer.write(
      head(served.path, { ...headers, 'content-length': String(Buffer.byteLength(body)) }) + body,
    );
    expect(statusOf(await answered)).toBe(200);
    let balancerClosed = false;
    balancer.once('close', () => (balancerClosed = true));
    await hold(6);
    const next = platforms[0]!.signed();
    const res = await fetch(`http://127.0.0.1:${served.port}${served.path}`, {
      method: 'POST',
      body: next.body,
      headers: next.headers,
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect(balancerClosed).toBe(false);
  });
});
