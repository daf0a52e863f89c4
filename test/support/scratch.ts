// Where a test file's stores live: a temporary folder for its SQLite files and a Redis key prefix
// of its own, both removed once the file has run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { deleteKeys, testKeyPrefix } from './redis.ts';

/** Call at the top of a test file; `tmpPrefix` names the folder (e.g. `herald-store-`). */
export function storeScratch(tmpPrefix: string): { dir: string; runPrefix: string } {
  const runPrefix = testKeyPrefix();
  const dir = mkdtempSync(join(tmpdir(), tmpPrefix));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await deleteKeys(runPrefix);
  });
  return { dir, runPrefix };
}
