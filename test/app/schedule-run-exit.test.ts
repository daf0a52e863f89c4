// A piped `/schedule run` whose run failed makes the session exit 1, as any failed command does.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../adapters/console/adapter.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { Services } from '../../src/core/services.ts';
import { createLogger } from '../../src/log.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { OPERATOR as operator } from '../support/command-doubles.ts';

const log = createLogger({ level: 'silent', format: 'json' });

/** A weather client whose every call fails as a bug would, and a webhook that takes every post. */
function services(): Services {
  return {
    weather: {
      current: () => Promise.reject(new TypeError('weather is broken')),
      close: () => Promise.resolve(),
    },
    webhook: {
      execute: () => Promise.resolve({ id: '1300000000000000099' }),
      close: () => Promise.resolve(),
    },
  } as unknown as Services;
}

async function pipedRun() {
  const schedules = createMemoryStore();
  const app = buildApp(loadConfig({}), 'job', {
    services: services(),
    store: schedules,
    destinations: {},
    log,
  });
  const { record } = await app.scheduling.service.add(
    { when: 'every day at 08:00', command: '/weather Oslo' },
    operator,
  );
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const adapter = createConsoleAdapter({ input, output, audioDir: '/tmp', log, isTTY: false });
  await adapter.start(app.registry, app.dispatcher);
  input.end(`/schedule run ${record.id}\n`);
  const { exitCode } = await adapter.finished;
  await adapter.stop();
  return { exitCode, printed };
}

describe('piped /schedule run', () => {
  it('exits 1 when the run failed, saying why', async () => {
    const { exitCode, printed } = await pipedRun();
    expect(printed).toMatch(/Schedule \w+ failed: /);
    expect(exitCode).toBe(1);
  });
});
