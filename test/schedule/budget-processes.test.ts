// Two herald processes sharing Redis: Discord's global 429 answered to one replica stops the
// other's scheduled posts of that webhook host too (Discord's budget in Redis, src/store/rate-budget-redis.ts),
// while both go on answering interactions, which never take from the budget (Discord exempts
// interaction responses from its global limit: https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
// Each replica is test/schedule/budget-child.ts; the fake answers as Discord's execute webhook
// and Edit Original Interaction Response do, and records the order things reach it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../jobs/harness.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { CHILD_ENV, ROOT } from '../support/spawn-herald.ts';

const keyPrefix = testKeyPrefix();
/**
 * The global 429's retry_after: long enough for both replicas to answer interactions meanwhile, and
 * for the other replica to take its post in hand within it on a loaded machine.
 */
const RETRY_AFTER_S = 3;

/** What reached the fake, in order: `post <content>`, `429 <content>`, `answer <token>`. */
const seen: string[] = [];
/** When each of `seen` reached the fake (ms, this process's monotonic clock). */
const arrivedAt = new Map<string, number>();
const note = (what: string) => {
  seen.push(what);
  arrivedAt.set(what, performance.now());
};
let server: Server;
let api = '';

/** Discord's message object, as execute webhook with wait=true answers. */
const message = (content: string, webhookId: string) => ({
  id: String(1_300_000_000_000_000_000n + BigInt(seen.length)),
  type: 0,
  content,
  channel_id: '1187421520894746711',
  author: { id: webhookId, username: 'herald', bot: true, discriminator: '0000' },
  attachments: [],
  embeds: [],
  mentions: [],
  pinned: false,
  tts: false,
  timestamp: '2026-11-29T08:00:00.000000+00:00',
  webhook_id: webhookId,
  flags: 0,
});

function answer(
  path: string,
  body: string,
): { status: number; headers: Record<string, string>; body: string } {
  const json = JSON.parse(body || '{}') as { content?: string };
  const content = json.content ?? '';
  const edit = /^\/v10\/webhooks\/\d+\/([^/]+)\/messages\/(?:@|%40)original$/.exec(path);
  if (edit) {
    note(`answer ${edit[1]}`);
    return { status: 200, headers: {}, body: JSON.stringify(message(content, '1187421520894746600')) };
  }
  const hook = /^\/webhooks\/(\d+)\/[^/?]+/.exec(path);
  if (!hook)
    return { status: 404, headers: {}, body: JSON.stringify({ message: '404: Not Found', code: 0 }) };
  if (content === 'answered-429') {
    note(`429 ${content}`);
    return {
      status: 429,
      headers: { 'retry-after': '2', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
      body: JSON.stringify({
        message: 'You are being rate limited.',
        retry_after: RETRY_AFTER_S,
        global: true,
      }),
    };
  }
  note(`post ${content}`);
  return { status: 200, headers: {}, body: JSON.stringify(message(content, hook[1]!)) };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const out = answer((req.url ?? '').split('?')[0] ?? '', body);
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
      res.end(out.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await deleteKeys(keyPrefix);
});

interface Replica {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  send: (line: string) => void;
}

function replica(owner: string): Replica {
  const child = spawn(process.execPath, [join(ROOT, 'test/schedule/budget-child.ts')], {
    cwd: ROOT,
    env: { ...CHILD_ENV, PATH: process.env.PATH, REDIS_URL, KEY_PREFIX: keyPrefix, API: api, OWNER: owner },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return { child, out: () => out, send: (line) => child.stdin.write(`${line}\n`) };
}

it("stops the other replica's scheduled posts for a global 429, while both answer interactions", async () => {
  const [a, b] = [replica('replica-a'), replica('replica-b')];
  try {
    await waitFor(() => a.out().includes('ready') && b.out().includes('ready'), 15_000, 'both replicas');
    a.send('post hook1 answered-429');
    await waitFor(() => a.out().includes('posted answered-429'), 10_000, "a's 429");
    expect(a.out()).toContain('posted answered-429 pending');
    // Another webhook of the same host, on the other replica: it waits for the pause.
    b.send('post hook2 held-by-the-pause');
    a.send('answer token-a');
    b.send('answer token-b');
    await waitFor(() => b.out().includes('posted held-by-the-pause'), 10_000, "b's post");
    expect(b.out()).toContain('posted held-by-the-pause delivered');
    // B waited in Discord's budget for the pause A's 429 set, and its post came after the pause:
    // at least retry_after after the 429 left the fake, however late B took its post in hand.
    expect(b.out()).toMatch(/^waiting \d+$/m);
    expect(b.out().indexOf('waiting')).toBeLessThan(b.out().indexOf('posted held-by-the-pause'));
    const held = arrivedAt.get('post held-by-the-pause')! - arrivedAt.get('429 answered-429')!;
    expect(held).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1_000 - 50);
    // Both answers went while the post waited: an interaction answer takes nothing from the budget.

    const posted = seen.indexOf('post held-by-the-pause');
    expect(seen.slice(0, posted).sort()).toEqual(['429 answered-429', 'answer token-a', 'answer token-b']);
  } finally {
    a.child.kill();
    b.child.kill();
  }
}, 30_000);
