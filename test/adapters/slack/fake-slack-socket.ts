// Slack's Socket Mode end of the fakes: a minimal WebSocket server on loopback (RFC 6455 text
// frames, ping and close) that greets a client with Slack's `hello`
// (https://docs.slack.dev/apis/events-api/using-socket-mode), records the JSON it sends (acks by
// envelope_id), and sends envelopes; and `apps.connections.open` on a SlackFake, which hands out
// the socket's address to the app-level token only.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { http, HttpResponse } from 'msw';
import type { SlackFake } from './fake-slack.ts';
import { APP_TOKEN } from './fakes.ts';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126 ? Buffer.from([0x80 | opcode, len]) : Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff]);
  return Buffer.concat([head, payload]);
}

export interface FakeSocketServer {
  port: number;
  received: Record<string, unknown>[];
  send(message: object): void;
  /** Writes the messages' frames in one go, so the client reads them all in one read. */
  sendTogether(messages: object[]): void;
  isClosed(): boolean;
  close(): Promise<void>;
}

/** Accepts one WebSocket client, greets it with Slack's hello and records the JSON it sends. */
export async function startSocketServer(): Promise<FakeSocketServer> {
  const received: Record<string, unknown>[] = [];
  let client: Socket | undefined;
  let closed = false;
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Socket) => {
    const accept = createHash('sha1')
      .update(`${String(req.headers['sec-websocket-key'])}${WS_GUID}`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    client = socket;
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = buffer[0]! & 0x0f;
        let len = buffer[1]! & 0x7f;
        let offset = 2;
        if (len === 126) {
          if (buffer.length < 4) return;
          len = buffer.readUInt16BE(2);
          offset = 4;
        } else if (len === 127) {
          if (buffer.length < 10) return;
          len = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        const isMasked = (buffer[1]! & 0x80) !== 0;
        const mask = isMasked ? buffer.subarray(offset, offset + 4) : undefined;
        offset += isMasked ? 4 : 0;
        if (buffer.length < offset + len) return;
        const payload = Buffer.from(buffer.subarray(offset, offset + len));
        if (mask) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
        buffer = buffer.subarray(offset + len);
        if (opcode === 0x1) received.push(JSON.parse(payload.toString('utf8')) as Record<string, unknown>);
        if (opcode === 0x9) socket.write(frame(0xa, payload));
        if (opcode === 0x8) {
          closed = true;
          socket.end(frame(0x8, payload));
        }
      }
    });
    socket.on('error', () => undefined);
    const hello = {
      type: 'hello',
      num_connections: 1,
      debug_info: { host: 'applink-test-1', build_number: 118, approximate_connection_time: 18060 },
      connection_info: { app_id: 'A0HERALD' },
    };
    socket.write(frame(0x1, Buffer.from(JSON.stringify(hello))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    send: (message) => client?.write(frame(0x1, Buffer.from(JSON.stringify(message)))),
    sendTogether: (messages) =>
      client?.write(Buffer.concat(messages.map((m) => frame(0x1, Buffer.from(JSON.stringify(m)))))),
    isClosed: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        client?.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The socket server, reached through `fake`'s apps.connections.open: it answers the app-level
 * token (`xapp-…`, SLACK_APP_TOKEN) with the socket's URL, and any other with `invalid_auth`.
 */
export async function attachSocketMode(fake: SlackFake): Promise<FakeSocketServer> {
  const sockets = await startSocketServer();
  fake.server.use(
    http.post('*/api/apps.connections.open', ({ request }) =>
      request.headers.get('authorization') === `Bearer ${APP_TOKEN}`
        ? HttpResponse.json({
            ok: true,
            url: `ws://127.0.0.1:${sockets.port}/link/?ticket=test-ticket&app_id=A0HERALD`,
          })
        : HttpResponse.json({ ok: false, error: 'invalid_auth' }),
    ),
  );
  return sockets;
}
