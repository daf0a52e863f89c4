// A running bot keeps its heartbeat in its store while it runs, and takes it away when it stops: an
// import into that store is refused meanwhile and accepted after (src/store-move/heartbeat.ts).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshHeartbeat } from '../../src/store-move/heartbeat.ts';
import { createSqliteStore } from '../../src/store/index.ts';
import { startHerald } from '../support/spawn-herald.ts';
import { storeScratch } from '../support/scratch.ts';

const { dir } = storeScratch('herald-heartbeat-');

/** Waits on the child process, polling what it printed. */
async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the heartbeat of a running herald', () => {
  it('is in its store while the bot runs, with its host and pid, and gone once it has stopped', async () => {
    const path = join(dir, randomUUID(), 'herald.sqlite');
    const h = startHerald({ SANDBOX: 'on', LOG_FORMAT: 'json', STORE_URL: path });
    await until(() => h.err().includes('adapter console'), 30_000);
    const store = createSqliteStore(path);
    try {
      const beat = await freshHeartbeat(store);
      expect(beat?.owner).toMatch(new RegExp(`:${h.child.pid}$`));
      h.child.stdin.end();
      expect(await h.exited).toBe(0);
      expect(await freshHeartbeat(store)).toBeUndefined();
    } finally {
      await store.close();
    }
  }, 60_000);
});
