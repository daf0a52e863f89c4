// The floor of the interactions bench: a bare node:http server doing only what Discord requires of
// an endpoint, verifying Ed25519 over the timestamp and the raw body with node:crypto (the key made
// once) and answering 401, a PONG, or a deferral (type 5). No limits, no routes, no adapter: what
// any Node endpoint on this machine must spend. Prints "ready <port>" once listening (PORT, else any).
import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBenchIpc } from './interactions-ipc.ts';

const key = createPublicKey({
  key: {
    kty: 'OKP',
    crv: 'Ed25519',
    x: Buffer.from(process.env.BENCH_PUBLIC_KEY ?? '', 'hex').toString('base64url'),
  },
  format: 'jwk',
});
let parsed = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const signature = req.headers['x-signature-ed25519'];
    const timestamp = req.headers['x-signature-timestamp'];
    if (
      typeof signature !== 'string' ||
      typeof timestamp !== 'string' ||
      !verify(null, Buffer.concat([Buffer.from(timestamp), body]), key, Buffer.from(signature, 'hex'))
    ) {
      res.writeHead(401).end();
      return;
    }
    parsed += 1;
    const isPing = (JSON.parse(body.toString('utf8')) as { type: number }).type === 1;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(isPing ? '{"type":1}' : '{"type":5,"data":{}}');
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
answerBenchIpc(
  () => parsed,
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
