// `npm run bench -- interactions`: Discord's HTTP interactions endpoint, one replica in its own
// process (interactions-process.ts) on loopback, the edits of @original going to a REST sink
// here. Four rows, each against its target: signed PINGs, signed /weather deferrals (and every
// edit sent), cold start to the first PONG, and 10,000 bad signatures (401, CPU each, none parsed).
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { closedLoop, percentile } from './stats.ts';

const scale = process.env.BENCH_QUICK === '1' ? 0.2 : 1;
const count = (n: number) => Math.max(1, Math.round(n * scale));
const CONCURRENCY = 200;

interface Row {
  scenario: string;
  measured: string;
  target: string;
  met: boolean;
}

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x ?? '';
  return { privateKey, publicKeyHex: Buffer.from(x, 'base64url').toString('hex') };
}

function signed(privateKey: KeyObject, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'x-signature-ed25519': sign(null, Buffer.from(timestamp + body), privateKey).toString('hex'),
    'x-signature-timestamp': timestamp,
  };
}

let ids = 1_300_000_000_000_000_000n;
function interaction(type: number, token: string): Record<string, unknown> {
  ids += 1n;
  const user = {
    id: '80351110224678912',
    username: 'nelly',
    discriminator: '0',
    global_name: 'Nelly',
    avatar: null,
  };
  return {
    id: ids.toString(),
    application_id: '1187421520894746624',
    type,
    token,
    version: 1,
    guild_id: '1187421520894746700',
    channel_id: '1187421520894746711',
    channel: { id: '1187421520894746711', type: 0, guild_id: '1187421520894746700', name: 'general' },
    member: {
      user,
      roles: [],
      joined_at: '2023-01-01T00:00:00.000Z',
      deaf: false,
      mute: false,
      flags: 0,
      permissions: '2248473465835073',
      nick: null,
      avatar: null,
      pending: false,
    },
    locale: 'en-GB',
    app_permissions: '2248473465835073',
    entitlements: [],
    authorizing_integration_owners: { '0': '1187421520894746700' },
    context: 0,
    attachment_size_limit: 10_485_760,
    ...(type === 2
      ? {
          data: {
            id: '1187421520894746900',
            name: 'weather',
            type: 1,
            options: [{ name: 'city', type: 3, value: 'Oslo' }],
          },
        }
      : {}),
  };
}

/** Discord's REST API as far as the edits of @original go: counts them, answers with a message. */
async function startRestSink() {
  let edits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'PATCH' && req.url?.includes('/messages/')) edits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: '1187421520894747000',
          channel_id: '1187421520894746711',
          type: 0,
          content: '',
          author: {
            id: '1187421520894746624',
            username: 'herald',
            discriminator: '0',
            avatar: null,
            bot: true,
          },
          embeds: [],
          attachments: [],
          components: [],
          mentions: [],
          mention_roles: [],
          mention_everyone: false,
          pinned: false,
          tts: false,
          timestamp: new Date().toISOString(),
          edited_timestamp: null,
          flags: 0,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    edits: () => edits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Stats {
  cpu: NodeJS.CpuUsage;
  commands: number;
}

function statsOf(child: ChildProcess): Promise<Stats> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Stats));
    child.send('stats');
  });
}

