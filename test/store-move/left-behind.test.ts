// `npm start -- --check` (and the start-up report) when REDIS_URL moves the store to Redis while a
// SQLite store holding schedules sits beside it: one warning naming the commands that move them.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepare } from '../../src/cli.ts';
import { createSqliteStore } from '../../src/store/index.ts';
import { storeScratch } from '../support/scratch.ts';

const { dir } = storeScratch('herald-left-behind-');

async function sqliteWith(schedules: number): Promise<string> {
  const path = join(dir, randomUUID(), 'herald.sqlite');
  const store = createSqliteStore(path);
  for (let i = 0; i < schedules; i++)
    await store.addSchedule(
      {
        id: `s${i}`,
        when: 'hourly',
        cron: '0 * * * *',
        words: 'every hour',
        timezone: 'UTC',
        destination: 'default',
        command: '/weather Oslo',
        creator: { platform: 'console', id: 'local', displayName: 'operator', roles: [] },
        paused: false,
        createdAt: 1_795_000_000_000 + i,
      },
      50,
    );
  await store.close();
  return path;
}

function check(env: Record<string, string>): string[] {
  const io = { stdout: '', out: (t: string) => void (io.stdout += t), err: () => undefined };
  expect(prepare(['--check'], { HERALD_ENV_FILE: '', ...env }, io)).toEqual({ kind: 'exit', code: 0 });
  return io.stdout.split('\n').filter((l) => l.includes('SQLite store'));
}

describe('--check with REDIS_URL and a SQLite store beside it', () => {
  it('warns when the SQLite store holds schedules, naming the commands that move them', async () => {
    const path = await sqliteWith(12);
    expect(check({ STORE_URL: path, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([
      `REDIS_URL puts the store in Redis, but the SQLite store ${path} beside it holds 12 schedules that herald no longer reads: move them with \`npm run --silent store -- export --store ${path} > herald-store.json\` then \`npm run store -- import < herald-store.json\` (docs/store-move.md), and remove ${path} once they are moved`,
    ]);
  });

  it('says nothing when the file holds no schedule, is not there, or is the store itself', async () => {
    const empty = await sqliteWith(0);
    expect(check({ STORE_URL: empty, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
    const none = join(dir, 'nothing', 'herald.sqlite');
    expect(check({ STORE_URL: none, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
    expect(check({ STORE_URL: await sqliteWith(3) })).toEqual([]);
    expect(check({ STORE_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
  });
});
