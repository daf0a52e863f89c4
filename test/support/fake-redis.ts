// A Redis stand-in on loopback that answers a fixed table of settings, for what the shared test
// server must not be changed to show (an evicting maxmemory-policy, a CONFIG that a managed Redis
// refuses). It speaks RESP2 as https://redis.io/docs/latest/develop/reference/protocol-spec/
// describes it: requests are arrays of bulk strings; `CONFIG GET name` answers [name, value], or an
// empty array for an unknown setting; a refused command is an error reply (`-ERR ...`).
import { createServer, type Server, type Socket } from 'node:net';

export interface FakeRedisOptions {
  /** CONFIG GET's answers by setting name. */
  config?: Record<string, string>;
  /** Answer CONFIG with this error instead (as a managed Redis that renames or forbids it). */
  refuseConfig?: string;
  /** The `INFO memory` section's maxmemory_policy line, when set. */
  infoPolicy?: string;
}

export interface FakeRedis {
  url: string;
  /** Every command received, upper-cased name first. */
  commands: string[][];
  close(): Promise<void>;
}

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

/** Parses every complete RESP array of bulk strings at the start of `buffer`; returns the rest. */
function parse(buffer: string, out: string[][]): string {
  let rest = buffer;
  for (;;) {
    const head = /^\*(\d+)\r\n/.exec(rest);
    if (!head) return rest;
    let at = head[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(head[1]); i++) {
      const len = /^\$(\d+)\r\n/.exec(rest.slice(at));
      if (!len || rest.length < at + len[0].length + Number(len[1]) + 2) return rest;
      at += len[0].length;
      args.push(rest.slice(at, at + Number(len[1])));
      at += Number(len[1]) + 2;
    }
    out.push(args);
    rest = rest.slice(at);
  }
}

function answer(args: string[], opts: FakeRedisOptions): string {
  const [name = '', sub = '', key = ''] = args;
  switch (name.toUpperCase()) {
    case 'INFO': {
      const policy =
        opts.infoPolicy === undefined ? '' : `# Memory\r\nmaxmemory_policy:${opts.infoPolicy}\r\n`;
      return bulk(`# Server\r\nredis_version:7.2.4\r\nloading:0\r\n${policy}`);
    }
    case 'CONFIG': {
      if (opts.refuseConfig !== undefined) return `-${opts.refuseConfig}\r\n`;
      const value = sub.toUpperCase() === 'GET' ? opts.config?.[key] : undefined;
      return value === undefined ? '*0\r\n' : `*2\r\n${bulk(key)}${bulk(value)}`;
    }
    case 'PING':
      return '+PONG\r\n';
    default:
      return '+OK\r\n';
  }
}

export async function startFakeRedis(opts: FakeRedisOptions): Promise<FakeRedis> {
  const commands: string[][] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    socket.on('data', (chunk) => {
      const received: string[][] = [];
      buffer = parse(buffer + chunk.toString('utf8'), received);
      for (const args of received) {
        commands.push([args[0]?.toUpperCase() ?? '', ...args.slice(1)]);
        socket.write(answer(args, opts));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    commands,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
