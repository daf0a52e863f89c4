import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AdapterError, DeadlineError, ServiceError, UserError } from '../../src/errors.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { Invocation } from '../../src/core/adapter.ts';
import {
  defineCommand,
  type AccessCheck,
  type Command,
  type CommandContext,
} from '../../src/core/command.ts';
import { createDispatcher, type RateLimiter } from '../../src/core/dispatch.ts';
import { createQuotas } from '../../src/user-limits.ts';
import { registerSecret } from '../../src/redact.ts';
import type { Reply } from '../../src/core/reply.ts';
import { createRegistry } from '../../src/core/registry.ts';
import type { Services } from '../../src/core/services.ts';
import type { WeatherClient } from '../../src/services/weather/client.ts';
import { SERVICE_ERROR_CODES } from '../support/service-errors.ts';
import { OPERATOR as operator } from '../support/command-doubles.ts';

interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

function fakeLog() {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level'], bindings: Record<string, unknown> = {}) =>
    (obj: object, msg: string) =>
      lines.push({ level, obj: { ...bindings, ...(obj as Record<string, unknown>) }, msg });
  const make = (bindings: Record<string, unknown> = {}) => ({
    debug: at('debug', bindings),
    info: at('info', bindings),
    warn: at('warn', bindings),
    error: at('error', bindings),
  });
  return { lines, log: { ...make(), child: (b: Record<string, unknown>) => make(b) } };
}

const user: Actor = { platform: 'discord', id: 'u-1', displayName: 'Ada', roles: [] };

/**
 * A reply as the invoker reads it, its failure reference taken out (after checking that the text
 * quotes the one the reply carries); the reference has tests of its own.
 */
function withoutRef(reply: Reply): Reply {
  const { failureRef, ...rest } = reply;
  if (failureRef === undefined) return reply;
  expect(failureRef).toMatch(/^[0-9a-f]{8}$/);
  return { ...rest, text: rest.text.replace(` (ref ${failureRef})`, '') };
}

function invocation(command: string, rawInput: Invocation['rawInput'], over: Partial<Invocation> = {}) {
  const replies: Reply[] = [];
  const inv: Invocation = {
    command,
    rawInput,
    actor: user,
    channelId: 'c-1',
    signal: new AbortController().signal,
    respond: vi.fn(async (reply: Reply) => {
      replies.push(withoutRef(reply));
    }),
    ...over,
  };
  return { inv, replies };
}

const weatherClient = {} as WeatherClient;
const services: Services = { weather: weatherClient };

function setup(commands: Command[], over: Partial<Parameters<typeof createDispatcher>[0]> = {}) {
  const { lines, log } = fakeLog();
  const dispatcher = createDispatcher({
    registry: createRegistry(commands),
    services,
    log,
    commandTimeoutMs: 1_000,
    serviceVariables: {
      weather: 'WEATHER_API_KEY',
      speech: 'SPEECH_API_KEY',
      jobSearch: 'JOBS_APP_ID and JOBS_API_KEY',
    },
    now: () => new Date('2025-03-01T12:00:00Z'),
    ...over,
  });
  return { dispatcher, lines };
}

function echo(over: { ephemeral?: boolean; access?: AccessCheck[] } = {}, seen: unknown[] = []): Command {
  return defineCommand({
    name: 'echo',
    description: 'Echo',
    options: z.object({
      text: z.string().min(1).describe('Text'),
      times: z.number().int().min(1).max(3).default(1).describe('Repeats'),
      loud: z.boolean().default(false).describe('Upper case'),
    }),
    positional: ['text'],
    needs: [],
    handler: async (input, ctx) => {
      seen.push({ input, ctx });
      const text = Array.from({ length: input.times }, () => input.text).join(' ');
      return { text: input.loud ? text.toUpperCase() : text };
    },
    ...over,
  });
}

/** A command with no options. */
function bare(
  name: string,
  description: string,
  handler: (input: object, ctx: CommandContext) => Promise<Reply>,
  needs: Command['needs'] = [],
): Command {
  return defineCommand({ name, description, options: z.object({}), needs, handler });
}

function failing(err: unknown, name = 'boom', needs: Command['needs'] = []): Command {
  const handler = async (): Promise<Reply> => {
    throw err;
  };
  return bare(name, 'Fails', handler, needs);
}

