import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createConsoleAdapter, EXIT_FAILED, EXIT_REFUSED } from '../../adapters/console/adapter.ts';
import { renderConsole } from '../../adapters/console/render.ts';
import type { AdapterHandlers, Invocation } from '../../src/core/adapter.ts';
import { defineCommand, type CommandContext } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import type { Reply } from '../../src/core/reply.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { ServiceError, UserError } from '../../src/errors.ts';

const quietLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

describe('renderConsole', () => {
  it('renders the text alone when there is nothing else', () => {
    expect(renderConsole({ text: 'Sent. The email id is em_1.' })).toBe('Sent. The email id is em_1.');
  });

  it('renders an embed as a card with title, url, description, aligned fields, footer and timestamp', () => {
    const out = renderConsole({
      text: 'Weather in Oslo',
      embeds: [
        {
          title: 'Oslo, NO',
          url: 'https://openweathermap.org/city/3143244',
          description: 'Light rain',
          color: 'info',
          fields: [
            { name: 'Temperature', value: '7.2 °C', inline: true },
            { name: 'Wind', value: '3.6 m/s' },
            { name: 'Humidity', value: '81 %' },
          ],
          footer: 'OpenWeatherMap',
          timestamp: '2025-03-01T12:34:56Z',
        },
      ],
    });
    // The text repeats the card for notifications: the console shows the card alone.
    expect(out.split('\n')).toEqual([
      '│ Oslo, NO',
      '│ https://openweathermap.org/city/3143244',
      '│ Light rain',
      '│',
      '│ Temperature  7.2 °C',
      '│ Wind         3.6 m/s',
      '│ Humidity     81 %',
      '│ OpenWeatherMap · 1 Mar 2025, 12:34 UTC',
    ]);
  });

  it('indents the continuation lines of a multi-line field value under the value column', () => {
    const out = renderConsole({
      text: 'Host',
      embeds: [
        {
          fields: [
            { name: 'Ports', value: '22/tcp OpenSSH\n443/tcp nginx' },
            { name: 'Org', value: 'Example' },
          ],
        },
      ],
    });
    expect(out).toContain('│ Ports  22/tcp OpenSSH\n│        443/tcp nginx\n│ Org    Example');
  });

  it("spells a field's link out after its value", () => {
    const out = renderConsole({
      text: 'History',
      embeds: [
        {
          fields: [
            {
              name: 'slot',
              value: 'posted',
              link: { label: 'view message', url: 'https://discord.com/channels/1/2/3' },
            },
          ],
        },
      ],
    });
    expect(out).toContain('│ slot  posted view message (https://discord.com/channels/1/2/3)');
  });

  it('lists fields under their names once a name is too long to align', () => {
    const out = renderConsole({
      text: 'Jobs',
      embeds: [
        {
          fields: [
            { name: '1. Senior Rust Developer (Hybrid)', value: 'Acme GmbH · Berlin\n€60,000–€80,000' },
            { name: '2. Rust Engineer', value: 'Initech · Berlin' },
          ],
        },
      ],
    });
    expect(out.split('\n')).toEqual([
      '│ 1. Senior Rust Developer (Hybrid)',
      '│   Acme GmbH · Berlin',
      '│   €60,000–€80,000',
      '│ 2. Rust Engineer',
      '│   Initech · Berlin',
    ]);
  });

  it('shows each button as the console line that runs it', () => {
    const out = renderConsole({
      text: '1,234 jobs',
      actions: [
        { label: 'Next page', command: 'jobs', input: { what: 'rust developer', where: 'Berlin', page: 3 } },
      ],
    });
    expect(out).toContain('[Next page] /jobs what:"rust developer" where:Berlin page:3');
  });

  it('prints where each attachment was saved, and says when one could not be', () => {
    const bytes = new Uint8Array(2048);
    const out = renderConsole(
      {
        text: 'Here is your audio.',
        attachments: [
          { filename: 'say.mp3', contentType: 'audio/mpeg', bytes },
          { filename: 'b.mp3', contentType: 'audio/mpeg', bytes: new Uint8Array(10) },
        ],
      },
      { savedPaths: ['/tmp/out/a-say.mp3', undefined] },
    );
    expect(out).toContain('Saved say.mp3 (audio/mpeg, 2.0 KiB) to /tmp/out/a-say.mp3');
    expect(out).toContain('Could not save b.mp3 (audio/mpeg, 10 B).');
  });

  it('reads chat markdown as plain text', () => {
    expect(renderConsole({ text: '**Bold** and [the docs](https://example.com/d)' })).toBe(
      'Bold and the docs (https://example.com/d)',
    );
  });

  it('drops code fences and inline code marks', () => {
    const out = renderConsole({
      text: 'Ports',
      embeds: [{ description: '```\n53/udp  dnsmasq\n22/tcp  ssh\n```' }],
    });
    expect(out).toBe('│ 53/udp  dnsmasq\n│ 22/tcp  ssh');
    expect(renderConsole({ text: 'Voice `abc123`' })).toBe('Voice abc123');
  });

  it('shows terminal control sequences and bidi controls in reply text as visible escapes', () => {
    const out = renderConsole({
      text: 'ok',
      embeds: [{ title: 'A\u001b]0;pwned\u0007B', fields: [{ name: 'City', value: '\u202eLondon\u2066' }] }],
    });
    const text = renderConsole({ text: 'ok\u001b[2J\u0007' });
    for (const shown of [out, text]) {
      // eslint-disable-next-line no-control-regex
      expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Bidi_Control}/u);
    }
    expect(text).toBe('ok\\x1b[2J\\x07');
    expect(out).toContain('A\\x1b]0;pwned\\x07B');
    expect(out).toContain('City  \\u202eLondon\\u2066');
  });

  it('colours the card bar by palette token only when asked', () => {
    const reply: Reply = { text: 'x', embeds: [{ title: 'T', color: 'error' }] };
    expect(renderConsole(reply, { isColor: true })).toContain('\u001b[31m│\u001b[0m');
    expect(renderConsole(reply)).not.toContain('\u001b[');
  });
});

