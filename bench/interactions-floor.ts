// The floor of the interactions bench: a bare node:http server doing only what Discord requires of
// an endpoint, verifying Ed25519 over the timestamp and the raw body with node:crypto (the key made
// once) and answering 401, a PONG, or a deferral (type 5). A command is not done at its deferral:
// every deferred command must then edit its original response, so the floor also sends that edit
// (`PATCH /webhooks/{application}/{token}/messages/@original`, the /weather embed as JSON) to
// Discord's stand-in (BENCH_DISCORD_API_URL) with undici's `request` on its default keep-alive
// pool, checks its status and discards the answer. No limits, no routes, no adapter, no rate-limit
// reading: what any Node endpoint on this machine must spend. Prints "ready <port>" once listening
// (PORT, else any).
import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { answerBenchIpc } from './interactions-ipc.ts';

const key = createPublicKey({
  key: {
    kty: 'OKP',
    crv: 'Ed25519',
    x: Buffer.from(process.env.BENCH_PUBLIC_KEY ?? '', 'hex').toString('base64url'),
  },
  format: 'jwk',
});
const api = process.env.BENCH_DISCORD_API_URL;
let parsed = 0;
let editErrors = 0;

/** The edit of @original every deferred command owes: the answer /weather gives in herald. */
async function edit(interaction: { application_id: string; token: string }): Promise<void> {
  const res = await request(
    `${api}/v10/webhooks/${interaction.application_id}/${interaction.token}/messages/@original`,
    {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'user-agent': 'DiscordBot (bench-floor, 1.0)' },
      body: JSON.stringify({
        content: '',
        embeds: [{ title: 'Weather in Oslo', description: 'light rain, 12 °C', color: 3900150 }],
        allowed_mentions: { parse: [] },
      }),
    },
  );
  await res.body.dump();
  if (res.statusCode !== 200) editErrors += 1;
}

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
    const interaction = JSON.parse(body.toString('utf8')) as {
      type: number;
      application_id: string;
      token: string;
    };
    if (interaction.type === 1) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":1}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":5,"data":{}}');
    if (api) void edit(interaction).catch(() => (editErrors += 1));
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
answerBenchIpc(
  () => parsed,
  () =>
    new Promise<void>((resolve) => {
      if (editErrors > 0) process.stderr.write(`floor: ${editErrors} edits failed\n`);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
