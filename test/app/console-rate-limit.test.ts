// On the interactive console, log lines print above the prompt (adapters/console/terminal-log.ts)
// at the interactive default level, warn. A provider's ordinary rate limit is answered in one
// sentence and must not also print an error with its stack trace there.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTerminalLog } from '../../adapters/console/terminal-log.ts';
import { defineCommand } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { ServiceError } from '../../src/errors.ts';
import { createLogger } from '../../src/log.ts';
import { OPERATOR } from '../support/command-doubles.ts';

function consoleWith(error: Error) {
  const stream = new PassThrough();
  let printed = '';
  stream.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const terminal = createTerminalLog({ stream, format: 'pretty' });
  const log = createLogger({ level: 'warn', format: 'pretty', destination: terminal.destination });
  const weather = defineCommand({
    name: 'weather',
    description: 'Weather',
    options: z.object({ city: z.string().describe('City') }),
    positional: ['city'],
    needs: [],
    handler: () => Promise.reject(error),
  });
  const dispatcher = createDispatcher({
    registry: createRegistry([weather]),
    services: {},
    log,
    commandTimeoutMs: 5_000,
    serviceVariables: {},
  });
  const replies: string[] = [];
  const run = () =>
    dispatcher.onInvocation({
      command: 'weather',
      rawInput: 'Oslo',
      actor: OPERATOR,
      channelId: 'console',
      signal: new AbortController().signal,
      respond: (reply) => {
        replies.push(reply.text);
        return Promise.resolve();
      },
    });
  return { run, replies, printed: () => printed };
}

describe('the interactive console and an ordinary rate limit', () => {
  it('answers a provider 429 in one sentence and prints no stack trace above the prompt', async () => {
    const limited = new ServiceError({
      service: 'weather',
      operation: 'current',
      code: 'rate_limited',
      status: 429,
      retryAfterMs: 30_000,
      providerMessage: 'Your account is temporary blocked due to exceeding of requests limitation',
    });
    const c = consoleWith(limited);
    await c.run();
    expect(c.replies).toEqual(['The weather service is rate limiting herald; try again in 30 seconds.']);
    expect(c.printed()).not.toMatch(/\n\s+at /);
    expect(c.printed()).not.toContain('ServiceError');
  });

  it('still prints a failing upstream at warn, and a bug with its stack at error', async () => {
    const failing = consoleWith(
      new ServiceError({ service: 'weather', operation: 'current', code: 'upstream', status: 502 }),
    );
    await failing.run();
    expect(failing.printed()).toMatch(/WARN.*command\.failed/);
    const bug = consoleWith(new TypeError('city is undefined'));
    await bug.run();
    expect(bug.printed()).toMatch(/ERROR.*command\.failed/);
    expect(bug.printed()).toMatch(/\n\s+at /);
  });
});