describe('createConsoleAdapter', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-console-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const echo = defineCommand({
    name: 'echo',
    description: 'Echo after a delay',
    options: z.object({
      text: z.string().describe('Text'),
      delay: z.number().int().min(0).max(500).default(0).describe('Delay in ms'),
    }),
    positional: ['text'],
    needs: [],
    handler: async (input) => {
      await sleep(input.delay);
      return { text: `echo: ${input.text}` };
    },
  });
  const who = defineCommand({
    name: 'who',
    description: 'Who runs this',
    options: z.object({}),
    needs: [],
    access: [() => new UserError({ code: 'forbidden', message: 'denied' })],
    handler: async (_input, ctx: CommandContext) => ({
      text: `${ctx.actor.id} operator=${String(ctx.actor.isOperator)}`,
    }),
  });
  const beep = defineCommand({
    name: 'beep',
    description: 'Returns audio',
    options: z.object({}),
    needs: [],
    handler: async () => ({
      text: 'Audio ready.',
      attachments: [
        {
          filename: '../../evil name.mp3',
          contentType: 'audio/mpeg',
          bytes: Uint8Array.of(0xff, 0xfb, 0x90, 0x00),
        },
      ],
    }),
  });
  const flaky = defineCommand({
    name: 'flaky',
    description: 'Fails as a provider would',
    options: z.object({}),
    needs: [],
    handler: async () => {
      throw new ServiceError({ service: 'weather', operation: 'current', code: 'upstream', status: 500 });
    },
  });
  const registry = createRegistry([echo, who, beep, flaky]);

  function newDispatcher() {
    return createDispatcher({
      registry,
      services: {},
      log: quietLog,
      commandTimeoutMs: 2_000,
      serviceVariables: {},
    });
  }

  /** A console adapter on in-memory streams; `out()` is everything it has written so far. */
  function consoleOn(over: Partial<Parameters<typeof createConsoleAdapter>[0]> = {}) {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const adapter = createConsoleAdapter({
      input,
      output,
      audioDir: dir,
      log: quietLog,
      isTTY: false,
      ...over,
    });
    return { input, adapter, out: () => written };
  }

  function session(lines: string, handlers?: AdapterHandlers, concurrency?: number) {
    const { input, adapter, out } = consoleOn({ concurrency });
    const dispatcher = newDispatcher();
    return {
      adapter,
      run: async () => {
        await adapter.start(registry, handlers ?? dispatcher);
        input.end(lines);
        await adapter.finished;
        return out();
      },
      exitCode: async () => {
        await adapter.start(registry, handlers ?? dispatcher);
        input.end(lines);
        return (await adapter.finished).exitCode;
      },
    };
  }

  it('prints one reply block per command line in input order, even when later ones finish first', async () => {
    const { run } = session('/echo first delay:120\n/echo second delay:0\n/echo third delay:40\n');
    const out = await run();
    expect(out).toBe(
      '> /echo first delay:120\necho: first\n\n> /echo second delay:0\necho: second\n\n> /echo third delay:40\necho: third\n\n',
    );
  });

  it('runs piped commands concurrently', async () => {
    const events: string[] = [];
    let started = 0;
    let allStarted: () => void = () => undefined;
    const together = new Promise<void>((r) => (allStarted = r));
    const handlers: AdapterHandlers = {
      onAutocomplete: async () => [],
      onInvocation: async (inv) => {
        const text = typeof inv.rawInput === 'string' ? inv.rawInput : '';
        events.push(`start ${text}`);
        if (++started === 3) allStarted();
        // Each answers once all three run. Run one after another, the first would wait for ever:
        // the second's bound turns that into the wrong order below instead of a hang.
        await Promise.race([together, sleep(1_000)]);
        events.push(`end ${text}`);
        await inv.respond({ text: `ran ${text}` });
      },
    };
    const out = await session('/echo a\n/echo b\n/echo c\n', handlers).run();
    expect(events.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
    expect(out).toBe('> /echo a\nran a\n\n> /echo b\nran b\n\n> /echo c\nran c\n\n');
  });

  it('ignores blank lines and # comments, and answers unknown commands in their place', async () => {
    const out = await session('\n# a comment\n   \n/nope\necho bare words\n').run();
    const blocks = out.trim().split('\n\n');
    expect(blocks).toEqual([
      '> /nope\nThere is no command /nope; /help lists them all.',
      '> echo bare words\necho: bare words',
    ]);
  });

  it('runs commands as the local operator, who passes every access check', async () => {
    const out = await session('/who\n').run();
    expect(out).toContain('local operator=true');
  });

  it('writes attachments to the audio directory with unique, safe names and prints the path', async () => {
    const out = await session('/beep\n/beep\n').run();
    const files = await readdir(dir);
    expect(files).toHaveLength(2);
    expect(new Set(files).size).toBe(2);
    for (const file of files) {
      expect(file).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}-evil_name\.mp3$/);
      expect(out).toContain(join(dir, file));
      expect([...(await readFile(join(dir, file)))]).toEqual([0xff, 0xfb, 0x90, 0x00]);
    }
  });

  it('keeps answering when the audio directory cannot be written', async () => {
    const blocked = join(dir, 'file');
    await writeFile(blocked, 'x');
    const { input, adapter, out } = consoleOn({ audioDir: join(blocked, 'audio') });
    await adapter.start(registry, newDispatcher());
    input.end('/beep\n/echo after\n');
    await adapter.finished;
    expect(out()).toContain('Could not save ../../evil name.mp3 (audio/mpeg, 4 B).');
    expect(out()).toContain('echo: after');
  });

  it('finishes at end of input only after every command has answered', async () => {
    let release: () => void = () => undefined;
    const handlers: AdapterHandlers = {
      onAutocomplete: async () => [],
      onInvocation: async (inv: Invocation) => {
        await new Promise<void>((r) => (release = r));
        await inv.respond({ text: 'late' });
      },
    };
    const { adapter, run } = session('/echo x\n', handlers);
    let isDone = false;
    const done = run().then((out) => {
      isDone = true;
      return out;
    });
    await sleep(50);
    expect(isDone).toBe(false);
    expect(adapter.isReady()).toBe(false);
    release();
    expect(await done).toBe('> /echo x\nlate\n\n');
  });

  it('echoes a typed line with its terminal and bidi controls as visible escapes', async () => {
    const out = await session('/nope \u001b]0;pwned\u0007\u001b[2J \u202eevil\n').run();
    expect(out.split('\n')[0]).toBe('> /nope \\x1b]0;pwned\\x07\\x1b[2J \\u202eevil');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Bidi_Control}/u);
  });

  it.each(['exit', 'quit', 'EXIT', '/quit'])(
    'ends a piped session at %s: the lines before it answer, the lines after it never run',
    async (word) => {
      const ran: string[] = [];
      const handlers: AdapterHandlers = {
        onAutocomplete: async () => [],
        onInvocation: async (inv) => {
          const text = typeof inv.rawInput === 'string' ? inv.rawInput : '';
          ran.push(text);
          await inv.respond({ text: `ran ${text}` });
        },
      };
      const out = await session(`/echo before\n${word}\n/echo after\n`, handlers).run();
      expect(out).toBe('> /echo before\nran before\n\n');
      expect(ran).toEqual(['before']);
    },
  );

  it('exits 0 when every piped command answered', async () => {
    expect(await session('/echo a\n/who\n').exitCode()).toBe(0);
  });

  it('exits EXIT_REFUSED (3) when a command was refused and none failed', async () => {
    expect(EXIT_REFUSED).toBe(3);
    expect(await session('/echo a\n/nope\n/echo b\n').exitCode()).toBe(EXIT_REFUSED);
    expect(await session('/echo a delay:-1\n').exitCode()).toBe(EXIT_REFUSED);
  });

  it('exits EXIT_FAILED (1) when a command failed with a service error, refusals or not', async () => {
    expect(EXIT_FAILED).toBe(1);
    expect(await session('/echo a\n/flaky\n/nope\n').exitCode()).toBe(EXIT_FAILED);
  });

  it('exits EXIT_FAILED when a command ran past the deadline or the handler broke', async () => {
    const slow = createDispatcher({
      registry,
      services: {},
      log: quietLog,
      commandTimeoutMs: 20,
      serviceVariables: {},
    });
    expect(await session('/echo late delay:200\n', slow).exitCode()).toBe(EXIT_FAILED);
    const broken: AdapterHandlers = {
      onAutocomplete: async () => [],
      onInvocation: () => Promise.reject(new Error('boom')),
    };
    expect(await session('/echo x\n', broken).exitCode()).toBe(EXIT_FAILED);
  });

  it('finishes at once on empty input', async () => {
    expect(await session('').run()).toBe('');
  });

  it('on a terminal shows the notice and a prompt, answers, and ends on exit', async () => {
    const { input, adapter, out } = consoleOn({
      isTTY: true,
      notice: 'The built-in sandbox answers: replies are simulated.',
    });
    await adapter.start(registry, newDispatcher());
    input.write('/echo hello\n');
    await sleep(50);
    input.write('exit\n');
    await adapter.finished;
    const screen = out();
    expect(screen).toContain('The built-in sandbox answers: replies are simulated.');
    expect(screen).toContain('herald> ');
    expect(screen).toContain('echo: hello');
    expect(screen).not.toContain('> /echo hello\n');
  });
});
