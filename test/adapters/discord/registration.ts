// What the registration tests share: the loopback fake Discord started once per file (its calls
// and overrides dropped before each test), the Discord variables of a guild registration, and
// `npm run register` (src/register-commands.ts) run in a child process as an operator runs it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { CHILD_ENV } from '../../support/spawn-herald.ts';
import { APP_ID, BOT_TOKEN, GUILD_ID, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';

const SCRIPT = fileURLToPath(new URL('../../../src/register-commands.ts', import.meta.url));

export const DISCORD_ENV = {
  DISCORD_TOKEN: BOT_TOKEN,
  DISCORD_APPLICATION_ID: APP_ID,
  DISCORD_GUILD_ID: GUILD_ID,
};

/** `npm run register` with `args`, logs silent, in an environment of `env` alone; its exit and output. */
export function registerRun(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { PATH: process.env.PATH ?? '', ...CHILD_ENV, LOG_LEVEL: 'silent', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/**
 * Starts the fake Discord before the tests of the enclosing file or describe and closes it after
 * them; before each test its recorded calls and REST overrides are dropped. The returned fake
 * forwards to the running one, so it can be held in a `const`.
 */
export function useFakeDiscord(): FakeDiscord {
  let current: FakeDiscord | undefined;
  const live = (): FakeDiscord => {
    if (!current) throw new Error('the fake Discord runs only between beforeAll and afterAll');
    return current;
  };
  beforeAll(async () => {
    current = await startFakeDiscord();
  });
  afterAll(() => current?.close());
  beforeEach(() => {
    live().calls.length = 0;
    live().rest.resetHandlers();
  });
  // Every member is read from the running fake at the time of use: its methods use no `this`.
  return new Proxy({} as FakeDiscord, { get: (_target, key) => Reflect.get(live(), key) as unknown });
}