async function until(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export async function runInteractionsBench(): Promise<number> {
  const keys = keyPair();
  const wrongKeys = keyPair();
  const sink = await startRestSink();
  const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  const script = fileURLToPath(new URL('./interactions-process.ts', import.meta.url));

  // Cold start: from spawning the process to the first PONG it answers.
  const startedAt = performance.now();
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, BENCH_DISCORD_API_URL: sink.url, BENCH_PUBLIC_KEY: keys.publicKeyHex },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^ready (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the replica exited (${code}) before it was ready`)));
  });
  const url = `http://127.0.0.1:${port}/interactions`;
  const post = async (body: string, headers: Record<string, string>) => {
    const res = await request(url, { method: 'POST', body, headers, dispatcher });
    await res.body.dump();
    return res.statusCode;
  };
  const pingBody = () =>
    JSON.stringify({ id: '1', application_id: '1187421520894746624', type: 1, token: 'p', version: 1 });
  let body = pingBody();
  const firstPong = await post(body, signed(keys.privateKey, body));
  const coldMs = performance.now() - startedAt;

  // Signed PINGs, 200 at a time.
  const pings = count(4_000);
  const pingMs: number[] = [];
  let pingErrors = 0;
  await closedLoop(pings, CONCURRENCY, async () => {
    const b = pingBody();
    const headers = signed(keys.privateKey, b);
    const t = performance.now();
    const status = await post(b, headers).catch(() => 0);
    pingMs.push(performance.now() - t);
    if (status !== 200) pingErrors += 1;
  });

  // Signed /weather, 200 at a time: the deferral is the HTTP answer; the edits follow over REST.
  const commands = count(2_000);
  const deferMs: number[] = [];
  let deferErrors = 0;
  await closedLoop(commands, CONCURRENCY, async (i) => {
    const b = JSON.stringify(interaction(2, `bench-token-${i}`));
    const headers = signed(keys.privateKey, b);
    const t = performance.now();
    const status = await post(b, headers).catch(() => 0);
    deferMs.push(performance.now() - t);
    if (status !== 200) deferErrors += 1;
  });
  const allEdited = await until(() => sink.edits() >= commands, 30_000);

  // Bad signatures: well formed and current, by another key, so each costs a full Ed25519 check.
  const bad = count(10_000);
  body = JSON.stringify(interaction(2, 'bench-token-bad'));
  const badHeaders = signed(wrongKeys.privateKey, body);
  const before = await statsOf(child);
  let not401 = 0;
  await closedLoop(bad, CONCURRENCY, async () => {
    if ((await post(body, badHeaders).catch(() => 0)) !== 401) not401 += 1;
  });
  const after = await statsOf(child);
  const cpuUs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / bad;
  const parsed = after.commands - before.commands;

  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  await dispatcher.close();
  await sink.close();

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const rows: Row[] = [
    {
      scenario: `signed PING → PONG, ${CONCURRENCY} concurrent (${pings})`,
      measured: `p50 ${ms(percentile(pingMs, 50))}, p99 ${ms(percentile(pingMs, 99))}, ${pingErrors} errors`,
      target: 'p99 ≤ 20 ms; 0 errors',
      met: percentile(pingMs, 99) <= 20 && pingErrors === 0,
    },
    {
      scenario: `signed /weather → deferral, ${CONCURRENCY} concurrent (${commands})`,
      measured: `p50 ${ms(percentile(deferMs, 50))}, p99 ${ms(percentile(deferMs, 99))}, ${deferErrors} errors; edits ${sink.edits()}/${commands}`,
      target: 'deferral p99 ≤ 50 ms; every edit sent',
      met: percentile(deferMs, 99) <= 50 && deferErrors === 0 && allEdited,
    },
    {
      scenario: 'cold start: process start → first PONG',
      measured: `${ms(coldMs)} (answer ${firstPong})`,
      target: '≤ 500 ms',
      met: coldMs <= 500 && firstPong === 200,
    },
    {
      scenario: `bad signatures (${bad})`,
      measured: `${bad - not401} × 401, ${cpuUs.toFixed(1)} µs CPU each, ${parsed} parsed`,
      target: 'all 401, ≤ 60 µs CPU each, nothing parsed',
      met: not401 === 0 && cpuUs <= 60 && parsed === 0,
    },
  ];
  const width = (key: keyof Row) => Math.max(...rows.map((r) => String(r[key]).length), key.length);
  const line = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  const widths = [width('scenario'), width('measured'), width('target'), 3];
  process.stdout.write(
    [
      `Discord HTTP interactions, one replica on loopback (node ${process.version}, load ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)`,
      line(['scenario', 'measured', 'target', 'met'], widths),
      widths.map((w) => '-'.repeat(w)).join('-|-'),
      ...rows.map((r) => line([r.scenario, r.measured, r.target, r.met ? 'yes' : 'NO'], widths)),
    ].join('\n') + '\n',
  );
  return 0;
}
