// A /schedule console session, end to end: `src/main.ts` with a file store, the simulator for the
// services, and a real webhook fake on loopback as WEBHOOK_URL. Add two schedules, restart, list
// (both, with their next runs), run one (posted once), remove it (gone), each in its own process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookInbox, webhookHandlers } from '../../src/sandbox/webhook.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { runHerald } from '../support/spawn-herald.ts';

const TOKEN = 'tok-e2e-destination-secret';
const inbox = createWebhookInbox();
let fake: SandboxServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  fake = await startFake(webhookHandlers({ credential: TOKEN, inbox }));
  dir = await mkdtemp(join(tmpdir(), 'herald-schedule-'));
  env = {
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    STORE_URL: join(dir, 'herald.sqlite'),
    AUDIO_DIR: join(dir, 'audio'),
    WEBHOOK_URL: `${fake.url}/webhook/api/webhooks/1200000000000000001/${TOKEN}`,
    // Simulated weather to this real webhook is refused unless allowed, and then marked.
    SCHEDULE_ALLOW_SIMULATED: 'true',
  };
});

afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

async function session(stdin: string): Promise<string> {
  const run = await runHerald(env, stdin);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout + run.stderr).not.toContain(TOKEN);
  return run.stdout;
}

describe('a console session with a file store', () => {
  it('adds two schedules, keeps them over a restart, runs one once and removes it', async () => {
    const added = await session(
      '/schedule add "every weekday at 07:30" /weather Oslo units:imperial\n' +
        '/schedule add tz:Europe/Berlin "every monday at 09:00" /jobs what:"rust developer" where:Berlin\n',
    );
    const ids = [...added.matchAll(/Schedule (\w{6}) added/g)].map((m) => m[1]!);
    expect(ids, added).toHaveLength(2);
    expect(added).toContain(`[Run now] /schedule run id:${ids[0]}`);
    expect(added).toContain(`[Remove] /schedule remove id:${ids[0]}`);

    // A new process: both are there, each rule in its own zone, each next run in the operator's.
    const listed = await session('/schedule list\n');
    for (const id of ids) expect(listed).toContain(`${id} · `);
    expect(listed).toMatch(
      /every weekday \(Monday to Friday\) at 07:30[\s\S]*Next: \w{3}, \d+ \w{3} \d{4}, 07:30 UTC/,
    );
    expect(listed).toMatch(/every Monday at 09:00[\s\S]*Next: Mon, \d+ \w{3} \d{4}, 0[78]:00 UTC/);

    const ran = await session(`/schedule run ${ids[0]}\n`);
    expect(ran).toContain(`Schedule ${ids[0]} posted /weather Oslo units:imperial to default.`);
    expect(inbox.messages).toHaveLength(1);
    expect(JSON.stringify(inbox.messages[0]!.embeds)).toContain('Oslo');
    expect(JSON.stringify(inbox.messages[0]!.embeds)).toContain(
      'Simulated data (built-in sandbox): weather.',
    );

    // `npm run job -- <id>` runs it once more, as a manual slot (everything simulated here).
    const job = await runHerald({ ...env, SANDBOX: 'on' }, '', {
      shell: `"${process.execPath}" src/run-job.ts ${ids[1]!}`,
    });
    expect(job.code, job.stderr).toBe(0);
    expect(job.stdout).toMatch(
      new RegExp(
        `^schedule ${ids[1]!} \\(/jobs what:"rust developer" where:Berlin\\): delivered webhook \\(slot manual:`,
      ),
    );
    expect(inbox.messages).toHaveLength(1);

    const removed = await session(`/schedule remove ${ids[0]}\n/schedule list\n`);
    expect(removed).toContain(`Schedule ${ids[0]} (every weekday (Monday to Friday) at 07:30`);
    const after = await session('/schedule list\n');
    expect(after).not.toContain(`${ids[0]} · `);
    expect(after).toContain(`${ids[1]} · `);
    expect(inbox.messages).toHaveLength(1);
  }, 120_000);

  it('runs a piped session in order around a change: a list below an add or a remove sees it', async () => {
    const own = { ...env, STORE_URL: join(dir, 'ordered.sqlite') };
    const blockOf = (out: string, line: string) =>
      out.split(/\n(?=> )/).find((b) => b.startsWith(`> ${line}\n`)) ?? '';
    // The weather lines beside them run concurrently as before; the schedule lines wait their turn.
    const first = await runHerald(
      own,
      '/weather Oslo\n/schedule add hourly /weather Oslo\n/schedule list\n/forecast Oslo\n',
    );
    expect(first.code, first.stderr).toBe(0);
    const id = /Schedule (\w{6}) added/.exec(first.stdout)?.[1];
    expect(id, first.stdout).toBeDefined();
    expect(blockOf(first.stdout, '/schedule list')).toContain(`${id!} · `);

    const second = await runHerald(own, `/schedule remove ${id!}\n/schedule list\n`);
    expect(second.code, second.stderr).toBe(0);
    expect(blockOf(second.stdout, `/schedule remove ${id!}`)).toContain(`Schedule ${id!}`);
    expect(blockOf(second.stdout, '/schedule list')).not.toContain(`${id!} · `);
  }, 60_000);
});
