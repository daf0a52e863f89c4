// `npm run store -- export | import` as a shell runs it: the export redirected to a file under
// plain `npm run` (npm's banner and all) imports; under `npm run --silent` stdout is the JSON alone;
// every refusal is one sentence on stderr with its exit code.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startHeartbeat } from '../src/store-move/heartbeat.ts';
import { createSqliteStore } from '../src/store/index.ts';
import { inheritedEnv, ROOT } from './support/spawn-herald.ts';
import { storeScratch } from './support/scratch.ts';

const { dir } = storeScratch('herald-store-command-');
const sqlite = (name: string) => join(dir, randomUUID(), `${name}.sqlite`);
const node = process.execPath;
const exec = promisify(execFile);

/** A shell command in the project root, as typed: npm's own settings from a parent `npm test` left out. */
async function run(env: Record<string, string>, shell: string) {
  const inherited = Object.entries(inheritedEnv({ dropServiceVars: true })).filter(
    ([k]) => !/^npm_/i.test(k),
  );
  const options = { cwd: ROOT, env: { ...Object.fromEntries(inherited), HERALD_ENV_FILE: '', ...env } };
  try {
    return { code: 0, ...(await exec('/bin/sh', ['-c', shell], options)) };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function seeded(): Promise<string> {
  const path = sqlite('source');
  const store = createSqliteStore(path);
  for (const id of ['k7p2mx', 'w2n6tz'])
    await store.addSchedule(
      {
        id,
        when: 'every weekday at 07:30',
        cron: '30 7 * * 1-5',
        words: 'every weekday (Monday to Friday) at 07:30',
        timezone: 'Europe/Berlin',
        destination: 'default',
        command: '/weather Berlin',
        creator: { platform: 'slack', id: 'U024BE7LH', displayName: 'Ada', roles: [] },
        paused: false,
        createdAt: Date.parse('2026-11-02T10:00:00Z'),
      },
      50,
    );
  await store.recordRuns('k7p2mx', [
    {
      slotId: '2026-11-27T06:30:00.000Z',
      at: 1_795_761_001_400,
      outcome: 'posted',
    },
  ]);
  await store.setValue('watch:w2n6tz', '{"v":2,"facts":{"seen":[]}}');
  await store.close();
  return path;
}

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

describe('npm run store', () => {
  it(
    'exports under plain npm run to a file that imports, and under --silent prints the JSON alone',
    { timeout: 60_000 },
    async () => {
      const from = await seeded();
      const to = sqlite('target');
      const file = join(dir, 'herald-store.json');
      const exported = await run({ STORE_URL: from }, `npm run store -- export > ${file}`);
      expect(exported.code).toBe(0);
      expect(exported.stderr).toContain(
        `Exported 2 schedules (1 run of history) and 1 value from sqlite ${from}.`,
      );
      // npm's banner went into the file before the JSON; the import reads past it.
      expect(readFileSync(file, 'utf8')).toMatch(/^\n> herald@[\d.]+ store\n> .+\n\n\{"herald":"store"/);
      const imported = await run({ STORE_URL: to }, `npm run store -- import < ${file}`);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain(
        `Imported 2 schedules, 1 run of history and 1 value into sqlite ${to}.`,
      );
      const target = createSqliteStore(to);
      opened.push(target);
      expect((await target.listSchedules()).map((s) => s.id)).toEqual(['k7p2mx', 'w2n6tz']);
      expect(await target.getValue('watch:w2n6tz')).toBe('{"v":2,"facts":{"seen":[]}}');

      const silent = await run({ STORE_URL: to }, 'npm run --silent store -- export');
      expect(silent.code).toBe(0);
      expect(JSON.parse(silent.stdout)).toMatchObject({ herald: 'store', format: 1, from: 'sqlite' });
    },
  );

  it('writes to --out, reads a path, and --store names another store than the configured one', async () => {
    const from = await seeded();
    const to = sqlite('target');
    const out = join(dir, `${randomUUID()}.json`);
    const exported = await run(
      { STORE_URL: ':memory:' },
      `${node} src/store-command.ts export --store ${from} --out ${out}`,
    );
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    expect(existsSync(out)).toBe(true);
    const imported = await run(
      { STORE_URL: ':memory:' },
      `${node} src/store-command.ts import ${out} --store ${to}`,
    );
    expect(imported.stdout).toBe(`Imported 2 schedules, 1 run of history and 1 value into sqlite ${to}.\n`);
    const again = await run({ STORE_URL: to }, `${node} src/store-command.ts import ${out}`);
    expect(again.stdout).toBe(
      `Imported 2 schedules (2 were there already, left as they were), 1 run of history and 1 value into sqlite ${to}.\n`,
    );
  });

  it(
    'refuses, in one sentence each: the memory store, a running herald unless --force, no store, bad usage',
    { timeout: 60_000 },
    async () => {
      const memory = await run({ STORE_URL: ':memory:' }, `${node} src/store-command.ts export`);
      expect(memory).toMatchObject({ code: 1, stdout: '' });
      expect(memory.stderr).toBe(
        'The store is in memory (STORE_URL=:memory:), which lives only inside a running herald, so there is nothing here to export or import into: point STORE_URL at a SQLite file or REDIS_URL at a Redis.\n',
      );

      const from = await seeded();
      const out = join(dir, `${randomUUID()}.json`);
      await run({ STORE_URL: from }, `${node} src/store-command.ts export --out ${out}`);
      const to = sqlite('running');
      const target = createSqliteStore(to);
      opened.push(target);
      const beat = startHeartbeat(target, { owner: 'web-1:41' });
      const refused = await run({ STORE_URL: to }, `${node} src/store-command.ts import < ${out}`);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^A herald is running on this store \(web-1:41 wrote its heartbeat \d+ s ago\): stop it first \(a herald that stops takes its heartbeat away, one that died leaves it for at most 30 s\), or pass --force\.\n$/,
      );
      expect(await target.listSchedules()).toEqual([]);
      const forced = await run({ STORE_URL: to }, `${node} src/store-command.ts import --force < ${out}`);
      expect(forced.code).toBe(0);
      await beat.stop();

      const missing = join(dir, 'nothing-here.sqlite');
      const none = await run({ STORE_URL: missing }, `${node} src/store-command.ts export`);
      expect(none).toMatchObject({ code: 1, stderr: `There is no store at ${missing}.\n` });
      expect(existsSync(missing)).toBe(false);

      const usage = await run({ STORE_URL: from }, `${node} src/store-command.ts move`);
      expect(usage).toMatchObject({ code: 2, stderr: 'herald store: say export or import (try --help)\n' });
      const help = await run({}, `${node} src/store-command.ts --help`);
      expect(help.stdout).toMatch(/^Usage: npm run --silent store -- export/);
    },
  );
});