const SECRET = 'sentinel-secret-9f8e7d6c';
const URL_TEXT = `https://api.openweathermap.org/data/2.5/weather?q=Oslo&appid=${SECRET}`;

describe('createDispatcher', () => {
  it('runs the handler with coerced, validated input and responds once with its reply', async () => {
    const seen: { input: unknown; ctx: CommandContext }[] = [];
    const { dispatcher } = setup([echo({}, seen)]);
    const { inv, replies } = invocation('echo', 'hello there times:2 loud:yes');
    await dispatcher.onInvocation(inv);
    expect(replies).toEqual([{ text: 'HELLO THERE HELLO THERE', ephemeral: false }]);
    expect(inv.respond).toHaveBeenCalledTimes(1);
    expect(seen[0]!.input).toEqual({ text: 'hello there', times: 2, loud: true });
    expect(seen[0]!.ctx.actor).toBe(user);
    expect(seen[0]!.ctx.now().toISOString()).toBe('2025-03-01T12:00:00.000Z');
    expect(seen[0]!.ctx.invocationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]!.ctx.services.weather).toBe(weatherClient);
  });

  it('takes typed options from a platform such as Discord', async () => {
    const { dispatcher } = setup([echo()]);
    const { inv, replies } = invocation('echo', { text: 'hi', times: 3 });
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('hi hi hi');
  });

  it('marks the reply ephemeral when the command says so and the reply does not decide', async () => {
    const { dispatcher } = setup([echo({ ephemeral: true })]);
    const { inv, replies } = invocation('echo', 'x');
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.ephemeral).toBe(true);
  });

  it('resolves a subcommand from the argument text', async () => {
    const status = defineCommand({
      name: 'email status',
      description: 'Status',
      options: z.object({ id: z.string().describe('Id') }),
      positional: ['id'],
      needs: [],
      handler: async (input) => ({ text: `status of ${input.id}` }),
    });
    const { dispatcher } = setup([status]);
    const { inv, replies } = invocation('email', 'status em_42');
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('status of em_42');
  });

  it('answers an unknown command privately and logs it as a user error', async () => {
    const { dispatcher, lines } = setup([echo()]);
    const { inv, replies } = invocation('ecko', 'x');
    await dispatcher.onInvocation(inv);
    expect(replies).toEqual([
      { text: 'There is no command /ecko; did you mean /echo? /help lists them all.', ephemeral: true },
    ]);
    const line = lines.find((l) => l.msg === 'command.failed')!;
    expect(line.level).toBe('info');
    expect(line.obj).toMatchObject({ command: 'ecko', outcome: 'user_error', code: 'unknown_command' });
  });

  it('logs at most 100 characters of an unknown command name typed 200 kB long', async () => {
    const { dispatcher, lines } = setup([echo()]);
    const name = `x${'é'.repeat(200_000)}`;
    await dispatcher.onInvocation(invocation(name, 'x').inv);
    const line = lines.find((l) => l.msg === 'command.failed')!;
    expect(line.obj).toMatchObject({ outcome: 'user_error', code: 'unknown_command' });
    const logged = line.obj['command'] as string;
    expect(logged.length).toBeLessThanOrEqual(100);
    expect(logged.startsWith('xéé')).toBe(true);
    expect(JSON.stringify(line.obj).length).toBeLessThan(1_000);
  });

  it('names the variable to set when a needed service is not configured, without running the handler', async () => {
    const handler = vi.fn(async () => ({ text: 'never' }));
    const say = bare('say', 'Speak', handler, ['speech']);
    const jobs = bare('jobs', 'Jobs', handler, ['jobSearch']);
    const { dispatcher } = setup([say, jobs] as Command[]);
    const first = invocation('say', '');
    await dispatcher.onInvocation(first.inv);
    expect(first.replies[0]).toEqual({
      text: 'The speech service is not configured; set SPEECH_API_KEY.',
      ephemeral: true,
    });
    const second = invocation('jobs', '');
    await dispatcher.onInvocation(second.inv);
    expect(second.replies[0]!.text).toBe(
      'The job search service is not configured; set JOBS_APP_ID and JOBS_API_KEY.',
    );
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers invalid input with one sentence naming the option, without running the handler', async () => {
    const seen: unknown[] = [];
    const { dispatcher } = setup([echo({}, seen)]);
    const { inv, replies } = invocation('echo', 'hi times:9');
    await dispatcher.onInvocation(inv);
    expect(replies).toEqual([{ text: 'times must be at most 3.', ephemeral: true }]);
    expect(seen).toHaveLength(0);
  });

  it('answers an option typed with an inherited name in one sentence, as any unknown option', async () => {
    const seen: unknown[] = [];
    const { dispatcher } = setup([echo({}, seen)]);
    for (const [line, text] of [
      [
        'hi constructor:1',
        '/echo has no option "constructor"; its options are text, times, loud (put words holding ":" in quotes).',
      ],
      [
        'hi toString:x',
        '/echo has no option "toString"; its options are text, times, loud (put words holding ":" in quotes).',
      ],
      ['text:hi __proto__:x', '/echo did not expect "__proto__:x"; usage: /echo text times:… loud:….'],
    ]) {
      const { inv, replies } = invocation('echo', line!);
      await dispatcher.onInvocation(inv);
      expect(replies).toEqual([{ text, ephemeral: true }]);
    }
    expect(seen).toHaveLength(0);
  });

  it('keeps an own "__proto__" key of a platform\'s typed options from changing the input', async () => {
    const seen: { input: unknown }[] = [];
    const { dispatcher } = setup([echo({}, seen)]);
    const rawInput = JSON.parse('{"text":"hi","__proto__":{"times":3,"loud":true}}') as Record<
      string,
      unknown
    >;
    const { inv, replies } = invocation('echo', rawInput);
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('hi');
    expect(seen[0]!.input).toEqual({ text: 'hi', times: 1, loud: false });
  });

  it('denies a user an access check rejects, and lets the console operator through', async () => {
    const check = vi.fn((ctx: CommandContext) =>
      ctx.actor.id === 'u-1'
        ? new UserError({ code: 'forbidden', message: 'Only ops may run /echo.' })
        : undefined,
    );
    const { dispatcher, lines } = setup([echo({ access: [check] })]);
    const denied = invocation('echo', 'x');
    await dispatcher.onInvocation(denied.inv);
    expect(denied.replies[0]).toEqual({ text: 'Only ops may run /echo.', ephemeral: true });
    expect(lines.find((l) => l.msg === 'command.failed')!.obj).toMatchObject({
      userId: 'u-1',
      code: 'forbidden',
    });
    const allowed = invocation('echo', 'x', { actor: operator });
    await dispatcher.onInvocation(allowed.inv);
    expect(allowed.replies[0]!.text).toBe('x');
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('begins the work only once input, access and the rate limit have let the command through', async () => {
    const check = (ctx: CommandContext) =>
      ctx.actor.id === 'u-2' ? new UserError({ code: 'forbidden', message: 'Not you.' }) : undefined;
    const spent = { consume: () => Promise.resolve({ allowed: false, retryAfterMs: 5_000 }) };
    const order: string[] = [];
    const traced = echo({ access: [check] }, { push: () => order.push('handler') } as unknown as unknown[]);
    const run = async (raw: string, over: Partial<Invocation>, rateLimit?: RateLimiter) => {
      const { dispatcher } = setup([traced], rateLimit ? { rateLimit } : {});
      const { inv, replies } = invocation('echo', raw, { beginWork: () => order.push('begin'), ...over });
      await dispatcher.onInvocation(inv);
      return replies[0]!;
    };
    // Refused by input, access or rate: no work began, so the refusal is the first answer.
    await run('text:', {});
    await run('x', { actor: { ...user, id: 'u-2' } });
    await run('x', {}, spent);
    expect(order).toEqual([]);
    expect((await run('x', {})).text).toBe('x');
    expect(order).toEqual(['begin', 'handler']);
  });

  it('gives each failure a reference, quoted to a chat user and carried by its log line', async () => {
    const { dispatcher, lines } = setup([failing(new Error('db down'))]);
    const refs: string[] = [];
    for (const actor of [user, { ...user, platform: 'slack' as const }, operator]) {
      let sent: Reply | undefined;
      const inv: Invocation = {
        ...invocation('boom', '').inv,
        actor,
        respond: (reply) => ((sent = reply), Promise.resolve()),
      };
      await dispatcher.onInvocation(inv);
      const ref = sent!.failureRef!;
      refs.push(ref);
      const line = lines.filter((l) => l.msg === 'command.failed').at(-1)!;
      expect(line.obj).toMatchObject({ ref, outcome: 'error' });
      const sentence = 'Something went wrong while running that command; it has been logged.';
      // The console's operator reads the log line beside the answer.
      expect(sent!.text).toBe(actor === operator ? sentence : `${sentence.slice(0, -1)} (ref ${ref}).`);
    }
    expect(new Set(refs).size).toBe(3);
  });

  it('rate limits each user per platform and exempts the console operator', async () => {
    const { dispatcher } = setup([echo()], {
      rateLimit: createQuotas({ perUserPerMinute: 2, sayDailyChars: 1 }).commands,
    });
    const texts: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { inv, replies } = invocation('echo', 'x');
      await dispatcher.onInvocation(inv);
      texts.push(replies[0]!.text);
    }
    expect(texts.slice(0, 2)).toEqual(['x', 'x']);
    expect(texts[2]).toMatch(/^You are sending commands too quickly; try again in (59|60) seconds\.$/);
    const other = invocation('echo', 'x', { actor: { ...user, id: 'u-2' } });
    await dispatcher.onInvocation(other.inv);
    expect(other.replies[0]!.text).toBe('x');
    const slack = invocation('echo', 'x', { actor: { ...user, platform: 'slack' } });
    await dispatcher.onInvocation(slack.inv);
    expect(slack.replies[0]!.text).toBe('x');
    for (let i = 0; i < 5; i += 1) {
      const { inv, replies } = invocation('echo', 'x', { actor: operator });
      await dispatcher.onInvocation(inv);
      expect(replies[0]!.text).toBe('x');
    }
  });

  it('keys the rate limit by platform and user id', async () => {
    const keys: string[] = [];
    const rateLimit: RateLimiter = {
      consume: async (key) => {
        keys.push(key);
        return { allowed: true, retryAfterMs: 0 };
      },
    };
    const { dispatcher } = setup([echo()], { rateLimit });
    await dispatcher.onInvocation(invocation('echo', 'x').inv);
    expect(keys).toEqual(['discord:u-1']);
  });

  it('keeps answering when the rate limiter store fails, and logs a warning', async () => {
    const rateLimit: RateLimiter = { consume: () => Promise.reject(new Error('redis down')) };
    const { dispatcher, lines } = setup([echo()], { rateLimit });
    const { inv, replies } = invocation('echo', 'x');
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('x');
    expect(lines.some((l) => l.level === 'warn' && l.msg === 'ratelimit.unavailable')).toBe(true);
  });

  it('answers with a deadline sentence when a handler hangs and ignores its signal', async () => {
    let signal: AbortSignal | undefined;
    const hang = bare('hang', 'Hangs', (_input, ctx) => {
      signal = ctx.signal;
      return new Promise<Reply>(() => undefined);
    });
    const { dispatcher, lines } = setup([hang], { commandTimeoutMs: 60 });
    const { inv, replies } = invocation('hang', '');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let isAnswered = false;
    try {
      const answering = dispatcher.onInvocation(inv).then(() => {
        isAnswered = true;
      });
      await vi.advanceTimersByTimeAsync(59);
      expect(isAnswered).toBe(false);
      // The handler never settles: only the deadline can end the command.
      await vi.advanceTimersByTimeAsync(1);
      expect(isAnswered).toBe(true);
      await answering;
    } finally {
      vi.useRealTimers();
    }
    expect(replies).toEqual([
      { text: 'That took too long to answer; try again in a moment.', ephemeral: true },
    ]);
    expect(signal?.aborted).toBe(true);
    const line = lines.find((l) => l.msg === 'command.failed')!;
    expect(line.level).toBe('error');
    expect(line.obj).toMatchObject({ command: 'hang', outcome: 'deadline' });
    expect(line.obj.err).toBeInstanceOf(DeadlineError);
  });

  it('treats an AbortError from a handler that honours its signal as the deadline', async () => {
    const polite = bare(
      'polite',
      'Honours the signal',
      (_input, ctx) =>
        new Promise<Reply>((_, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const { dispatcher } = setup([polite], { commandTimeoutMs: 30 });
    const { inv, replies } = invocation('polite', '');
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('That took too long to answer; try again in a moment.');
  });

  it("stops waiting when the platform's reply window closes", async () => {
    const controller = new AbortController();
    const hang = bare('hang', 'Hangs', () => new Promise<Reply>(() => undefined));
    const { dispatcher } = setup([hang], { commandTimeoutMs: 10_000 });
    const { inv, replies } = invocation('hang', '', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('interaction expired')), 20);
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('That took too long to answer; try again in a moment.');
  });

  describe('error mapping', () => {
    const codes = SERVICE_ERROR_CODES;
    const cases: [string, unknown, RegExp][] = [
      [
        'a user error',
        new UserError({ code: 'invalid_input', message: 'That city name is too long.' }),
        /^That city name is too long\.$/,
      ],
      ...codes.map((code): [string, unknown, RegExp] => [
        `a ${code} service error`,
        new ServiceError({
          service: 'weather',
          operation: 'current',
          code,
          status: 500,
          retryAfterMs: 2_000,
          providerMessage: `upstream said ${URL_TEXT} <html>stack</html>`,
          message: `GET ${URL_TEXT} failed`,
        }),
        /^The weather service [^/]*\.$/,
      ]),
      ['a deadline error', new DeadlineError({ ms: 5 }), /^That took too long/],
      [
        'an adapter error',
        new AdapterError({ platform: 'slack', code: 'send_failed', message: `POST ${URL_TEXT}` }),
        /^Something went wrong/,
      ],
      [
        'a plain error with a URL and a secret',
        new Error(`fetch ${URL_TEXT} failed: token ${SECRET}`),
        /^Something went wrong/,
      ],
      ['a thrown string', `raw ${URL_TEXT}`, /^Something went wrong/],
      ['undefined', undefined, /^Something went wrong/],
    ];
    for (const [what, err, expected] of cases) {
      it(`answers ${what} with one clear private sentence and nothing sensitive`, async () => {
        const { dispatcher } = setup([failing(err)]);
        const { inv, replies } = invocation('boom', '');
        await dispatcher.onInvocation(inv);
        expect(inv.respond).toHaveBeenCalledTimes(1);
        expect(replies[0]!.ephemeral).toBe(true);
        const text = replies[0]!.text;
        expect(text).toMatch(expected);
        expect(text).not.toContain(SECRET);
        expect(text).not.toMatch(/https?:|appid|<html>|\bat .*\.ts:\d+/);
      });
    }

    it('logs service errors at warn with the service and code, and others at error with err', async () => {
      const serviceError = new ServiceError({
        service: 'weather',
        operation: 'current',
        code: 'upstream',
        status: 502,
      });
      const { dispatcher, lines } = setup([
        failing(serviceError, 'svc'),
        failing(new TypeError('x is undefined'), 'bug'),
      ]);
      await dispatcher.onInvocation(invocation('svc', '').inv);
      await dispatcher.onInvocation(invocation('bug', '').inv);
      const [svc, bug] = lines.filter((l) => l.msg === 'command.failed');
      expect(svc!.level).toBe('warn');
      expect(svc!.obj).toMatchObject({
        service: 'weather',
        operation: 'current',
        code: 'upstream',
        status: 502,
        outcome: 'service_error',
      });
      expect(bug!.level).toBe('error');
      expect(bug!.obj).toMatchObject({ command: 'bug', outcome: 'error' });
      expect(bug!.obj.err).toBeInstanceOf(TypeError);
    });
  });

  it('logs a finished command with its timing and who ran it', async () => {
    const records: unknown[] = [];
    const { dispatcher, lines } = setup([echo()], { onCommand: (r) => records.push(r) });
    await dispatcher.onInvocation(invocation('echo', 'x').inv);
    const line = lines.find((l) => l.msg === 'command.finished')!;
    expect(line.level).toBe('info');
    expect(line.obj).toEqual({
      command: 'echo',
      invocationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: 'u-1',
      platform: 'discord',
      durationMs: expect.any(Number),
      outcome: 'ok',
    });
    expect(records).toEqual([line.obj]);
  });

  it('gives the handler a logger bound to the command and invocation', async () => {
    const chatty = bare('chatty', 'Logs', async (_input, ctx) => {
      ctx.log.info({ step: 1 }, 'chatty.step');
      return { text: 'done' };
    });
    const { dispatcher, lines } = setup([chatty]);
    await dispatcher.onInvocation(invocation('chatty', '').inv);
    const step = lines.find((l) => l.msg === 'chatty.step')!;
    const finished = lines.find((l) => l.msg === 'command.finished')!;
    expect(step.obj).toEqual({ command: 'chatty', invocationId: finished.obj.invocationId, step: 1 });
  });

  it('never throws when respond fails, and logs it', async () => {
    const { dispatcher, lines } = setup([echo()]);
    const { inv } = invocation('echo', 'x', {
      respond: vi.fn(() =>
        Promise.reject(new AdapterError({ platform: 'discord', code: 'expired', message: 'gone' })),
      ),
    });
    // The command itself ran: its outcome is ok, whatever became of the delivery.
    await expect(dispatcher.onInvocation(inv)).resolves.toBe('ok');
    expect(inv.respond).toHaveBeenCalledTimes(1);
    expect(lines.some((l) => l.level === 'error' && l.msg === 'command.respond_failed')).toBe(true);
  });

  it('turns a handler that returns no reply into the generic sentence', async () => {
    const broken = bare('broken', 'Returns nothing', async () => undefined as unknown as Reply);
    const { dispatcher } = setup([broken]);
    const { inv, replies } = invocation('broken', '');
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toMatch(/^Something went wrong/);
  });

  it('redacts a configured secret from every reply it sends, typed or scheduled', async () => {
    const key = 'dispatch-echoed-key-41c7b9d2';
    registerSecret(key);
    const echoed = bare('echoed', 'Echoes upstream data', async () => ({
      text: `Zocca ${key}`,
      embeds: [{ title: key, description: `at ${key}`, fields: [{ name: key, value: key }], footer: key }],
      actions: [{ label: `More ${key}`, command: 'echoed', input: { q: key, page: 2 } }],
      attachments: [
        {
          filename: `${key}.png`,
          contentType: 'image/png',
          bytes: new Uint8Array(1),
          description: `alt ${key}`,
        },
      ],
    }));
    const { dispatcher } = setup([echoed]);
    const { inv, replies } = invocation('echoed', '');
    await dispatcher.onInvocation(inv);
    const scheduled = await dispatcher.run('/echoed', user, new AbortController().signal);
    for (const reply of [replies[0]!, scheduled]) {
      expect(JSON.stringify(reply)).not.toContain(key);
      expect(reply.text).toBe('Zocca [REDACTED]');
      expect(reply.embeds![0]!.fields).toEqual([{ name: '[REDACTED]', value: '[REDACTED]' }]);
      expect(reply.actions![0]!.input).toEqual({ q: '[REDACTED]', page: 2 });
      expect(reply.attachments![0]).toMatchObject({
        filename: '[REDACTED].png',
        description: 'alt [REDACTED]',
      });
    }
  });

  it('drains in-flight commands and refuses new ones while shutting down', async () => {
    let release: (() => void) | undefined;
    const slow = bare(
      'slow',
      'Slow',
      () => new Promise<Reply>((resolve) => (release = () => resolve({ text: 'finally' }))),
    );
    const { dispatcher, lines } = setup([slow]);
    const first = invocation('slow', '');
    const running = dispatcher.onInvocation(first.inv);
    expect(dispatcher.inFlight()).toBe(1);
    const drained = dispatcher.drain(2_000);
    const late = invocation('slow', '');
    await dispatcher.onInvocation(late.inv);
    expect(late.replies[0]!.text).toBe('herald is shutting down; try again in a moment.');
    // Its own code: a refusal at shutdown is not the invoker sending too quickly.
    expect(lines.find((l) => l.msg === 'command.failed')?.obj).toMatchObject({ code: 'shutting_down' });
    // The handler starts on its turn, after the checks.
    await vi.waitFor(() => expect(release).toBeDefined());
    release!();
    await running;
    await expect(drained).resolves.toBe(true);
    expect(first.replies[0]!.text).toBe('finally');
    expect(dispatcher.inFlight()).toBe(0);
  });

  it('gives up draining after the bound', async () => {
    const hang = bare('hang', 'Hangs', () => new Promise<Reply>(() => undefined));
    const { dispatcher } = setup([hang], { commandTimeoutMs: 5_000 });
    void dispatcher.onInvocation(invocation('hang', '').inv);
    await expect(dispatcher.drain(30)).resolves.toBe(false);
  });

  describe('autocomplete', () => {
    function withAutocomplete(
      complete: (partial: string, ctx: CommandContext) => Promise<{ name: string; value: string }[]>,
      needs: Command['needs'] = [],
    ) {
      return defineCommand({
        name: 'say',
        description: 'Speak',
        options: z.object({ voice: z.string().optional().describe('Voice') }),
        needs,
        autocomplete: { voice: complete },
        handler: async () => ({ text: 'x' }),
      });
    }
    const request = { command: 'say', option: 'voice', partial: 'ra', actor: user };

    it('returns at most 25 choices', async () => {
      const many = Array.from({ length: 40 }, (_, i) => ({ name: `Voice ${i}`, value: `v${i}` }));
      const { dispatcher } = setup([withAutocomplete(async () => many)]);
      const choices = await dispatcher.onAutocomplete(request);
      expect(choices).toHaveLength(25);
      expect(choices[0]).toEqual({ name: 'Voice 0', value: 'v0' });
    });

    it('passes the partial text to the command', async () => {
      const complete = vi.fn(async (partial: string) => [{ name: partial, value: partial }]);
      const { dispatcher } = setup([withAutocomplete(complete)]);
      expect(await dispatcher.onAutocomplete(request)).toEqual([{ name: 'ra', value: 'ra' }]);
    });

    it('returns no choices on an error, a slow answer, a missing service or an unknown option', async () => {
      const failingSetup = setup([withAutocomplete(() => Promise.reject(new Error('x')))]);
      expect(await failingSetup.dispatcher.onAutocomplete(request)).toEqual([]);
      const slowSetup = setup([withAutocomplete(() => new Promise(() => undefined))], {
        autocompleteTimeoutMs: 20,
      });
      expect(await slowSetup.dispatcher.onAutocomplete(request)).toEqual([]);
      const complete = vi.fn(async () => [{ name: 'a', value: 'a' }]);
      const missing = setup([withAutocomplete(complete, ['speech'])]);
      expect(await missing.dispatcher.onAutocomplete(request)).toEqual([]);
      expect(await missing.dispatcher.onAutocomplete({ ...request, option: 'other' })).toEqual([]);
      expect(await missing.dispatcher.onAutocomplete({ ...request, command: 'nope' })).toEqual([]);
      expect(complete).not.toHaveBeenCalled();
    });

    it('treats an option named like an inherited member as one without completion, calling nothing', async () => {
      const complete = vi.fn(async () => [{ name: 'a', value: 'a' }]);
      const { dispatcher, lines } = setup([withAutocomplete(complete)]);
      for (const option of ['constructor', 'toString', '__proto__'])
        expect(await dispatcher.onAutocomplete({ ...request, option })).toEqual([]);
      expect(complete).not.toHaveBeenCalled();
      expect(lines.filter((l) => l.msg === 'autocomplete.failed')).toEqual([]);
    });
  });
});

describe('notices waiting for the invoker (their schedule paused)', () => {
  it("rides on the reply to the creator's next command, once, and only theirs", async () => {
    const waiting = new Map([[`discord:${user.id}`, 'Schedule k7p2mx is paused: the channel is gone.']]);
    const notices = {
      take: (actor: Actor) => {
        const key = `${actor.platform}:${actor.id}`;
        const text = waiting.get(key);
        waiting.delete(key);
        return Promise.resolve(text);
      },
    };
    const { dispatcher } = setup([echo()], { notices });
    const other = invocation('echo', { text: 'hi' }, { actor: { ...user, id: 'u-2' } });
    await dispatcher.onInvocation(other.inv);
    expect(other.replies[0]!.text).toBe('hi');
    const first = invocation('echo', { text: 'hi' });
    await dispatcher.onInvocation(first.inv);
    expect(first.replies[0]!.text).toBe('hi\n\nSchedule k7p2mx is paused: the channel is gone.');
    const second = invocation('echo', { text: 'hi' });
    await dispatcher.onInvocation(second.inv);
    expect(second.replies[0]!.text).toBe('hi');
  });

  it('a store that fails to give the notices costs only them', async () => {
    const { dispatcher, lines } = setup([echo()], {
      notices: { take: () => Promise.reject(new Error('down')) },
    });
    const { inv, replies } = invocation('echo', { text: 'hi' });
    await dispatcher.onInvocation(inv);
    expect(replies[0]!.text).toBe('hi');
    expect(lines.some((l) => l.msg === 'command.notices_failed')).toBe(true);
  });
});
